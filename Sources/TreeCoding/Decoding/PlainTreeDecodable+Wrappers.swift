extension IntegerWrapping {
    /// Reads the wrapper from `node`: a wrapped integer the tree has a leaf for from its leaf in
    /// the wrapper's encoding, any other wrapped type as if there were no wrapper.
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Self {
        guard let integer = Value.self as? any TreeIntegerScalar.Type else {
            return Self(wrappedValue: try context.decode(Value.self, from: node, parent: parent, step: step))
        }
        let value = try integer.value(of: node.treeScalar(integer.scalarKind(encoding)))
        return Self(wrappedValue: try plainTreeSameType(value, as: Value.self, at: parent.codingPath(appending: step)))
    }
}

/// ``Packed`` changes nothing: the sequence is read as if there were no wrapper.
extension Packed: PlainTreeDecodable where Value: Decodable {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Self {
        Self(wrappedValue: try context.decode(Value.self, from: node, parent: parent, step: step))
    }
}
