/// The single-value container of ``PlainTreeDecoder``: the content of a `.single` mark (or of a
/// node without one, inside a keyed or unkeyed container), `nil` when it holds nil.
struct PlainTreeSingleValueContainer: SingleValueDecodingContainer {
    private let content: BinaryValue?
    private let path: TreePath
    /// The context of the value the container holds.
    private let context: PlainTreeContext

    init(content: BinaryValue?, path: TreePath, context: PlainTreeContext) {
        self.content = content
        self.path = path
        self.context = context
    }

    var codingPath: [any CodingKey] { path.codingPath }

    func decodeNil() -> Bool {
        guard let content else { return true }
        return content.isNil
    }

    /// The content; `valueNotFound` for a `type` when the container holds nil.
    private func contentNode(_ type: Any.Type) throws -> BinaryValue {
        guard let content else { throw DecodingError.nilValue(type, at: codingPath) }
        return content
    }

    private func scalar<S: TreeScalar>(_ type: S.Type) throws -> S {
        let node = try contentNode(type)
        do { return try S.plainTreeValue(of: node) } catch { throw plainTreeDecodingError(error, type, codingPath) }
    }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type) }
    func decode(_ type: String.Type) throws -> String { try scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let node = try contentNode(type)
        return try context.decode(T.self, from: node, parent: path, step: nil)
    }
}
