/// v3's framing rules, written once: every reader and writer of v3 bytes (the tree writer, the
/// sink, the reader, the stream framing and the raw reader) frames through these.
///
/// - An *element* (a value inside a container, or a stream element) is `varint(length << 1)`
///   followed by `length` bytes, or the single byte `01` for nil. The low bit is a nil flag, so
///   a prefix with it set and a length is corrupt.
/// - A *key* is `varint(k << 1)` for an integer key `0...Int.max`, or `varint(byteCount << 1 | 1)`
///   followed by the key's UTF-8 bytes.
/// - Outside an element (the top level, inside a single-value or optional wrapper) a wrapper is
///   `01` for nil, or `00` followed by its content.
enum V3Framing {
    /// A nil element, and a nil wrapper written outside an element.
    static let nilByte: UInt8 = 0x01
    /// Before the content of a present wrapper written outside an element.
    static let someByte: UInt8 = 0x00

    /// The prefix of an element whose bytes are `length` long (`length >= 0`).
    @inline(__always)
    static func elementPrefix(length: Int) -> UInt64 { UInt64(truncatingIfNeeded: length) &<< 1 }

    /// The prefix of an integer key (`key >= 0`: checked by the writers, which have no bytes for
    /// a negative key).
    @inline(__always)
    static func intKeyPrefix(_ key: Int) -> UInt64 { UInt64(truncatingIfNeeded: key) &<< 1 }

    /// The prefix of a string key whose UTF-8 form is `byteCount` bytes long.
    @inline(__always)
    static func stringKeyPrefix(byteCount: Int) -> UInt64 { UInt64(truncatingIfNeeded: byteCount) &<< 1 | 1 }

    /// What an element's prefix says.
    enum Element: Equatable {
        case nilElement
        /// A value of `length` bytes (not yet checked against the bytes that remain).
        case value(length: UInt64)
        /// The nil flag with a length: no writer produces it.
        case nilWithLength
    }

    @inline(__always)
    static func element(_ prefix: UInt64) -> Element {
        if prefix & 1 == 0 { return .value(length: prefix &>> 1) }
        return prefix == 1 ? .nilElement : .nilWithLength
    }

    /// What a key's prefix says.
    enum Key: Equatable {
        /// An integer key, `0...Int.max` (the prefix's top bit is shifted out).
        case int(Int)
        /// A string key of `byteCount` UTF-8 bytes, which follow the prefix.
        case string(byteCount: UInt64)
    }

    @inline(__always)
    static func key(_ prefix: UInt64) -> Key {
        if prefix & 1 == 1 { return .string(byteCount: prefix &>> 1) }
        return .int(Int(truncatingIfNeeded: prefix &>> 1))
    }
}
