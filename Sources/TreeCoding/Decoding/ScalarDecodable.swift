import Foundation

/// Primitives: how each is requested from a node and taken out of the returned leaf.
protocol ScalarDecodable: Decodable {
    static var scalarKind: ScalarKind { get }
    static func fromLeaf(_ leaf: BinaryValue) -> Self?
    /// Reads this primitive (of ``scalarKind``) from a byte node.
    static func read(bytes node: inout ByteNode, _ format: any ByteFormat.Type) throws -> Self
}

/// Fixed-size primitives, which the formats read as bits (``ByteFormat/decodeBits(_:_:)``)
/// rather than as a leaf: no enum to build, copy and take apart per value.
protocol FixedSizeScalar: ScalarDecodable {
    /// The value of the bits ``ScalarKind/leaf(bits:)`` describes.
    init(bits: UInt64)
}

extension FixedSizeScalar {
    @inline(__always)
    static func read(bytes node: inout ByteNode, _ format: any ByteFormat.Type) throws -> Self {
        Self(bits: try format.decodeBits(&node, scalarKind))
    }
}

extension FixedSizeScalar where Self: FixedWidthInteger {
    @inline(__always)
    init(bits: UInt64) { self.init(truncatingIfNeeded: bits) }
}

extension Bool: FixedSizeScalar {
    @inline(__always)
    init(bits: UInt64) { self = bits != 0 }
}
extension Float: FixedSizeScalar {
    @inline(__always)
    init(bits: UInt64) { self.init(bitPattern: UInt32(truncatingIfNeeded: bits)) }
}
extension Double: FixedSizeScalar {
    @inline(__always)
    init(bits: UInt64) { self.init(bitPattern: bits) }
}
extension Int8: FixedSizeScalar {}
extension UInt8: FixedSizeScalar {}
extension Int16: FixedSizeScalar {}
extension UInt16: FixedSizeScalar {}
extension Int32: FixedSizeScalar {}
extension UInt32: FixedSizeScalar {}
extension Int64: FixedSizeScalar {}
extension UInt64: FixedSizeScalar {}
extension Int: FixedSizeScalar {}
extension UInt: FixedSizeScalar {}

extension String {
    @inline(__always)
    static func read(bytes node: inout ByteNode, _ format: any ByteFormat.Type) throws -> String {
        try format.decodeString(&node)
    }
}

/// Integers that can be requested in any ``IntegerEncoding`` (the wrappers use this).
protocol IntegerScalar: ScalarDecodable, FixedWidthInteger {
    static func scalarKind(_ encoding: IntegerEncoding) -> ScalarKind
    static func leaf(_ value: Self, _ encoding: IntegerEncoding) -> BinaryValue
}

extension Bool: ScalarDecodable {
    static var scalarKind: ScalarKind { .bool }
    static func fromLeaf(_ l: BinaryValue) -> Bool? {
        if case .bool(let v) = l { return v }
        return nil
    }
}
extension String: ScalarDecodable {
    static var scalarKind: ScalarKind { .string }
    static func fromLeaf(_ l: BinaryValue) -> String? {
        if case .string(let v) = l { return v }
        return nil
    }
}
extension Data: ScalarDecodable {
    static var scalarKind: ScalarKind { .data }
    static func fromLeaf(_ l: BinaryValue) -> Data? {
        if case .data(let v) = l { return v }
        return nil
    }
}
extension Double: ScalarDecodable {
    static var scalarKind: ScalarKind { .double }
    static func fromLeaf(_ l: BinaryValue) -> Double? {
        if case .double(let v) = l { return v }
        return nil
    }
}
extension Float: ScalarDecodable {
    static var scalarKind: ScalarKind { .float }
    static func fromLeaf(_ l: BinaryValue) -> Float? {
        if case .float(let v) = l { return v }
        return nil
    }
}
extension Int8: ScalarDecodable {
    static var scalarKind: ScalarKind { .int8 }
    static func fromLeaf(_ l: BinaryValue) -> Int8? {
        if case .int8(let v) = l { return v }
        return nil
    }
}
extension UInt8: ScalarDecodable {
    static var scalarKind: ScalarKind { .uint8 }
    static func fromLeaf(_ l: BinaryValue) -> UInt8? {
        if case .uint8(let v) = l { return v }
        return nil
    }
}
extension Int16: IntegerScalar {
    static var scalarKind: ScalarKind { .int16(.fixed) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int16(e) }
    static func leaf(_ v: Int16, _ e: IntegerEncoding) -> BinaryValue { .int16(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> Int16? {
        if case .int16(let v, _) = l { return v }
        return nil
    }
}
extension UInt16: IntegerScalar {
    static var scalarKind: ScalarKind { .uint16(.fixed) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint16(e) }
    static func leaf(_ v: UInt16, _ e: IntegerEncoding) -> BinaryValue { .uint16(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> UInt16? {
        if case .uint16(let v, _) = l { return v }
        return nil
    }
}
extension Int32: IntegerScalar {
    static var scalarKind: ScalarKind { .int32(.zigZag) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int32(e) }
    static func leaf(_ v: Int32, _ e: IntegerEncoding) -> BinaryValue { .int32(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> Int32? {
        if case .int32(let v, _) = l { return v }
        return nil
    }
}
extension UInt32: IntegerScalar {
    static var scalarKind: ScalarKind { .uint32(.varint) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint32(e) }
    static func leaf(_ v: UInt32, _ e: IntegerEncoding) -> BinaryValue { .uint32(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> UInt32? {
        if case .uint32(let v, _) = l { return v }
        return nil
    }
}
extension Int64: IntegerScalar {
    static var scalarKind: ScalarKind { .int64(.zigZag) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int64(e) }
    static func leaf(_ v: Int64, _ e: IntegerEncoding) -> BinaryValue { .int64(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> Int64? {
        if case .int64(let v, _) = l { return v }
        return nil
    }
}
extension UInt64: IntegerScalar {
    static var scalarKind: ScalarKind { .uint64(.varint) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint64(e) }
    static func leaf(_ v: UInt64, _ e: IntegerEncoding) -> BinaryValue { .uint64(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> UInt64? {
        if case .uint64(let v, _) = l { return v }
        return nil
    }
}
extension Int: IntegerScalar {
    static var scalarKind: ScalarKind { .int(.zigZag) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .int(e) }
    static func leaf(_ v: Int, _ e: IntegerEncoding) -> BinaryValue { .int(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> Int? {
        if case .int(let v, _) = l { return v }
        return nil
    }
}
extension UInt: IntegerScalar {
    static var scalarKind: ScalarKind { .uint(.varint) }
    static func scalarKind(_ e: IntegerEncoding) -> ScalarKind { .uint(e) }
    static func leaf(_ v: UInt, _ e: IntegerEncoding) -> BinaryValue { .uint(v, e) }
    static func fromLeaf(_ l: BinaryValue) -> UInt? {
        if case .uint(let v, _) = l { return v }
        return nil
    }
}
