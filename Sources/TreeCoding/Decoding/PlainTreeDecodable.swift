import Foundation

/// Types the plain tree decoder reads from a node itself rather than through their
/// `init(from:)`, as the tree engine reads them: primitives, arrays and sets (of primitives
/// packed or as leaves; of other elements one by one), `[String: V]` and `[Int: V]`, optionals,
/// the integer wrappers and ``Packed``.
protocol PlainTreeDecodable {
    /// Reads the value at `step` below `parent` from `node`. An error of the tree rules is
    /// thrown as it is: the caller makes it a `DecodingError` at the value's path.
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Self
}

extension TreeScalar {
    /// The primitive `node` holds (``BinaryValue/treeScalar(_:)``).
    static func plainTreeValue(of node: BinaryValue) throws -> Self {
        try value(of: node.treeScalar(scalarKind))
    }
}

/// Primitives are leaves.
extension PlainTreeDecodable where Self: TreeScalar {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Self {
        try plainTreeValue(of: node)
    }
}

extension Bool: PlainTreeDecodable {}
extension String: PlainTreeDecodable {}
extension Data: PlainTreeDecodable {}
extension Double: PlainTreeDecodable {}
extension Float: PlainTreeDecodable {}
extension Int8: PlainTreeDecodable {}
extension UInt8: PlainTreeDecodable {}
extension Int16: PlainTreeDecodable {}
extension UInt16: PlainTreeDecodable {}
extension Int32: PlainTreeDecodable {}
extension UInt32: PlainTreeDecodable {}
extension Int64: PlainTreeDecodable {}
extension UInt64: PlainTreeDecodable {}
extension Int: PlainTreeDecodable {}
extension UInt: PlainTreeDecodable {}
