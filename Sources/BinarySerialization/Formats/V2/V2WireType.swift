import TreeCoding

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
