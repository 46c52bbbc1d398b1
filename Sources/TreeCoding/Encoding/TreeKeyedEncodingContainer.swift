/// Keyed container of ``TreeEncoderImpl``: fields go into a ``KeyedBuffer``, last write wins.
struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoderImpl
    let buffer: KeyedBuffer
    /// The path of a nested container; `nil` for the encoder's own container.
    let path: CodingPathNode?

    var pathNode: CodingPathNode { path ?? encoder.pathNode }
    var codingPath: [any CodingKey] { pathNode.path }

    /// Writes nothing: a missing key decodes as `nil`.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: Bool, forKey key: Key) throws { buffer.set(.bool(value), for: BinaryKey(key)) }
    mutating func encode(_ value: String, forKey key: Key) throws { buffer.set(.string(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { buffer.set(.double(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { buffer.set(.float(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { buffer.set(.int(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { buffer.set(.int8(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { buffer.set(.int16(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { buffer.set(.int32(value), for: BinaryKey(key)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { buffer.set(.int64(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { buffer.set(.uint(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { buffer.set(.uint8(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { buffer.set(.uint16(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { buffer.set(.uint32(value), for: BinaryKey(key)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { buffer.set(.uint64(value), for: BinaryKey(key)) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let k = BinaryKey(key)
        if let path {
            // A nested container: encode through a child that knows the nested path.
            let holder = TreeEncoderImpl(
                options: encoder.options, parentPath: path, step: nil, depth: max(encoder.depth, path.depth))
            buffer.set(try holder.encodeValue(value, step: .key(k)), for: k)
        } else {
            buffer.set(try encoder.encodeValue(value, step: .key(k)), for: k)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = KeyedBuffer(sortKeys: buffer.sortKeys)
        buffer.setPending(.keyed(child), for: BinaryKey(key))
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, buffer: child, path: pathNode.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = UnkeyedBuffer()
        buffer.setPending(.unkeyed(child), for: BinaryKey(key))
        return TreeUnkeyedEncodingContainer(encoder: encoder, buffer: child, path: pathNode.appending(key))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(for: .super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(for: BinaryKey(key))
    }

    private func superEncoder(for key: BinaryKey) -> any Encoder {
        let child = TreeEncoderImpl(
            options: encoder.options, parentPath: pathNode, step: .key(key), depth: encoder.depth + 1)
        buffer.setPending(.encoder(child), for: key)
        return child
    }
}
