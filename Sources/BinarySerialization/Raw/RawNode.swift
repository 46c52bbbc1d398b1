/// A value read from bytes without its Swift type: containers where the bytes frame as
/// containers, byte runs with their plausible readings everywhere else.
///
/// `BinaryDecoder.decodeRaw(from:)` builds it. Because neither wire format records types, the
/// shape is a guess; the guess never loses bytes: ``serialized()`` gives back exactly the input.
/// Offsets are positions in the input that was read.
public struct RawNode: Hashable, Sendable {
    /// Where the node's bytes start in the input (after any length prefix).
    public var offset: Int
    /// How many bytes the node covers (not counting its length prefix).
    public var byteCount: Int
    /// What the bytes were read as.
    public var content: Content
    /// Other shapes that also consume exactly these bytes, kept because the guess may be wrong.
    public var alternatives: [RawShape]

    /// A node at `offset` covering `byteCount` bytes.
    public init(offset: Int, byteCount: Int, content: Content, alternatives: [RawShape] = []) {
        self.offset = offset
        self.byteCount = byteCount
        self.content = content
        self.alternatives = alternatives
    }

    /// What a node's bytes were read as.
    public enum Content: Hashable, Sendable {
        /// A keyed container: its fields in stored order.
        case keyed([RawField])
        /// A v3 unkeyed container: its elements in order, `nil` for a nil element (`01`).
        case unkeyed([RawNode?])
        /// Bytes that were not split further, with the readings that consume all of them,
        /// most plausible first (empty when nothing fits but raw data).
        case bytes([UInt8], readings: [RawReading])
    }

    /// The node's shape, without its children.
    public var shape: RawShape {
        switch content {
        case .keyed(let fields): return .keyed(fieldCount: fields.count)
        case .unkeyed(let elements): return .unkeyed(elementCount: elements.count)
        case .bytes: return .bytes
        }
    }
}

/// One way of framing a run of bytes, used to list the alternatives of a guess.
public enum RawShape: Hashable, Sendable, CustomStringConvertible {
    /// A keyed container with this many fields.
    case keyed(fieldCount: Int)
    /// An unkeyed container with this many elements.
    case unkeyed(elementCount: Int)
    /// Plain bytes (a primitive, a string, data or a packed array).
    case bytes

    /// A short phrase such as `keyed container (3 fields)`.
    public var description: String {
        switch self {
        case .keyed(let n): return "keyed container (\(n) field\(n == 1 ? "" : "s"))"
        case .unkeyed(let n): return "unkeyed container (\(n) element\(n == 1 ? "" : "s"))"
        case .bytes: return "bytes"
        }
    }
}

/// A key and its value in a keyed container read without a type.
public struct RawField: Hashable, Sendable {
    /// Where the key starts in the input.
    public var keyOffset: Int
    /// The key.
    public var key: RawKey
    /// v2 only: the wire type stored in the key's low three bits (0 varint, 1 eight bytes,
    /// 2 length-delimited, 5 four bytes, 6 one byte, 7 two bytes); `nil` in v3.
    public var wireType: UInt8?
    /// The value, or `nil` for a v3 nil element (`01`).
    public var value: RawNode?

    /// A field; `wireType` is `nil` for v3 and set for v2.
    public init(keyOffset: Int, key: RawKey, wireType: UInt8? = nil, value: RawNode?) {
        self.keyOffset = keyOffset
        self.key = key
        self.wireType = wireType
        self.value = value
    }
}

/// A key as stored: an integer or a UTF-8 string.
public enum RawKey: Hashable, Sendable, CustomStringConvertible {
    /// An integer key.
    case int(UInt64)
    /// A string key.
    case string(String)

    /// The key for display: an integer as its number, a string quoted.
    public var description: String {
        switch self {
        case .int(let k): return String(k)
        case .string(let s): return RawText.quoted(s, limit: 40)
        }
    }
}
