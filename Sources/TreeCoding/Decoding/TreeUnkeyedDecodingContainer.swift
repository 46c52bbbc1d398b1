/// Unkeyed container of ``TreeDecoderImpl`` over a node's unkeyed view.
struct TreeUnkeyedDecodingContainer<Node: DecodingNode>: UnkeyedDecodingContainer {
    let impl: TreeDecoderImpl<Node>
    var view: Node.Unkeyed
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.path }
    var count: Int? { view.count }
    var isAtEnd: Bool { view.isAtEnd }
    var currentIndex: Int { view.currentIndex }

    private func failure(_ error: any Error, _ type: Any.Type, _ index: Int) -> any Error {
        impl.decodingError(error, type, path.path(appending: .index(index)))
    }

    mutating func decodeNil() throws -> Bool {
        let index = view.currentIndex
        do { return try view.decodeNil() } catch { throw failure(error, Any?.self, index) }
    }

    @inline(__always)
    private mutating func scalar<S: ScalarDecodable>(_ type: S.Type) throws -> S {
        let index = view.currentIndex
        do {
            var n = try view.nextElement()
            let value = try S.read(from: &n)
            try view.finishElement(n)
            return value
        } catch { throw failure(error, type, index) }
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
        var n: Node
        do { n = try view.nextElement() } catch { throw failure(error, type, index) }
        let value = try impl.decodeValue(T.self, from: &n, parent: path, step: .index(index))
        do { try view.finishElement(n) } catch { throw failure(error, type, index) }
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = view.currentIndex
        do {
            var n = try view.nextElement()
            let nested = try n.keyedView()
            try view.finishElement(n)
            return KeyedDecodingContainer(
                TreeKeyedDecodingContainer<NestedKey, Node>(impl: impl, view: nested, path: path.appending(.index(index))))
        } catch { throw failure(error, [String: Any].self, index) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = view.currentIndex
        do {
            var n = try view.nextElement()
            let nested = try n.unkeyedView(elementHint: nil)
            try view.finishElement(n)
            return TreeUnkeyedDecodingContainer(impl: impl, view: nested, path: path.appending(.index(index)))
        } catch { throw failure(error, [Any].self, index) }
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = view.currentIndex
        do {
            let n = try view.nextElement()
            try view.finishElement(n)
            return TreeDecoderImpl(
                node: n, options: impl.options, pathNode: path.appending(.index(index)), depth: impl.depth + 1)
        } catch { throw failure(error, Any.self, index) }
    }
}

/// Single-value container of ``TreeDecoderImpl``.
struct TreeSingleValueDecodingContainer<Node: DecodingNode>: SingleValueDecodingContainer {
    let impl: TreeDecoderImpl<Node>
    /// The content; `nil` when the container holds nil.
    let content: Node?
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.path }

    func decodeNil() -> Bool { content == nil }

    private func contentNode(_ type: Any.Type) throws -> Node {
        guard let content else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path.path, debugDescription: "Expected \(type) but found nil at \(describe(path.path))."))
        }
        return content
    }

    @inline(__always)
    private func scalar<S: ScalarDecodable>(_ type: S.Type) throws -> S {
        var n = try contentNode(type)
        do { return try S.read(from: &n) } catch { throw impl.decodingError(error, type, path.path) }
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
        var n = try contentNode(type)
        return try impl.decodeValue(T.self, from: &n, parent: path, step: nil)
    }
}
