/// The primitive a type asks for.
@usableFromInline package enum ScalarKind: Hashable, Sendable, CustomStringConvertible {
    case bool, int8, uint8, float, double, string, data
    case int16(IntegerEncoding), uint16(IntegerEncoding)
    case int32(IntegerEncoding), uint32(IntegerEncoding)
    case int64(IntegerEncoding), uint64(IntegerEncoding)
    case int(IntegerEncoding), uint(IntegerEncoding)

    @usableFromInline package var description: String {
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

    /// The description with its article: `an Int (zigZag)`, `a UInt8`, `a String`.
    package var withArticle: String {
        switch self {
        case .int8, .int16, .int32, .int64, .int: return "an \(self)"
        default: return "a \(self)"
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
