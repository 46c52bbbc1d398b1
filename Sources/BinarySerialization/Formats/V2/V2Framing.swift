import TreeCoding

/// v2's framing rules, written once: every reader and writer of v2 bytes (the tree writer, the
/// sink, the reader and the raw reader) frames keys through these.
///
/// A field is a key that carries its value's wire type, then the value in that wire type. An
/// integer key is `varint(key << 4 | wireType)`, a negative key by its two's-complement bit
/// pattern as BinaryCodable 2.x wrote it (keys from -2^59 to 2^59 - 1 round-trip); a string key is
/// `varint(byteCount << 4 | 8 | wireType)` followed by its UTF-8 bytes.
///
/// A node is written in one of three contexts (``Context``). An optional is its flag (`01`
/// present, `00` nil) followed by the wrapped value as an element; a `.single` wrapper adds
/// nothing; nil optionals in keyed containers are left out (``isOmitted(_:)``).
enum V2Framing {
    enum Context {
        /// The top level, or the content of a length-delimited value: just the bytes.
        case raw
        /// In an unkeyed container or after an optional's flag: varint and fixed-size values as
        /// they are, length-delimited values (strings, data, containers) with a varint length.
        case element
        /// The value of a key: like `element`, but optionals and nil are length-delimited too.
        case field
    }

    /// A field BinaryCodable 2.x leaves out: a nil `Optional` (so `T??` `.some(nil)` in a keyed
    /// container reads back as nil, as with 2.x; the format has no way to say "present nil"), and
    /// a bare nil, which a v3 field holds when it was written as nil (`encode(nil, forKey:)` in
    /// BinaryCodable 4) and the type read it as absent. A single-value nil (`.single(.nil)`) is a
    /// value of its type and is written.
    static func isOmitted(_ value: BinaryValue) -> Bool {
        switch value {
        case .optional(.none), .nil: return true
        default: return false
        }
    }

    /// The root (the top level, a stream element) as written: with nil index sets, a `Data` is
    /// the unkeyed container of bytes that `Data`'s own `Codable` conformance makes of it, which
    /// 2.x uses there, so it starts with a nil index set. (Everywhere else 2.x writes `Data` as a
    /// primitive.) `BinaryDecoder.readsAsBytes(_:)` reads it back.
    static func root(_ tree: BinaryValue, nilIndexSets: Bool) -> BinaryValue {
        guard nilIndexSets, case .data(let data) = tree else { return tree }
        return .packed(.uint8(Array(data)))
    }

    /// The flag of a string key.
    static let stringKeyFlag: UInt64 = 8

    /// A key's prefix from its 60 bits (an integer key's bit pattern, or a string key's byte
    /// count) and the wire type's three bits; the string flag is the caller's.
    @inline(__always)
    static func prefix(keyBits: UInt64, wireTypeBits: UInt8) -> UInt64 {
        keyBits &<< 4 | UInt64(wireTypeBits & 7)
    }

    /// The prefix of integer key `key` with a value of wire type `type`; `nil` for a key v2
    /// cannot write.
    @inline(__always)
    static func intKeyPrefix(_ key: Int, _ type: V2WireType) -> UInt64? {
        guard key >= -(1 << 59), key < 1 << 59 else { return nil }
        return prefix(keyBits: UInt64(bitPattern: Int64(key)), wireTypeBits: type.rawValue)
    }

    /// The prefix of a string key of `byteCount` UTF-8 bytes; without a wire type, the sink sets
    /// the low bits once the value is written.
    @inline(__always)
    static func stringKeyPrefix(byteCount: Int, wireTypeBits: UInt8 = 0) -> UInt64 {
        prefix(keyBits: UInt64(truncatingIfNeeded: byteCount), wireTypeBits: wireTypeBits) | stringKeyFlag
    }

    /// What a key's prefix says.
    enum Key: Equatable {
        /// An integer key, signed as 2.x wrote it.
        case int(Int)
        /// A string key of `byteCount` UTF-8 bytes, which follow the prefix.
        case string(byteCount: UInt64)
    }

    /// The key of a prefix and the raw bits of its wire type (which the caller checks: not every
    /// value of three bits is a wire type).
    @inline(__always)
    static func key(_ prefix: UInt64) -> (key: Key, wireTypeBits: UInt8) {
        let bits = UInt8(truncatingIfNeeded: prefix & 7)
        if isStringKey(prefix) { return (.string(byteCount: keyBits(prefix)), bits) }
        return (.int(signedKey(keyBits(prefix))), bits)
    }

    @inline(__always)
    static func isStringKey(_ prefix: UInt64) -> Bool { prefix & stringKeyFlag != 0 }

    /// The 60 bits above the flags: an integer key's bit pattern, or a string key's byte count.
    @inline(__always)
    static func keyBits(_ prefix: UInt64) -> UInt64 { prefix &>> 4 }

    /// An integer key's 60 bits as the signed value BinaryCodable 2.x wrote.
    @inline(__always)
    static func signedKey(_ bits: UInt64) -> Int {
        let value = Int(truncatingIfNeeded: bits)  // bits < 2^60: no truncation
        return value >= 1 << 59 ? value - (1 << 60) : value
    }
}

/// The wire type that v2 stores in the low three bits of every key.
enum V2WireType: UInt8, CustomStringConvertible {
    case varint = 0
    case eightBytes = 1
    case lengthDelimited = 2
    case fourBytes = 5
    case byte = 6
    case twoBytes = 7

    var description: String {
        switch self {
        case .varint: return "varint"
        case .eightBytes: return "8 bytes"
        case .lengthDelimited: return "length-delimited"
        case .fourBytes: return "4 bytes"
        case .byte: return "1 byte"
        case .twoBytes: return "2 bytes"
        }
    }

    /// The wire type of a node written as the value of a key (`.single` is transparent).
    static func of(_ value: BinaryValue) -> V2WireType {
        switch value {
        case .bool: return .varint
        case .int8, .uint8: return .byte
        case .int16(_, let e), .uint16(_, let e): return e == .fixed ? .twoBytes : .varint
        case .int32(_, let e), .uint32(_, let e): return e == .fixed ? .fourBytes : .varint
        case .int64(_, let e), .uint64(_, let e), .int(_, let e), .uint(_, let e):
            return e == .fixed ? .eightBytes : .varint
        case .float: return .fourBytes
        case .double: return .eightBytes
        case .single(let inner): return of(inner)
        case .string, .data, .packed, .unkeyed, .keyed, .optional, .nil, .unknown: return .lengthDelimited
        }
    }

    /// The wire type a request for `kind` expects.
    static func of(_ kind: ScalarKind) -> V2WireType {
        switch kind {
        case .bool: return .varint
        case .int8, .uint8: return .byte
        case .int16(let e), .uint16(let e): return e == .fixed ? .twoBytes : .varint
        case .int32(let e), .uint32(let e): return e == .fixed ? .fourBytes : .varint
        case .int64(let e), .uint64(let e), .int(let e), .uint(let e): return e == .fixed ? .eightBytes : .varint
        case .float: return .fourBytes
        case .double: return .eightBytes
        case .string, .data: return .lengthDelimited
        }
    }
}
