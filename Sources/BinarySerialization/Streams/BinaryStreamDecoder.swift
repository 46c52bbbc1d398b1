public import Foundation

/// Splits a stream of framed elements (from ``BinaryStreamEncoder``) back into values, whatever
/// chunks the bytes arrive in.
///
/// ```swift
/// let stream = BinaryStreamDecoder<Message>()
/// for chunk in chunks {
///     stream.add(chunk)
///     for message in try stream.decodeElements() { handle(message) }
/// }
/// try stream.finish()     // throws if the input ended inside an element
/// ```
/// Consumed bytes are dropped, so memory stays bounded by the largest element (and
/// ``DecodingLimits/maximumElementSize`` bounds that).
///
/// Thread safety: an internal lock guards all state, so one decoder can be shared between
/// threads; each call is atomic (an element is decoded while the lock is held, so its
/// `init(from:)` must not call back into the same stream decoder).
public final class BinaryStreamDecoder<Element: Decodable>: @unchecked Sendable {
    /// Runs `body` holding the lock (`NSLocking.withLock` needs macOS 14 / iOS 17).
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // @unchecked: every stored property below is read and written only while `lock` is held.
    private let lock = NSLock()
    private var _decoder: BinaryDecoder
    private var storage: [UInt8] = []
    private var start = 0
    /// Bytes dropped from the front of `storage` so far: `dropped + start` is the stream offset
    /// of the next element.
    private var dropped = 0
    /// Bytes needed before another attempt can succeed (v2: learned from a length prefix).
    private var awaitedCount = 0
    private var _decodedCount = 0

    /// A stream decoder that decodes elements with `decoder`.
    public init(decoder: BinaryDecoder = BinaryDecoder()) {
        self._decoder = decoder
    }

    /// The decoder (and so the format and limits) used for each element.
    public var decoder: BinaryDecoder {
        get { locked { _decoder } }
        set { locked { _decoder = newValue } }
    }

    /// The number of elements decoded so far.
    public var decodedCount: Int { locked { _decodedCount } }

    /// Bytes received but not yet decoded.
    public var bufferedByteCount: Int { locked { buffered } }

    /// Whether bytes of an incomplete element are waiting for more input.
    public var hasPartialElement: Bool { bufferedByteCount > 0 }

    private var buffered: Int { storage.count - start }

    /// Adds received bytes.
    public func add(_ data: Data) {
        locked {
            compact()
            storage.append(contentsOf: data)
        }
    }

    /// Adds received bytes.
    public func add(_ bytes: [UInt8]) {
        locked {
            compact()
            storage.append(contentsOf: bytes)
        }
    }

    /// Drops up to `count` buffered bytes from the front, to resynchronise after corrupt data
    /// (for example, one byte at a time until an element decodes again).
    ///
    /// - Parameter count: the most bytes to drop; zero or a negative count drops nothing.
    /// - Returns: the number of bytes dropped, at most ``bufferedByteCount``.
    @discardableResult
    public func discardBytes(_ count: Int) -> Int {
        locked {
            let dropped = min(max(count, 0), buffered)
            start += dropped
            awaitedCount = 0
            compact()
            return dropped
        }
    }

    /// Drops consumed bytes once they are a large part of the buffer.
    private func compact() {
        guard start > 0 else { return }
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
            dropped = saturatingSum(dropped, start)
            start = 0
        } else if start >= 4096, start * 2 >= storage.count {
            storage.removeFirst(start)
            dropped = saturatingSum(dropped, start)
            start = 0
        }
    }

    /// Decodes the next element, or returns `nil` if its bytes have not all arrived yet.
    ///
    /// - Throws: `DecodingError` if the buffered bytes are not a valid element; the bytes stay
    ///   buffered, so the same error comes again until ``discardBytes(_:)`` drops them.
    public func decodeElement() throws -> Element? {
        try locked { try decodeLocked() }
    }

    private func decodeLocked() throws -> Element? {
        guard buffered > 0, buffered >= awaitedCount else { return nil }
        let decoder = _decoder
        let begin = start
        let outcome: StreamAttempt<Element>
        do {
            outcome = try storage.withUnsafeBytes { buffer in
                switch decoder.format {
                case .v3: return try Self.attemptV3(buffer, begin, decoder)
                case .v2: return try Self.attemptV2(buffer, begin, decoder)
                }
            }
        } catch {
            throw elementError(error, index: _decodedCount, base: dropped)
        }
        switch outcome {
        case .element(let value, let end):
            start = end
            awaitedCount = 0
            _decodedCount += 1
            compact()
            return value
        case .needMore(let required):
            // `required > start` always; saturate anyway rather than trust it.
            let (awaited, overflow) = required.subtractingReportingOverflow(start)
            awaitedCount = overflow ? Int.max : awaited
            return nil
        }
    }

    /// Decodes every complete element that is buffered.
    ///
    /// - Throws: `DecodingError` at the first invalid element (the elements before it stay
    ///   decoded but are not returned; use ``decodeElementsUntilError()`` to keep them).
    public func decodeElements() throws -> [Element] {
        try locked {
            var out: [Element] = []
            while let e = try decodeLocked() { out.append(e) }
            return out
        }
    }

    /// Decodes complete elements until the first error, and returns both.
    public func decodeElementsUntilError() -> (elements: [Element], error: (any Error)?) {
        locked {
            var out: [Element] = []
            do {
                while let e = try decodeLocked() { out.append(e) }
                return (out, nil)
            } catch {
                return (out, error)
            }
        }
    }

    /// Call at the end of the input: throws if bytes of an incomplete element are left over.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose underlying error is an
    ///   ``IncompleteElementError`` saying how many elements were complete.
    public func finish() throws {
        let (count, leftover, offset) = locked { (_decodedCount, buffered, saturatingSum(dropped, start)) }
        guard leftover > 0 else { return }
        let incomplete = IncompleteElementError(completeElements: count, leftoverBytes: leftover, offset: offset)
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: [],
                debugDescription: incomplete.sentence, underlyingError: incomplete))
    }

    // MARK: One attempt

    /// The end of the buffer plus one byte, saturating.
    private static func oneMoreByte(_ count: Int) -> Int {
        count < Int.max ? count + 1 : Int.max
    }

    private static func attemptV3(
        _ buffer: UnsafeRawBufferPointer, _ begin: Int, _ decoder: BinaryDecoder
    ) throws -> StreamAttempt<Element> {
        let outcome: V3StreamFrame.Outcome
        do {
            outcome = try V3StreamFrame.frame(
                buffer, at: begin, end: buffer.count, limit: decoder.limits.maximumElementSize)
        } catch {
            throw streamError(error)
        }
        let node: ByteNode
        switch outcome {
        case .needPrefix: return .needMore(required: Self.oneMoreByte(buffer.count))
        case .partial(let bodyStart, let length): return .needMore(required: saturatingSum(bodyStart, length))
        case .element(nil, let end):
            node = ByteNode(buffer: buffer, start: end, end: end, tag: V3Format.nilElement)
        case .element(let body?, _):
            node = ByteNode(buffer: buffer, start: body.lowerBound, end: body.upperBound, tag: V3Format.element)
        }
        let value = try TreeDecoderImpl.decodeRoot(
            Element.self, from: .bytes(node), format: V3Format.self, options: decoder.options, throughDecodable: true)
        return .element(value, end: node.end)
    }

    private static func attemptV2(
        _ buffer: UnsafeRawBufferPointer, _ begin: Int, _ decoder: BinaryDecoder
    ) throws -> StreamAttempt<Element> {
        // The element has no length: its reads run to the end of what has arrived so far.
        let cursor = ByteCursor(offset: begin, end: buffer.count, isOpenEnded: true)
        let node = V2Format.element(buffer, cursor)
        do {
            let value = try decoder.decodeRoot(Element.self, from: node, format: decoder.byteFormat)
            guard cursor.offset > begin else {
                throw streamError(
                    WireFormatError(.invalidBytes, "an element was decoded without reading any bytes", offset: begin))
            }
            return .element(value, end: cursor.offset)
        } catch {
            // Ran out of buffered bytes (not out of an enclosing value): wait for more.
            guard let wire = underlyingWireError(error), wire.code == .truncated, wire.regionEnd == buffer.count else {
                throw error
            }
            // The needed end comes from the input (saturated at Int.max): no step may trap.
            let required = max(wire.requiredEnd ?? 0, Self.oneMoreByte(buffer.count))
            let (size, overflow) = required.subtractingReportingOverflow(begin)
            let limit = decoder.limits.maximumElementSize
            guard !overflow, size <= limit else {
                throw streamError(
                    WireFormatError(
                        .limitExceeded,
                        "an element of \(overflow ? Int.max : size) bytes exceeds the limit of \(limit)",
                        offset: begin))
            }
            return .needMore(required: required)
        }
    }
}

enum StreamAttempt<Element> {
    case element(Element, end: Int)
    case needMore(required: Int)
}

/// `a + b`, or `Int.max` where that overflows.
func saturatingSum(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? Int.max : sum
}

/// The low-level error inside a decoding error, if any.
func underlyingWireError(_ error: any Error) -> WireFormatError? {
    if let wire = error as? WireFormatError { return wire }
    switch error as? DecodingError {
    case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c):
        return c.underlyingError as? WireFormatError
    default:
        return nil
    }
}

/// `error`, thrown by element `index` of a stream whose buffer starts at stream offset `base`,
/// with the element named in its message and its offset made a stream offset.
@inline(never)
func elementError(_ error: any Error, index: Int, base: Int) -> any Error {
    guard let decoding = error as? DecodingError else { return error }
    func moved(_ context: DecodingError.Context) -> DecodingError.Context {
        guard let wire = context.underlyingError as? WireFormatError else { return context }
        var shifted = WireFormatError(
            wire.code, "element \(index): \(wire.message)", offset: wire.offset.map { saturatingSum(base, $0) })
        shifted.key = wire.key
        shifted.earlierElement = wire.earlierElement
        return shifted.context(context.codingPath)
    }
    switch decoding {
    case .dataCorrupted(let c): return DecodingError.dataCorrupted(moved(c))
    case .typeMismatch(let t, let c): return DecodingError.typeMismatch(t, moved(c))
    case .valueNotFound(let t, let c): return DecodingError.valueNotFound(t, moved(c))
    case .keyNotFound(let k, let c): return DecodingError.keyNotFound(k, moved(c))
    @unknown default: return error
    }
}

func streamError(_ wire: WireFormatError) -> DecodingError {
    .dataCorrupted(wire.context())
}

/// The input ended inside an element of a stream or file.
public struct IncompleteElementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Elements decoded before the incomplete one.
    public let completeElements: Int
    /// Bytes of the incomplete element that were present.
    public let leftoverBytes: Int
    /// The byte offset in the stream (for a file decoder, in the file) where the incomplete
    /// element starts: cutting the input there leaves only complete elements.
    public let offset: Int

    /// The type and the offset, such as `IncompleteElementError at byte offset 2`: the
    /// `DecodingError` that carries it states the element and its bytes in its debug description
    /// (`sentence`), so each is printed once.
    public var description: String { "IncompleteElementError at byte offset \(offset)" }

    /// The debug description of the `DecodingError` that carries this error.
    var sentence: String {
        "the input ends inside element \(completeElements) (\(byteCount(leftoverBytes)) of it arrived)"
    }
}
