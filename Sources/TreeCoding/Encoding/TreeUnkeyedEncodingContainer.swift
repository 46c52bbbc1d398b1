/// Unkeyed container of ``TreeEncoderImpl``: elements are appended in order.
struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer, LeafEncodingContainer {
    let encoder: TreeEncoderImpl
    /// Where the elements go: the encoder itself, or a nested container's own buffer.
    let buffer: TreeEncoderImpl
    let path: TreePath?

    var pathNode: TreePath { path ?? encoder.pathNode }
    var codingPath: [any CodingKey] { pathNode.codingPath }
    var count: Int { buffer.state.values.count }

    private var indexStep: PathStep { .index(buffer.state.values.count) }

    mutating func encodeLeaf(_ leaf: BinaryValue) throws { buffer.appendElement(leaf) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let step = indexStep
        if let path {
            let holder = TreeEncoderImpl(
                options: encoder.options, parent: nil, basePath: path, step: nil, depth: encoder.depth)
            buffer.appendElement(try holder.encodeValue(value, step: step))
        } else {
            buffer.appendElement(try encoder.encodeValue(value, step: step))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let nestedPath = pathNode.appending(indexStep)
        let child = TreeEncoderImpl.nested(.keyed, of: encoder, at: nestedPath)
        buffer.appendPendingElement(child)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, buffer: child, path: nestedPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nestedPath = pathNode.appending(indexStep)
        let child = TreeEncoderImpl.nested(.unkeyed, of: encoder, at: nestedPath)
        buffer.appendPendingElement(child)
        return TreeUnkeyedEncodingContainer(encoder: encoder, buffer: child, path: nestedPath)
    }

    mutating func superEncoder() -> any Encoder {
        let child = TreeEncoderImpl(
            options: encoder.options, parent: nil, basePath: pathNode, step: indexStep, depth: encoder.depth + 1)
        buffer.appendPendingElement(child)
        return child
    }
}

/// Single-value container of ``TreeEncoderImpl``: the value is marked ``BinaryValue/single(_:)``.
///
/// Encoding twice keeps the last value, as BinaryCodable does (class hierarchies that call
/// `super.encode(to: encoder)` rely on it).
struct TreeSingleValueEncodingContainer: SingleValueEncodingContainer, LeafEncodingContainer {
    let encoder: TreeEncoderImpl
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func store(_ value: BinaryValue) {
        if encoder.state.storeSingle(value) { encoder.noteLateWrite() }
    }

    mutating func encodeLeaf(_ leaf: BinaryValue) throws { store(.single(leaf)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        store(.single(try encoder.encodeValue(value, step: nil)))
    }
}
