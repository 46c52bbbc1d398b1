/// What the plain tree decoder needs to decode a value besides its node and path: the decode
/// call's options and how deeply the value nests. It picks how a type is read: directly
/// (``PlainTreeDecodable``, or an ``IntegerWrapping`` wrapper) or through its `init(from:)`.
struct PlainTreeContext {
    /// The decode call's `userInfo`.
    let userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting accepted.
    let maximumDepth: Int
    /// The levels (``DepthGuard``) enclosing the values decoded in this context.
    let depth: Int

    /// The context of the values nested one level deeper.
    var deeper: PlainTreeContext {
        PlainTreeContext(userInfo: userInfo, maximumDepth: maximumDepth, depth: depth + 1)
    }

    /// Decodes a `T` from `node`, the value at `step` below `parent`.
    func decode<T: Decodable>(
        _ type: T.Type, from node: BinaryValue, parent: TreePath, step: PathStep?
    ) throws -> T {
        let value: Any
        do {
            if let direct = T.self as? any PlainTreeDecodable.Type {
                value = try direct.decodePlainTree(from: node, parent: parent, step: step, in: self)
            } else if let wrapper = T.self as? any IntegerWrapping.Type {
                value = try wrapper.decodePlainTree(from: node, parent: parent, step: step, in: self)
            } else {
                return try decodeWithInit(T.self, from: node, parent: parent, step: step)
            }
        } catch {
            throw plainTreeDecodingError(error, T.self, parent.codingPath(appending: step))
        }
        return try plainTreeSameType(value, as: T.self, at: parent.codingPath(appending: step))
    }

    /// Decodes a `T` through its `init(from:)`, with a decoder of its own for `node`. A type that
    /// asked for no container (an empty struct) reads its node as an empty container.
    func decodeWithInit<T: Decodable>(
        _ type: T.Type, from node: BinaryValue, parent: TreePath, step: PathStep?
    ) throws -> T {
        try checkDepth(parent: parent, step: step)
        let decoder = PlainTreeDecoder(node: node, path: parent.appending(step), context: deeper)
        let value = try T(from: decoder)
        if !decoder.opened {
            do { try node.treeEmptyContainer() } catch {
                throw plainTreeDecodingError(error, T.self, decoder.codingPath)
            }
        }
        return value
    }

    /// Decodes an array element by element, as `Array.init(from:)` would through the unkeyed
    /// container of `node`: the same errors, and the same depth accounting.
    func decodeElements<Element: Decodable>(
        _ type: Element.Type, from node: BinaryValue, parent: TreePath, step: PathStep?
    ) throws -> [Element] {
        try checkDepth(parent: parent, step: step)
        let path = parent.appending(step)
        var view: TreeUnkeyedView
        do { view = try node.treeUnkeyedView() } catch {
            throw plainTreeDecodingError(error, [Any].self, path.codingPath)
        }
        let inner = deeper
        var elements: [Element] = []
        while !view.isAtEnd {
            let index = view.currentIndex
            let element: BinaryValue
            do { element = try view.nextElement() } catch {
                throw plainTreeDecodingError(error, Element.self, path.codingPath(appending: .index(index)))
            }
            elements.append(try inner.decode(Element.self, from: element, parent: path, step: .index(index)))
        }
        return elements
    }

    /// Throws if a level (``DepthGuard``) opened at `step` below `parent` would nest deeper than
    /// the maximum depth.
    func checkDepth(parent: TreePath, step: PathStep?) throws {
        guard admitsLevel(inside: depth, maximumDepth: maximumDepth) else {
            throw DecodingError.tooDeep(maximumDepth: maximumDepth, at: parent.codingPath(appending: step))
        }
    }
}

/// `value` as the `T` it is (a direct type returns a value of its own type, `Self`, which the
/// caller asked for as `T`); a mismatch would be an error of this decoder, thrown as a type
/// mismatch at `path`.
func plainTreeSameType<T>(_ value: Any, as type: T.Type, at path: @autoclosure () -> [any CodingKey]) throws -> T {
    guard let typed = value as? T else {
        throw DecodingError.typeMismatch(
            T.self,
            DecodingError.Context(
                codingPath: path(), debugDescription: "The plain tree decoder read a \(Swift.type(of: value))."))
    }
    return typed
}
