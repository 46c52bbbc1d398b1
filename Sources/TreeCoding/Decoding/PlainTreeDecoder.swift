/// The `Decoder` of the plain tree decoder, ``TreeDecoder``'s: one per value read through its
/// `init(from:)`, holding the value's node and path. Plain safe Swift over the tree rules
/// (``BinaryValue/treeKeyedView()``, ``BinaryValue/treeScalar(_:)``...), with the results and
/// errors of the tree decoding engine that `BinaryDecoder.decode(_:fromTree:)` runs.
final class PlainTreeDecoder: Decoder {
    /// The value's node.
    let node: BinaryValue
    /// The value's path.
    let path: TreePath
    /// The context of the values the containers of this decoder hold.
    let context: PlainTreeContext
    /// Whether the value asked for a container (if not, it must be stored as an empty one).
    private(set) var opened = false

    init(node: BinaryValue, path: TreePath, context: PlainTreeContext) {
        self.node = node
        self.path = path
        self.context = context
    }

    /// Decodes a whole tree.
    static func decodeRoot<T: Decodable>(
        _ type: T.Type, from tree: BinaryValue, userInfo: [CodingUserInfoKey: any Sendable], maximumDepth: Int
    ) throws -> T {
        let context = PlainTreeContext(userInfo: userInfo, maximumDepth: maximumDepth, depth: 0)
        return try context.decode(T.self, from: tree, parent: .root, step: nil)
    }

    var codingPath: [any CodingKey] { path.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        opened = true
        let view: TreeKeyedView
        do { view = try node.treeKeyedView() } catch { throw plainTreeDecodingError(error, type, codingPath) }
        return KeyedDecodingContainer(PlainTreeKeyedContainer<Key>(view: view, path: path, context: context))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        opened = true
        let view: TreeUnkeyedView
        do { view = try node.treeUnkeyedView() } catch { throw plainTreeDecodingError(error, [Any].self, codingPath) }
        return PlainTreeUnkeyedContainer(view: view, path: path, context: context)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        opened = true
        let content: BinaryValue?
        do { content = try node.treeContent(optional: false, atRoot: path.isRoot) } catch {
            throw plainTreeDecodingError(error, Any.self, codingPath)
        }
        return PlainTreeSingleValueContainer(content: content, path: path, context: context)
    }
}
