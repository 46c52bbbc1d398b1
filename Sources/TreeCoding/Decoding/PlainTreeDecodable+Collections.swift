/// Arrays: of primitives, one node (``PlainTreeArrayElement``); of anything else, element by
/// element (``PlainTreeContext/decodeElements(_:from:parent:step:)``).
extension Array: PlainTreeDecodable where Element: Decodable {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> [Element] {
        if let element = Element.self as? any PlainTreeArrayElement.Type {
            return try plainTreeLeafArray(element, from: node, parent: parent, step: step)
        }
        return try context.decodeElements(Element.self, from: node, parent: parent, step: step)
    }
}

/// Sets: of primitives, one node; of anything else, through `Set.init(from:)`.
extension Set: PlainTreeDecodable where Element: Decodable {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> Set<Element> {
        if let element = Element.self as? any PlainTreeArrayElement.Type {
            return Set(try plainTreeLeafArray(element, from: node, parent: parent, step: step))
        }
        return try context.decodeWithInit(Set<Element>.self, from: node, parent: parent, step: step)
    }
}

/// The array of primitives `E` stored in `node`, as the `[Element]` it is.
private func plainTreeLeafArray<E: PlainTreeArrayElement, Element>(
    _ type: E.Type, from node: BinaryValue, parent: TreePath, step: PathStep?
) throws -> [Element] {
    let elements = try E.decodePlainTreeArray(from: node, parent: parent, step: step)
    return try plainTreeSameType(elements, as: [Element].self, at: parent.codingPath(appending: step))
}
