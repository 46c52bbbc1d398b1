public import Foundation

/// The primitives a tree holds as leaves: for each type, the leaf it asks for (an integer in
/// its default encoding) and its value out of a leaf of that kind. One table, read by every
/// decoder of trees.
package protocol TreeScalar: Decodable {
    /// The kind of leaf the type asks for.
    static var scalarKind: ScalarKind { get }
    /// The value of a leaf of ``scalarKind``; `nil` for a leaf of another kind.
    static func fromLeaf(_ leaf: BinaryValue) -> Self?
    /// The value of a leaf of ``scalarKind``; a leaf of another kind (which a reader that
    /// answers the requested kind never returns) is a type mismatch. A requirement, so that each
    /// type's witness is its own specialized code (a generic caller needs no `Optional<Self>`).
    static func value(of leaf: BinaryValue) throws -> Self
}

extension TreeScalar {
    /// The primitive a leaf read for it holds; a leaf of another kind is a type mismatch.
    @inlinable @inline(__always)
    package static func value(of leaf: BinaryValue) throws -> Self {
        guard let value = fromLeaf(leaf) else {
            throw TreeRuleViolation(.typeMismatch, "expected \(Self.self), found \(leaf.kindName)")
        }
        return value
    }
}

/// The integers a tree can hold in any ``IntegerEncoding`` (the integer wrappers ask for one).
package protocol TreeIntegerScalar: TreeScalar, FixedWidthInteger {
    /// The kind of leaf of this integer type in `encoding`.
    static func scalarKind(_ encoding: IntegerEncoding) -> ScalarKind
    /// The leaf of `value` in `encoding`.
    static func leaf(_ value: Self, _ encoding: IntegerEncoding) -> BinaryValue
}

extension Bool: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .bool }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Bool? {
        if case .bool(let v) = l { return v }
        return nil
    }
}

extension String: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .string }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> String? {
        if case .string(let v) = l { return v }
        return nil
    }
}

extension Data: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .data }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Data? {
        if case .data(let v) = l { return v }
        return nil
    }
}

extension Double: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .double }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Double? {
        if case .double(let v) = l { return v }
        return nil
    }
}

extension Float: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .float }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Float? {
        if case .float(let v) = l { return v }
        return nil
    }
}

extension Int8: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .int8 }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Int8? {
        if case .int8(let v) = l { return v }
        return nil
    }
}

extension UInt8: TreeScalar {
    @inlinable package static var scalarKind: ScalarKind { .uint8 }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> UInt8? {
        if case .uint8(let v) = l { return v }
        return nil
    }
}

extension Int16: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .int16(.fixed) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int16(e) }
    @inlinable package static func leaf(_ v: Int16, _ e: IntegerEncoding) -> BinaryValue { .int16(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Int16? {
        if case .int16(let v, _) = l { return v }
        return nil
    }
}

extension UInt16: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .uint16(.fixed) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint16(e) }
    @inlinable package static func leaf(_ v: UInt16, _ e: IntegerEncoding) -> BinaryValue { .uint16(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> UInt16? {
        if case .uint16(let v, _) = l { return v }
        return nil
    }
}

extension Int32: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .int32(.zigZag) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int32(e) }
    @inlinable package static func leaf(_ v: Int32, _ e: IntegerEncoding) -> BinaryValue { .int32(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Int32? {
        if case .int32(let v, _) = l { return v }
        return nil
    }
}

extension UInt32: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .uint32(.varint) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint32(e) }
    @inlinable package static func leaf(_ v: UInt32, _ e: IntegerEncoding) -> BinaryValue { .uint32(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> UInt32? {
        if case .uint32(let v, _) = l { return v }
        return nil
    }
}

extension Int64: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .int64(.zigZag) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int64(e) }
    @inlinable package static func leaf(_ v: Int64, _ e: IntegerEncoding) -> BinaryValue { .int64(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Int64? {
        if case .int64(let v, _) = l { return v }
        return nil
    }
}

extension UInt64: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .uint64(.varint) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint64(e) }
    @inlinable package static func leaf(_ v: UInt64, _ e: IntegerEncoding) -> BinaryValue { .uint64(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> UInt64? {
        if case .uint64(let v, _) = l { return v }
        return nil
    }
}

extension Int: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .int(.zigZag) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int(e) }
    @inlinable package static func leaf(_ v: Int, _ e: IntegerEncoding) -> BinaryValue { .int(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> Int? {
        if case .int(let v, _) = l { return v }
        return nil
    }
}

extension UInt: TreeIntegerScalar {
    @inlinable package static var scalarKind: ScalarKind { .uint(.varint) }
    @inlinable package static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint(e) }
    @inlinable package static func leaf(_ v: UInt, _ e: IntegerEncoding) -> BinaryValue { .uint(v, e) }
    @inlinable package static func fromLeaf(_ l: BinaryValue) -> UInt? {
        if case .uint(let v, _) = l { return v }
        return nil
    }
}
