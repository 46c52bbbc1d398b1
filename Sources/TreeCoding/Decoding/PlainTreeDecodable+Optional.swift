/// An optional holds a value only in an `.optional` mark (``BinaryValue/treeContent(optional:atRoot:)``);
/// the value has the optional's path.
extension Optional: PlainTreeDecodable where Wrapped: Decodable {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Wrapped? {
        guard let content = try node.treeContent(optional: true, atRoot: false) else { return nil }
        return try context.decode(Wrapped.self, from: content, parent: parent, step: step)
    }
}

/// `Optional`, for a keyed container that must tell whether a type is one: an absent key is its
/// nil.
protocol PlainTreeOptional {
    /// `Optional<Wrapped>.none`, boxed.
    static var plainTreeNone: Any { get }
}

extension Optional: PlainTreeOptional {
    static var plainTreeNone: Any { Self.none as Any }
}
