/// Keyed container of ``StreamingEncoder``: each write activates the container's frame (closing
/// nested containers opened before it), checks the key is new, and sends the key and the value.
struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let engine: StreamingEncoder
    /// The frame id, in an object: the engine hands the container's box out again for a later
    /// frame (see ``StreamingEncoder/keyedContainer(_:id:)``).
    let frame: StreamingEncoder.FrameID

    var id: Int { frame.id }

    var codingPath: [any CodingKey] { engine.codingPath(of: id) }

    /// The frame's index once `key` is written to the sink; `nil` after giving up.
    @inline(__always)
    private func start(_ key: BinaryKey) -> Int? {
        guard let index = engine.activate(id), engine.noteKey(key, in: index) else { return nil }
        engine.sink.key(key)
        return index
    }

    /// A primitive field. One body for every primitive type, so that the fields of a value,
    /// whatever their types, run the same instructions (as the decoder's keyed container does).
    @inline(never)
    private func write(_ node: BinaryValue, _ key: Key) throws {
        try write(node, written: BinaryKey(writtenAs: key))
    }

    /// A primitive field, its key as the format writes it (``BinaryKey/init(writtenAs:)``).
    @inline(__always)
    func write(_ node: BinaryValue, written key: BinaryKey) throws {
        guard let index = engine.activate(id), engine.noteKey(key, in: index) else { throw engine.giveUp() }
        engine.sink.field(key, node)
    }

    /// Writes nothing, as ``TreeEncoder`` does: a missing key decodes as `nil`.
    mutating func encodeNil(forKey key: Key) throws {}

    mutating func encode(_ value: Bool, forKey key: Key) throws { try write(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try write(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try write(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try write(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try write(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try write(.int8(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try write(.int16(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try write(.int32(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try write(.int64(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try write(.uint(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try write(.uint8(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try write(.uint16(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try write(.uint32(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try write(.uint64(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let k = BinaryKey(key)
        guard let index = start(k) else { throw engine.giveUp() }
        try engine.encodeValue(value, step: .key(k), in: index)
    }

    /// An array of a type with generated code: what ``encode(_:forKey:)`` does for it.
    mutating func encodeGeneratedArray<G: GeneratedBinaryCodable>(_ value: [G], forKey key: BinaryKey) throws {
        guard let index = start(key) else { throw engine.giveUp() }
        try engine.encodeGeneratedArray(value, step: .key(key), in: index)
    }

    // A present optional is its value, as the tree encoder writes it; a sink that needs type
    // facts gets it bracketed as an optional (a field with presence).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return }
        try engine.needsTypeFacts ? encode(Optional(value), forKey: key) : encode(value, forKey: key)
    }

    /// A present optional primitive field: the events `encode(Optional(value), forKey:)` sends
    /// (bracketed for a sink that needs type facts), without looking up `Optional`'s facts.
    @inline(never)
    private func writePresent(_ node: BinaryValue, _ key: Key) throws {
        guard engine.needsTypeFacts else { return try write(node, written: BinaryKey(writtenAs: key)) }
        guard start(BinaryKey(key)) != nil else { throw engine.giveUp() }
        engine.sink.begin(.optional)
        engine.send(node)
        engine.sink.end()
    }

    // The primitives' own: each unwrapped value takes its type's leaf path.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try writePresent(.bool(value), key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try writePresent(.string(value), key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try writePresent(.double(value), key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try writePresent(.float(value), key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try writePresent(.int(value), key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try writePresent(.int8(value), key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try writePresent(.int16(value), key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try writePresent(.int32(value), key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try writePresent(.int64(value), key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try writePresent(.uint(value), key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try writePresent(.uint8(value), key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try writePresent(.uint16(value), key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try writePresent(.uint32(value), key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try writePresent(.uint64(value), key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        engine.keyedContainer(NestedKey.self, id: nested(.keyed, BinaryKey(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(engine: engine, id: nested(.unkeyed, BinaryKey(key)))
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(for: .super)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(for: BinaryKey(key))
    }

    /// Opens a nested container for `key`; returns its frame id, or 0 (never open) after giving up.
    private func nested(_ kind: StreamingEncoder.State, _ key: BinaryKey) -> Int {
        guard let index = start(key) else { return 0 }
        engine.sink.begin(kind == .keyed ? .keyed : .unkeyed)
        return engine.push(kind, step: .key(key), in: index)
    }

    private func superEncoder(for key: BinaryKey) -> any Encoder {
        guard let index = start(key) else { return StreamingEncoderHandle(engine: engine, id: 0) }
        let depth = engine.frames[index].depth &+ 1
        let child = engine.push(.encoder, step: .key(key), in: index, depth: depth)
        return StreamingEncoderHandle(engine: engine, id: child)
    }
}

/// Unkeyed container of ``StreamingEncoder``: elements are sent in order.
struct StreamingUnkeyedContainer: UnkeyedEncodingContainer, LeafEncodingContainer {
    let engine: StreamingEncoder
    let id: Int
    /// Elements written through this container (the frame counts them too, while it is open).
    private(set) var count = 0

    init(engine: StreamingEncoder, id: Int) {
        self.engine = engine
        self.id = id
        if let index = engine.frames.lastIndex(where: { $0.id == id }) { count = engine.frames[index].count }
    }

    var codingPath: [any CodingKey] { engine.codingPath(of: id) }

    /// The frame's index and the new element's index; `nil` after giving up.
    @inline(__always)
    private mutating func start() -> (frame: Int, element: Int)? {
        guard let index = engine.activate(id) else { return nil }
        let element = engine.frames[index].count
        engine.frames[index].count = element &+ 1
        count = element &+ 1
        return (index, element)
    }

    mutating func encodeLeaf(_ leaf: BinaryValue) throws {
        guard start() != nil else { throw engine.giveUp() }
        engine.send(leaf)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard let (index, element) = start() else { throw engine.giveUp() }
        try engine.encodeValue(value, step: .index(element), in: index)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        engine.keyedContainer(NestedKey.self, id: nested(.keyed))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(engine: engine, id: nested(.unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        guard let (index, element) = start() else { return StreamingEncoderHandle(engine: engine, id: 0) }
        let depth = engine.frames[index].depth &+ 1
        let child = engine.push(.encoder, step: .index(element), in: index, depth: depth)
        return StreamingEncoderHandle(engine: engine, id: child)
    }

    private mutating func nested(_ kind: StreamingEncoder.State) -> Int {
        guard let (index, element) = start() else { return 0 }
        engine.sink.begin(kind == .keyed ? .keyed : .unkeyed)
        return engine.push(kind, step: .index(element), in: index)
    }
}

/// Single-value container of ``StreamingEncoder``. A second value is left to the tree encoder,
/// which keeps the last one.
struct StreamingSingleValueContainer: SingleValueEncodingContainer, LeafEncodingContainer {
    let engine: StreamingEncoder
    let id: Int

    var codingPath: [any CodingKey] { engine.codingPath(of: id) }

    /// The frame's index, marked as holding its value; `nil` (and the run gives up) if it
    /// already holds one or is not a single-value container.
    @inline(__always)
    private func start() -> Int? {
        guard let index = engine.activate(id) else { return nil }
        guard case .singleRequested = engine.frames[index].state else {
            engine.giveUp()
            return nil
        }
        engine.frames[index].state = .singleDone
        return index
    }

    mutating func encodeLeaf(_ leaf: BinaryValue) throws {
        guard start() != nil else { throw engine.giveUp() }
        engine.send(.single(leaf))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard let index = start() else { throw engine.giveUp() }
        try engine.sendWrapped(.single, value, step: nil, in: index)
    }
}
