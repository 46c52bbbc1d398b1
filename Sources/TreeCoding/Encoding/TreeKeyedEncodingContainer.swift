/// Keyed container of ``TreeEncoderImpl``: fields go into the buffer encoder, last write wins.
struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoderImpl
    /// Where the fields go: the encoder itself, or a nested container's own buffer.
    let buffer: TreeEncoderImpl
    /// The path of a nested container; `nil` for the encoder's own container.
    let path: TreePath?

    var pathNode: TreePath { path ?? encoder.pathNode }
    var codingPath: [any CodingKey] { pathNode.codingPath }

    /// Writes nothing: a missing key decodes as `nil`.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: Bool, forKey key: Key) throws { buffer.setField(.bool(value), for: BinaryKey(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        buffer.setField(.string(value), for: BinaryKey(key))
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        buffer.setField(.double(value), for: BinaryKey(key))
    }
    mutating func encode(_ value: Float, forKey key: Key) throws { buffer.setField(.float(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { buffer.setField(.int(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { buffer.setField(.int8(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { buffer.setField(.int16(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { buffer.setField(.int32(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { buffer.setField(.int64(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { buffer.setField(.uint(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { buffer.setField(.uint8(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        buffer.setField(.uint16(value), for: BinaryKey(key))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        buffer.setField(.uint32(value), for: BinaryKey(key))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        buffer.setField(.uint64(value), for: BinaryKey(key))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let k = BinaryKey(key)
        if let path {
            // A nested container: encode through a child that knows the nested path.
            let holder = TreeEncoderImpl(
                options: encoder.options, parent: nil, basePath: path, step: nil, depth: encoder.depth)
            buffer.setField(try holder.encodeValue(value, step: .key(k)), for: k)
        } else {
            buffer.setField(try encoder.encodeValue(value, step: .key(k)), for: k)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = pathNode.appending(key)
        let child = TreeEncoderImpl.nested(.keyed, of: encoder, at: path)
        buffer.setPendingField(child, for: BinaryKey(key))
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, buffer: child, path: path))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let path = pathNode.appending(key)
        let child = TreeEncoderImpl.nested(.unkeyed, of: encoder, at: path)
        buffer.setPendingField(child, for: BinaryKey(key))
        return TreeUnkeyedEncodingContainer(encoder: encoder, buffer: child, path: path)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(for: .super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(for: BinaryKey(key))
    }

    private func superEncoder(for key: BinaryKey) -> any Encoder {
        let child = TreeEncoderImpl(
            options: encoder.options, parent: nil, basePath: pathNode, step: .key(key), depth: encoder.depth + 1)
        buffer.setPendingField(child, for: key)
        return child
    }
}
