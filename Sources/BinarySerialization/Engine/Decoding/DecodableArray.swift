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
    /// Returns the array as the `T` the caller asked for, which the type cache said `A` is
    /// (here rather than in a function of its own: its frame would stay on the stack while the
    /// elements decode).
    func decodeElements<A: DecodableArray, T>(
        _ type: A.Type, as: T.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> T {
        let path = parent.appending(step)
        var view = try openElements(A.self, of: &node, parent: parent, step: step, path: path)
        depth += 1
        defer { depth -= 1 }
        var elements = A()
        var element = DecodingNode.tree(.nil)
        while true {
            let index = view.currentIndex
            do { guard try view.advance(to: &element, format) else { break } } catch {
                throw decodingError(error, A.Element.self, path.path(appending: .index(index)))
            }
            elements.append(try decodeValue(A.Element.self, from: &element, parent: path, step: .index(index)))
        }
        return try sameType(elements, as: T.self, parent: parent, step: step)
    }

    /// The unkeyed view of an array's `node`, after the depth and session checks. Out of line:
    /// what the checks and their errors need stays out of ``decodeElements(_:as:from:parent:step:)``'s
    /// frame, which is on the stack while the elements decode (one per level of a nested value).
    @inline(never)
    private func openElements<A>(
        _ type: A.Type, of node: inout DecodingNode, parent: CodingPathNode, step: PathStep?, path: CodingPathNode
    ) throws -> DecodingNode.UnkeyedView {
        try checkDepth(parent: parent, step: step, node: node)
        guard session.isOpen else { throw DecodingSession.closedError(path.path) }
        // For protobuf: whether the elements are numbers, which may come as packed runs.
        let hint = formatNeedsFacts && typeFacts.entry(A.self).protobufNumbers ? ProtobufFormat.packedElements : nil
        do { return try node.unkeyedView(format, elementHint: hint, cursors: session.cursors) } catch {
            throw decodingError(error, [Any].self, path.path)
        }
    }
}
