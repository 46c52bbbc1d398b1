/// An error of the node layer; the tree decoder adds the coding path and rethrows it as a
/// `DecodingError` with this error as `underlyingError`.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"truncated"`.
        public let name: String
        /// A code with the given name; the library's codes are the static members below.
        public init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The input ended inside a value.
        public static let truncated = Code("truncated")
        /// Bytes that no valid encoding produces (bad varint, bad Bool, bad UTF-8, bad wire type...).
        public static let invalidBytes = Code("invalidBytes")
        /// The stored value does not have the type the decoder asked for.
        public static let typeMismatch = Code("typeMismatch")
        /// The decoder asked for a value where nil is stored.
        public static let valueNotFound = Code("valueNotFound")
        /// Bytes left over after a complete value.
        public static let trailingBytes = Code("trailingBytes")
        /// A decoding limit (depth, size) was exceeded.
        public static let limitExceeded = Code("limitExceeded")
        /// The same key appears twice in one keyed container.
        public static let duplicateKey = Code("duplicateKey")
        /// An option or feature that the data needs is not enabled.
        public static let unsupported = Code("unsupported")
    }

    /// What went wrong.
    public let code: Code
    /// Byte offset in the input where the problem was found, if the input was bytes.
    public let offset: Int?
    /// A readable account of the problem, without the offset.
    public let message: String
    /// For `truncated`: the end of the region that was being read (the input, or an enclosing
    /// length-delimited value), and the end the read needed. Stream decoders use these to tell
    /// "wait for more bytes" from corrupt data.
    var regionEnd: Int?
    var requiredEnd: Int?
    /// The key of the field whose framing failed, when a keyed container could not be split:
    /// the decoder adds it to the coding path, so the error names the field.
    var key: BinaryKey?
    /// The index of an earlier element of the unkeyed container the decoder was moving
    /// through, when the error is about that element rather than the one being moved to (a
    /// format that checks an element as it moves past it): the decoder names it in the coding
    /// path in place of the index it was moving to.
    var earlierElement: Int?

    /// An error with a code, a message and, for byte input, the offset where it was found.
    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// The type, the code and the byte offset, such as `WireFormatError.invalidBytes at byte
    /// offset 22`: what a `DecodingError` prints as its underlying error after its debug
    /// description, which is ``message`` alone. Each fact is printed once: the reason in the
    /// sentence, the code and the place in the bytes here.
    public var description: String {
        if let offset { return "WireFormatError.\(code) at byte offset \(offset)" }
        return "WireFormatError.\(code)"
    }

    /// The message, followed by the byte offset when there is one: `invalid UTF-8 in a string at
    /// byte offset 22`. Only for a text that does not carry this error (a `DecodingError` whose
    /// underlying error it is says the offset there).
    var summary: String {
        if let offset { return "\(message) at byte offset \(offset)" }
        return message
    }

    /// The `DecodingError.Context` that carries this error at `codingPath`: the message as its
    /// debug description, the offset in the underlying error's description.
    func context(_ codingPath: [any CodingKey] = []) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: message, underlyingError: self)
    }
}

/// `1 byte`, `2 bytes`: the one spelling of a byte count in error messages.
func byteCount(_ count: some BinaryInteger) -> String {
    count == 1 ? "1 byte" : "\(count) bytes"
}

/// `the 1 byte that remains`, `the 2 bytes that remain`.
func remainingBytes(_ count: some BinaryInteger) -> String {
    count == 1 ? "the 1 byte that remains" : "the \(count) bytes that remain"
}

/// The BinaryCodable name of the low-level decoding error: ``WireFormatError``, found as the
/// `underlyingError` of the `DecodingError` that a decoder throws.
public typealias CorruptedDataError = WireFormatError

extension WireFormatError {
    /// A tree rule's refusal as the byte layer's error, without an offset: the engine reports
    /// tree and byte nodes alike.
    init(_ violation: TreeRuleViolation) {
        switch violation.kind {
        case .typeMismatch: self.init(.typeMismatch, violation.message)
        case .valueNotFound: self.init(.valueNotFound, violation.message)
        }
    }
}
