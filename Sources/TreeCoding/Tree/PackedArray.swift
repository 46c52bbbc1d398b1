/// An unboxed homogeneous array of primitives: the tree form of `[Int]`, `Set<Double>`, `[Bool]`...
///
/// Both wire formats write these "packed": the elements back to back with no per-element length.
public enum PackedArray: Hashable, Sendable {
    case bool([Bool])
    case int8([Int8])
    case uint8([UInt8])
    case int16([Int16])
    case uint16([UInt16])
    case int32([Int32])
    case uint32([UInt32])
    case int64([Int64])
    case uint64([UInt64])
    case int([Int])
    case uint([UInt])
    case float([Float])
    case double([Double])

    /// The number of elements.
    public var count: Int {
        switch self {
        case .bool(let a): return a.count
        case .int8(let a): return a.count
        case .uint8(let a): return a.count
        case .int16(let a): return a.count
        case .uint16(let a): return a.count
        case .int32(let a): return a.count
        case .uint32(let a): return a.count
        case .int64(let a): return a.count
        case .uint64(let a): return a.count
        case .int(let a): return a.count
        case .uint(let a): return a.count
        case .float(let a): return a.count
        case .double(let a): return a.count
        }
    }

    /// The kind of the elements.
    public var elementKind: PackedArray.Kind {
        switch self {
        case .bool: return .bool
        case .int8: return .int8
        case .uint8: return .uint8
        case .int16: return .int16
        case .uint16: return .uint16
        case .int32: return .int32
        case .uint32: return .uint32
        case .int64: return .int64
        case .uint64: return .uint64
        case .int: return .int
        case .uint: return .uint
        case .float: return .float
        case .double: return .double
        }
    }

    var elementKindName: String { elementKind.rawValue }

    /// The element kinds that can be packed.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case bool = "Bool", int8 = "Int8", uint8 = "UInt8", int16 = "Int16", uint16 = "UInt16"
        case int32 = "Int32", uint32 = "UInt32", int64 = "Int64", uint64 = "UInt64"
        case int = "Int", uint = "UInt", float = "Float", double = "Double"
    }
}
