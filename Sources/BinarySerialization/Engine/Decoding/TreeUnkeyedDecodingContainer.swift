/// Unkeyed container of ``TreeDecoderImpl`` over a node's unkeyed view.
struct TreeUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let impl: TreeDecoderImpl
    var view: DecodingNode.UnkeyedView
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.path }
    var count: Int? { impl.session.isOpen ? view.count(impl.format, counts: impl.unkeyedCounts) : nil }
    var isAtEnd: Bool { !impl.session.isOpen || view.isAtEnd(impl.format) }
    var currentIndex: Int { view.currentIndex }

    /// Throws if the decoding run has returned (see ``DecodingSession/closedError(_:)``).
    @inline(__always)
    private func checkOpen() throws {
        if !impl.session.isOpen { throw closed() }
    }

    @inline(never)
    private func closed() -> DecodingError { DecodingSession.closedError(path.path) }

    private func failure(_ error: any Error, _ type: Any.Type, _ index: Int) -> any Error {
        impl.decodingError(error, type, path.path(appending: .index(index)))
    }

    mutating func decodeNil() throws -> Bool {
        let index = view.currentIndex
        try checkOpen()
        do { return try view.decodeNil(impl.format) } catch { throw failure(error, Any?.self, index) }
    }

    @inline(__always)
    private mutating func scalar<S: ScalarDecodable>(_ type: S.Type) throws -> S {
        let index = view.currentIndex
        try checkOpen()
        do {
            var n = try view.nextElement(impl.format)
            return try S.read(from: &n, impl.format)
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
        try checkOpen()
        return try impl.decodeNextElement(T.self, of: &view, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let index = view.currentIndex
        try checkOpen()
        do {
            var n = try view.nextElement(impl.format)
            return try impl.session.keyedContainer(NestedKey.self, &n, impl: impl, parent: path, step: .index(index))
        } catch { throw failure(error, [String: Any].self, index) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = view.currentIndex
        try checkOpen()
        do {
            var n = try view.nextElement(impl.format)
            let nested = try n.unkeyedView(impl.format, elementHint: nil, cursors: impl.session.cursors)
            return TreeUnkeyedDecodingContainer(impl: impl, view: nested, path: path.appending(.index(index)))
        } catch { throw failure(error, [Any].self, index) }
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = view.currentIndex
        try checkOpen()
        do {
            let n = try view.nextElement(impl.format)
            impl.session.hasOtherDecoders = true
            return TreeDecoderImpl(
                node: n, format: impl.format, options: impl.options, pathNode: path.appending(.index(index)),
                depth: impl.depth + 1, session: impl.session)
        } catch { throw failure(error, Any.self, index) }
    }
}

extension TreeDecoderImpl {
    /// Decodes the next element of `view` (the unkeyed container at `path`) as a `T`; errors
    /// name the element's index. (``decodeElements(_:as:from:parent:step:)`` does the same in a
    /// loop of its own, which keeps the view and the element out of its frame.)
    @inline(__always)
    func decodeNextElement<T: Decodable>(_ type: T.Type, of view: inout DecodingNode.UnkeyedView, path: CodingPathNode)
        throws -> T
    {
        let index = view.currentIndex
        var n: DecodingNode
        do { n = try view.nextElement(format) } catch {
            throw decodingError(error, type, path.path(appending: .index(index)))
        }
        return try decodeValue(T.self, from: &n, parent: path, step: .index(index))
    }
}

/// Single-value container of ``TreeDecoderImpl``.
struct TreeSingleValueDecodingContainer: SingleValueDecodingContainer {
    let impl: TreeDecoderImpl
    /// The content; `nil` when the container holds nil.
    let content: DecodingNode?
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.path }

    /// Whether the container holds nil. In v2, which has no nil marker here, the byte `00`
    /// answers `true` (as BinaryCodable 2.x reads it), so the answer is only asked of types
    /// that wrote nil this way.
    func decodeNil() -> Bool {
        guard let content else { return true }
        return impl.session.isOpen && content.singleValueHoldsNil(impl.format)
    }

    private func contentNode(_ type: Any.Type) throws -> DecodingNode {
        guard impl.session.isOpen else { throw DecodingSession.closedError(path.path) }
        guard let content else {
            throw DecodingError.nilValue(type, at: path.path)
        }
        return content
    }

    @inline(__always)
    private func scalar<S: ScalarDecodable>(_ type: S.Type) throws -> S {
        var n = try contentNode(type)
        do { return try S.read(from: &n, impl.format) } catch { throw impl.decodingError(error, type, path.path) }
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
