/// Arrays of elements that are not primitives (structs, enums, nested arrays), read element by
/// element by the decoder itself rather than by `Array.init(from:)`.
///
/// The standard library's initializer asks for an unkeyed container, which the decoder returns
/// as an existential (an allocation per array, and a box call per element), and appends each
/// element in unspecialized code that looks up the array's metadata every time. Arrays of
/// primitives, strings and data are ``DirectTreeDecodable`` instead, which takes precedence.
protocol DecodableArray {
    static func decodeElements(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self
}

extension Array: DecodableArray where Element: Decodable {
    static func decodeElements(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Element] {
        try impl.decodeElements(Element.self, from: &node, parent: parent, step: step)
    }
}

extension TreeDecoderImpl {
    /// What `Array<E>.init(from:)` does, with the same errors and depth accounting: open an
    /// unkeyed container and decode an `E` from each element until its end, as the container
    /// `unkeyedContainer()` returns would (``decodeNextElement(_:of:path:)``).
    func decodeElements<E: Decodable>(
        _ type: E.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> [E] {
        try checkDepth(parent: parent, step: step, node: node)
        depth += 1
        defer { depth -= 1 }
        let path = parent.appending(step)
        guard session.isOpen else { throw DecodingSession.closedError(path.path) }
        var view: DecodingNode.UnkeyedView
        do { view = try node.unkeyedView(format, elementHint: nil, cursors: session.cursors) } catch {
            throw decodingError(error, [Any].self, path.path)
        }
        var elements: [E] = []
        try appendElements(to: &elements, from: &view, path: path)
        return elements
    }

    /// Decodes the rest of `view`'s elements into `elements`. Generic over the collection so that
    /// the array's metadata comes in as an argument: appending to an `[E]` in unspecialized code
    /// looks it up (a few hundred instructions) for every element.
    private func appendElements<C: RangeReplaceableCollection>(
        to elements: inout C, from view: inout DecodingNode.UnkeyedView, path: CodingPathNode
    ) throws where C.Element: Decodable {
        while !view.isAtEnd(format) { elements.append(try decodeNextElement(C.Element.self, of: &view, path: path)) }
    }
}
