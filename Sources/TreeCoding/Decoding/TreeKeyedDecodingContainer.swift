/// Keyed container of ``TreeDecoderImpl`` over a node's keyed view.
struct TreeKeyedDecodingContainer<Key: CodingKey, Node: DecodingNode>: KeyedDecodingContainerProtocol {
    let impl: TreeDecoderImpl<Node>
    let view: Node.Keyed
    let path: CodingPathNode

    var codingPath: [any CodingKey] { path.path }

    var allKeys: [Key] {
        view.allKeys.compactMap { k in
            if let i = k.intValue, let key = Key(intValue: i) { return key }
            return Key(stringValue: k.stringValue)
        }
    }

    func contains(_ key: Key) -> Bool { view.contains(key) }

    @inline(__always)
    private func node(_ key: Key, _ type: Any.Type) throws -> Node {
        let found: Node?
        do { found = try view.node(forKey: key) } catch { throw impl.decodingError(error, type, path.path(appending: .key(BinaryKey(key)))) }
        guard let found else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: path.path, debugDescription: "No value for key \(BinaryKey(key)) at \(describe(path.path))."))
        }
        return found
    }

    @inline(__always)
    private func scalar<S: ScalarDecodable>(_ type: S.Type, _ key: Key) throws -> S {
        var n = try node(key, type)
        do { return try S.read(from: &n) } catch { throw impl.decodingError(error, type, path.path(appending: .key(BinaryKey(key)))) }
    }

    func decodeNil(forKey key: Key) throws -> Bool { try node(key, Any?.self).isNil }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        var n = try node(key, type)
        return try impl.decodeValue(T.self, from: &n, parent: path, step: .key(BinaryKey(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        var n = try node(key, [String: Any].self)
        let nested: Node.Keyed
        do { nested = try n.keyedView() } catch { throw impl.decodingError(error, type, path.path(appending: .key(BinaryKey(key)))) }
        return KeyedDecodingContainer(
            TreeKeyedDecodingContainer<NestedKey, Node>(impl: impl, view: nested, path: path.appending(key)))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        var n = try node(key, [Any].self)
        let nested: Node.Unkeyed
        do { nested = try n.unkeyedView(elementHint: nil) } catch {
            throw impl.decodingError(error, [Any].self, path.path(appending: .key(BinaryKey(key))))
        }
        return TreeUnkeyedDecodingContainer<Node>(impl: impl, view: nested, path: path.appending(key))
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(for: .super, lookup: BinaryKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(for: BinaryKey(key), lookup: key)
    }

    private func superDecoder(for key: BinaryKey, lookup: some CodingKey) throws -> any Decoder {
        let found: Node?
        do { found = try view.node(forKey: lookup) } catch { throw impl.decodingError(error, Any.self, path.path) }
        guard let found else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: path.path, debugDescription: "No value for key \(key) at \(describe(path.path))."))
        }
        return TreeDecoderImpl(
            node: found, options: impl.options, pathNode: path.appending(.key(key)), depth: impl.depth + 1)
    }
}
