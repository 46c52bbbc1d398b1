/// What the tree decoder asks of a node: one request per `Decoder` call.
///
/// ``BinaryValue`` conforms (decoding from a tree), and BinarySerialization provides zero-copy
/// views over bytes that conform (decoding from data). Neither wire format can be parsed without
/// the Swift type, so the decoder drives the parse: each request says what the type expects.
package protocol DecodingNode {
    associatedtype Keyed: KeyedNodeView where Keyed.Node == Self
    associatedtype Unkeyed: UnkeyedNodeView where Unkeyed.Node == Self

    /// Whether the node is a `nil` element of a container (used by `decodeNil(forKey:)`).
    var isNil: Bool { get }
    /// The byte offset of the node in the input, for error messages; `nil` for trees.
    var byteOffset: Int? { get }

    /// Opens the node as a keyed container.
    mutating func keyedView() throws -> Keyed
    /// Opens the node as an unkeyed container. `elementHint` names the element type when the
    /// decoder knows it in advance (SIMD vectors), so formats that cannot split elements without
    /// types can still count them.
    mutating func unkeyedView(elementHint: ScalarKind?) throws -> Unkeyed
    /// The content of a single-value container, or `nil` when it holds nil.
    mutating func singleValueContent() throws -> Self?
    /// The content of an `Optional`, or `nil` for `Optional.none`.
    mutating func optionalContent() throws -> Self?
    /// Reads a primitive; the result is a leaf of exactly the requested kind.
    mutating func decodeScalar(_ kind: ScalarKind) throws -> BinaryValue
    /// Reads a packed array or set of primitives.
    mutating func decodePacked(_ kind: PackedArray.Kind) throws -> PackedArray
    /// Called after the content returned by ``optionalContent()`` has been decoded, so formats
    /// that find a value's extent by reading it can check that nothing is left over.
    func finishContent(_ content: Self) throws
}

extension DecodingNode {
    package func finishContent(_ content: Self) throws {}
}

/// A keyed container opened on a node.
package protocol KeyedNodeView {
    associatedtype Node: DecodingNode
    /// The keys present, in stored order.
    var allKeys: [BinaryKey] { get }
    /// Whether `key` is present.
    func contains(_ key: some CodingKey) -> Bool
    /// The value node for `key`, or `nil` when absent.
    func node(forKey key: some CodingKey) throws -> Node?
}

/// An unkeyed container opened on a node.
package protocol UnkeyedNodeView {
    associatedtype Node: DecodingNode
    /// The number of elements, when the format can tell without the element types.
    var count: Int? { get }
    var isAtEnd: Bool { get }
    var currentIndex: Int { get }
    /// Consumes the next element if it is nil.
    mutating func decodeNil() throws -> Bool
    /// The node of the next element; call ``finishElement(_:)`` once it is decoded.
    mutating func nextElement() throws -> Node
    /// Called after the element from ``nextElement()`` has been decoded.
    mutating func finishElement(_ node: Node) throws
}

/// The primitive a type asks for.
package enum ScalarKind: Hashable, Sendable, CustomStringConvertible {
    case bool, int8, uint8, float, double, string, data
    case int16(IntegerEncoding), uint16(IntegerEncoding)
    case int32(IntegerEncoding), uint32(IntegerEncoding)
    case int64(IntegerEncoding), uint64(IntegerEncoding)
    case int(IntegerEncoding), uint(IntegerEncoding)

    package var description: String {
        switch self {
        case .bool: return "Bool"
        case .int8: return "Int8"
        case .uint8: return "UInt8"
        case .float: return "Float"
        case .double: return "Double"
        case .string: return "String"
        case .data: return "Data"
        case .int16(let e): return "Int16 (\(e))"
        case .uint16(let e): return "UInt16 (\(e))"
        case .int32(let e): return "Int32 (\(e))"
        case .uint32(let e): return "UInt32 (\(e))"
        case .int64(let e): return "Int64 (\(e))"
        case .uint64(let e): return "UInt64 (\(e))"
        case .int(let e): return "Int (\(e))"
        case .uint(let e): return "UInt (\(e))"
        }
    }

    /// The integer encoding the request asks for; `nil` for non-integers.
    package var integerEncoding: IntegerEncoding? {
        switch self {
        case .int16(let e), .uint16(let e), .int32(let e), .uint32(let e),
            .int64(let e), .uint64(let e), .int(let e), .uint(let e):
            return e
        default: return nil
        }
    }
}

/// An error of the node layer; the tree decoder adds the coding path and rethrows it as a
/// `DecodingError` with this error as `underlyingError`.
public struct WireFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
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

    public let code: Code
    /// Byte offset in the input where the problem was found, if the input was bytes.
    public let offset: Int?
    public let message: String
    /// For `truncated`: the end of the region that was being read (the input, or an enclosing
    /// length-delimited value), and the end the read needed. Stream decoders use these to tell
    /// "wait for more bytes" from corrupt data.
    package var regionEnd: Int?
    package var requiredEnd: Int?

    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String {
        if let offset { return "\(message) (at byte offset \(offset))" }
        return message
    }
}
