/// The unkeyed container of ``PlainTreeDecoder`` over a tree's unkeyed view (an unkeyed
/// container, or a packed array read element by element).
struct PlainTreeUnkeyedContainer: UnkeyedDecodingContainer {
    private var view: TreeUnkeyedView
    private let path: TreePath
    /// The context of the values the container holds.
    private let context: PlainTreeContext

    init(view: TreeUnkeyedView, path: TreePath, context: PlainTreeContext) {
        self.view = view
        self.path = path
        self.context = context
    }

    var codingPath: [any CodingKey] { path.codingPath }
    var count: Int? { view.count }
    var isAtEnd: Bool { view.isAtEnd }
    var currentIndex: Int { view.currentIndex }

    /// An error of the tree rules in reading element `index`, as a `DecodingError` at its path.
    private func failure(_ error: any Error, _ type: Any.Type, _ index: Int) -> any Error {
        plainTreeDecodingError(error, type, path.codingPath(appending: .index(index)))
    }

    mutating func decodeNil() throws -> Bool {
        let index = view.currentIndex
        do { return try view.decodeNil() } catch { throw failure(error, Any?.self, index) }
    }

    /// A primitive; the element is consumed even when it is not one.
    private mutating func scalar<S: TreeScalar>(_ type: S.Type) throws -> S {
        let index = view.currentIndex
        do { return try S.plainTreeValue(of: view.nextElement()) } catch { throw failure(error, type, index) }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = view.currentIndex
        let element: BinaryValue
        do { element = try view.nextElement() } catch { throw failure(error, type, index) }
        return try context.decode(T.self, from: element, parent: path, step: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let index = view.currentIndex
        let nested: TreeKeyedView
        do { nested = try view.nextElement().treeKeyedView() } catch {
            throw failure(error, [String: Any].self, index)
        }
        return KeyedDecodingContainer(
            PlainTreeKeyedContainer<NestedKey>(view: nested, path: path.appending(.index(index)), context: context))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = view.currentIndex
        let nested: TreeUnkeyedView
        do { nested = try view.nextElement().treeUnkeyedView() } catch { throw failure(error, [Any].self, index) }
        return PlainTreeUnkeyedContainer(view: nested, path: path.appending(.index(index)), context: context)
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = view.currentIndex
        let element: BinaryValue
        do { element = try view.nextElement() } catch { throw failure(error, Any.self, index) }
        return PlainTreeDecoder(node: element, path: path.appending(.index(index)), context: context.deeper)
    }
}
