internal import TreeCoding

extension ScalarKind {
    /// The bits of a fixed-size primitive's leaf of this kind (the inverse of
    /// ``leaf(bits:)``, any integer encoding); a leaf of another kind is a type mismatch at
    /// `offset`, as ``ScalarDecodable`` reports it for `type`.
    @inline(__always)
    func bits(of leaf: borrowing BinaryValue, as type: Any.Type, offset: @autoclosure () -> Int?) throws -> UInt64 {
        switch leaf {
        case .bool(let v): if case .bool = self { return v ? 1 : 0 }
        case .int8(let v): if case .int8 = self { return UInt64(truncatingIfNeeded: v) }
        case .uint8(let v): if case .uint8 = self { return UInt64(v) }
        case .int16(let v, _): if case .int16 = self { return UInt64(truncatingIfNeeded: v) }
        case .uint16(let v, _): if case .uint16 = self { return UInt64(v) }
        case .int32(let v, _): if case .int32 = self { return UInt64(truncatingIfNeeded: v) }
        case .uint32(let v, _): if case .uint32 = self { return UInt64(v) }
        case .int64(let v, _): if case .int64 = self { return UInt64(bitPattern: v) }
        case .uint64(let v, _): if case .uint64 = self { return v }
        case .int(let v, _): if case .int = self { return UInt64(truncatingIfNeeded: v) }
        case .uint(let v, _): if case .uint = self { return UInt64(v) }
        case .float(let v): if case .float = self { return UInt64(v.bitPattern) }
        case .double(let v): if case .double = self { return v.bitPattern }
        default: break
        }
        throw WireFormatError(.typeMismatch, "expected \(type), found \(leaf.kindName)", offset: offset())
    }

    /// The leaf of a fixed-size primitive of this kind from its bits: the value's bit pattern
    /// (an integer's two's complement, a float's IEEE 754 bits, 0 or 1 for a `Bool`) in the low
    /// bits. A string or data has no bits: that request is an error.
    func leaf(bits: UInt64) throws -> BinaryValue {
        switch self {
        case .bool: return .bool(bits != 0)
        case .int8: return .int8(Int8(truncatingIfNeeded: bits))
        case .uint8: return .uint8(UInt8(truncatingIfNeeded: bits))
        case .int16(let e): return .int16(Int16(truncatingIfNeeded: bits), e)
        case .uint16(let e): return .uint16(UInt16(truncatingIfNeeded: bits), e)
        case .int32(let e): return .int32(Int32(truncatingIfNeeded: bits), e)
        case .uint32(let e): return .uint32(UInt32(truncatingIfNeeded: bits), e)
        case .int64(let e): return .int64(Int64(bitPattern: bits), e)
        case .uint64(let e): return .uint64(bits, e)
        case .int(let e): return .int(Int(truncatingIfNeeded: bits), e)
        case .uint(let e): return .uint(UInt(truncatingIfNeeded: bits), e)
        case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        case .double: return .double(Double(bitPattern: bits))
        case .string, .data: throw WireFormatError(.unsupported, "a \(self) is not a fixed-size primitive")
        }
    }
}
