/// Unkeyed container of ``TreeEncoderImpl``: elements are appended in order.
struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoderImpl
    /// Where the elements go: the encoder itself, or a nested container's own buffer.
    let buffer: TreeEncoderImpl
    let path: CodingPathNode?

    var pathNode: CodingPathNode { path ?? encoder.pathNode }
    var codingPath: [any CodingKey] { pathNode.path }
    var count: Int { buffer.values.count }

    private var indexStep: PathStep { .index(buffer.values.count) }

    mutating func encodeNil() throws { buffer.appendElement(.nil) }
    mutating func encode(_ value: Bool) throws { buffer.appendElement(.bool(value)) }
    mutating func encode(_ value: String) throws { buffer.appendElement(.string(value)) }
    mutating func encode(_ value: Double) throws { buffer.appendElement(.double(value)) }
    mutating func encode(_ value: Float) throws { buffer.appendElement(.float(value)) }
    mutating func encode(_ value: Int) throws { buffer.appendElement(.int(value)) }
    mutating func encode(_ value: Int8) throws { buffer.appendElement(.int8(value)) }
    mutating func encode(_ value: Int16) throws { buffer.appendElement(.int16(value)) }
    mutating func encode(_ value: Int32) throws { buffer.appendElement(.int32(value)) }
    mutating func encode(_ value: Int64) throws { buffer.appendElement(.int64(value)) }
    mutating func encode(_ value: UInt) throws { buffer.appendElement(.uint(value)) }
    mutating func encode(_ value: UInt8) throws { buffer.appendElement(.uint8(value)) }
    mutating func encode(_ value: UInt16) throws { buffer.appendElement(.uint16(value)) }
    mutating func encode(_ value: UInt32) throws { buffer.appendElement(.uint32(value)) }
    mutating func encode(_ value: UInt64) throws { buffer.appendElement(.uint64(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let step = indexStep
        if let path {
            let holder = TreeEncoderImpl(
                options: encoder.options, parent: nil, basePath: path, step: nil, depth: max(encoder.depth, path.depth))
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
struct TreeSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoderImpl
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func store(_ value: BinaryValue) {
        if encoder.isFinished { encoder.noteLateWrite() }
        switch encoder.storage {
        case .keyed, .unkeyed:
            // The misuse was noted when this container was handed out; keep the state consistent.
            encoder.resetContainer(to: .value(value))
        case .empty, .singleRequested, .value:
            encoder.storage = .value(value)
        }
    }

    mutating func encodeNil() throws { store(.single(.nil)) }
    mutating func encode(_ value: Bool) throws { store(.single(.bool(value))) }
    mutating func encode(_ value: String) throws { store(.single(.string(value))) }
    mutating func encode(_ value: Double) throws { store(.single(.double(value))) }
    mutating func encode(_ value: Float) throws { store(.single(.float(value))) }
    mutating func encode(_ value: Int) throws { store(.single(.int(value))) }
    mutating func encode(_ value: Int8) throws { store(.single(.int8(value))) }
    mutating func encode(_ value: Int16) throws { store(.single(.int16(value))) }
    mutating func encode(_ value: Int32) throws { store(.single(.int32(value))) }
    mutating func encode(_ value: Int64) throws { store(.single(.int64(value))) }
    mutating func encode(_ value: UInt) throws { store(.single(.uint(value))) }
    mutating func encode(_ value: UInt8) throws { store(.single(.uint8(value))) }
    mutating func encode(_ value: UInt16) throws { store(.single(.uint16(value))) }
    mutating func encode(_ value: UInt32) throws { store(.single(.uint32(value))) }
    mutating func encode(_ value: UInt64) throws { store(.single(.uint64(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        store(.single(try encoder.encodeValue(value, step: nil)))
    }
}
