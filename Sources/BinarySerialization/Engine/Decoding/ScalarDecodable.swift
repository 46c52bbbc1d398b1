import Foundation

/// Primitives: how each is requested from a node and taken out of the returned leaf (the kind
/// and the leaf's value are the tree's rule, ``TreeScalar``).
protocol ScalarDecodable: TreeScalar {
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

extension Bool: ScalarDecodable {}
extension String: ScalarDecodable {}
extension Data: ScalarDecodable {}
extension Double: ScalarDecodable {}
extension Float: ScalarDecodable {}
extension Int8: ScalarDecodable {}
extension UInt8: ScalarDecodable {}
extension Int16: ScalarDecodable {}
extension UInt16: ScalarDecodable {}
extension Int32: ScalarDecodable {}
extension UInt32: ScalarDecodable {}
extension Int64: ScalarDecodable {}
extension UInt64: ScalarDecodable {}
extension Int: ScalarDecodable {}
extension UInt: ScalarDecodable {}
