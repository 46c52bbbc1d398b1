/// An unboxed homogeneous array of primitives: the tree form of `[Int]`, `Set<Double>`, `[Bool]`...
///
/// Both wire formats write these "packed": the elements back to back with no per-element length.
public enum PackedArray: Hashable, Sendable {
    /// Elements of type `Bool`.
    case bool([Bool])
    /// Elements of type `Int8`.
    case int8([Int8])
    /// Elements of type `UInt8`.
    case uint8([UInt8])
    /// Elements of type `Int16`.
    case int16([Int16])
    /// Elements of type `UInt16`.
    case uint16([UInt16])
    /// Elements of type `Int32`.
    case int32([Int32])
    /// Elements of type `UInt32`.
    case uint32([UInt32])
    /// Elements of type `Int64`.
    case int64([Int64])
    /// Elements of type `UInt64`.
    case uint64([UInt64])
    /// Elements of type `Int`.
    case int([Int])
    /// Elements of type `UInt`.
    case uint([UInt])
    /// Elements of type `Float`.
    case float([Float])
    /// Elements of type `Double`.
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
        /// `Bool` elements.
        case bool = "Bool"
        /// `Int8` elements.
        case int8 = "Int8"
        /// `UInt8` elements.
        case uint8 = "UInt8"
        /// `Int16` elements.
        case int16 = "Int16"
        /// `UInt16` elements.
        case uint16 = "UInt16"
        /// `Int32` elements.
        case int32 = "Int32"
        /// `UInt32` elements.
        case uint32 = "UInt32"
        /// `Int64` elements.
        case int64 = "Int64"
        /// `UInt64` elements.
        case uint64 = "UInt64"
        /// `Int` elements.
        case int = "Int"
        /// `UInt` elements.
        case uint = "UInt"
        /// `Float` elements.
        case float = "Float"
        /// `Double` elements.
        case double = "Double"
    }
}
