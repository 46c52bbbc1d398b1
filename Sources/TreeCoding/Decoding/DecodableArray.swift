/// Arrays of elements that are not primitives (structs, enums, nested arrays), read element by
/// element by the decoder itself rather than by `Array.init(from:)`.
///
/// The standard library's initializer asks for an unkeyed container, which the decoder returns
/// as an existential (an allocation per array, and a box call per element), and appends each
/// element in unspecialized code that looks up the array's metadata every time. Arrays of
/// primitives, strings and data are ``DirectTreeDecodable`` instead, which takes precedence.
///
/// A refinement of `RangeReplaceableCollection`, so that the decoder appends through the
/// conformance the thread's type cache keeps (``DecodingThreadCache``): code generic over the
/// element alone looked the array's metadata up at every append (a few hundred instructions),
/// even in a static method of the array type.
protocol DecodableArray: RangeReplaceableCollection where Element: Decodable {}

extension Array: DecodableArray where Element: Decodable {}

extension TreeDecoderImpl {
    /// What `Array.init(from:)` does, with the same errors and depth accounting: open an
    /// unkeyed container and decode an element from each of its elements until its end, as the
    /// container `unkeyedContainer()` returns would (``decodeNextElement(_:of:path:)``).
    func decodeElements<A: DecodableArray>(
        _ type: A.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> A {
        try checkDepth(parent: parent, step: step, node: node)
        depth += 1
        defer { depth -= 1 }
        let path = parent.appending(step)
        guard session.isOpen else { throw DecodingSession.closedError(path.path) }
        var view: DecodingNode.UnkeyedView
        do { view = try node.unkeyedView(format, elementHint: nil, cursors: session.cursors) } catch {
            throw decodingError(error, [Any].self, path.path)
        }
        var elements = A()
        while !view.isAtEnd(format) {
            elements.append(try decodeNextElement(A.Element.self, of: &view, path: path))
        }
        return elements
    }
}
