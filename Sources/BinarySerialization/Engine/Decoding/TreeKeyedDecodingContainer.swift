/// Keyed container of ``TreeDecoderImpl`` over a node's keyed view.
struct TreeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// Everything else; see ``KeyedContainerState`` for why it is one reference.
    let state: KeyedContainerState

    var impl: TreeDecoderImpl { state.impl }
    var path: CodingPathNode { state.path }

    var codingPath: [any CodingKey] { path.path }

    /// The stored keys that are keys of `Key`, in stored order. A loop of its own rather than a
    /// `compactMap` over the stored keys: unspecialized, each generic call looks up the metadata
    /// of `[Key]`, `Key?` and the array's storage again (an enum with associated values reads its
    /// keys once per value).
    var allKeys: [Key] {
        guard impl.session.isOpen else { return [] }
        if impl.formatNeedsFacts, state.openedNode.map(ProtobufFormat.isOneOf) == true { return oneOfKeys() }
        let view = state.currentView
        let count = view.count
        var keys: [Key] = []
        keys.reserveCapacity(count)
        for position in 0..<count {
            let k = view.key(at: position)
            if let i = k.intValue, let key = Key(intValue: i) {
                keys.append(key)
            } else if let key = Key(stringValue: k.stringValue) {
                keys.append(key)
            }
        }
        return keys
    }

    /// A protobuf oneof's keys: the member set last, or none (``TreeDecoderImpl/oneOfFoundNoMember``).
    @inline(never)
    private func oneOfKeys() -> [Key] {
        guard let number = try? state.oneOfMember({ Key(intValue: $0) != nil }), let key = Key(intValue: number) else {
            impl.oneOfFoundNoMember = true
            return []
        }
        return [key]
    }

    func contains(_ key: Key) -> Bool { impl.session.isOpen && state.currentView.contains(key) }

    /// The node of `key`, or `nil` when absent; throws once the decoding run has returned.
    @inline(__always)
    private func lookup(_ key: Key) throws -> DecodingNode? {
        try state.checkOpen()
        return state.node(forKey: key)
    }

    /// ``lookup(_:)`` out of line, for the nested values of `decode(_:forKey:)`: inlined, the
    /// search takes a few hundred bytes of the frame that stays on the stack while the value
    /// decodes, one such frame per level of a nested value.
    @inline(never)
    private func nestedLookup(_ key: Key) throws -> DecodingNode? {
        try lookup(key)
    }

    @inline(__always)
    private func node(_ key: Key, _ type: Any.Type) throws -> DecodingNode {
        guard let found = try lookup(key) else { return .bytes(try absentOrMissing(key)) }
        return found
    }

    /// A primitive of a key the scanned container does not hold: its default, or `keyNotFound`.
    @inline(never)
    private func absentScalar<S: ScalarDecodable>(_ type: S.Type, _ key: Key, _ format: any ByteFormat.Type) throws
        -> S
    {
        var b = try absentOrMissing(key)
        do { return try S.read(bytes: &b, format) } catch { throw failure(error, type, key) }
    }

    @inline(never)
    private func absentBits(_ kind: ScalarKind, _ type: Any.Type, _ key: Key, _ format: any ByteFormat.Type) throws
        -> UInt64
    {
        var b = try absentOrMissing(key)
        do { return try format.decodeBits(&b, kind) } catch { throw failure(error, type, key) }
    }

    /// The node of a key the container does not hold, where the format reads it as its default
    /// (protobuf: a key without an integer value is no field number, an error); `nil` where it is
    /// missing.
    @inline(never)
    private func absentOrMissing(_ key: Key) throws -> ByteNode {
        guard let field = try absentField(key) else { throw missing(key) }
        return field
    }

    private func absentField(_ key: Key) throws -> ByteNode? {
        guard let format = impl.format, let field = format.absentField() else { return nil }
        if let member = state.memberValue { return member }
        if key.intValue == nil {
            let access = ProtobufDecodingError.invalidAccess(
                "the key has no integer value: fields need Int coding keys")
            throw impl.decodingError(access, Key.self, path.path(appending: .key(BinaryKey(key))))
        }
        return field
    }

    /// What the protobuf format does with `T` (``ProtobufFormat/facts(_:direct:)``).
    @inline(never)
    private func protobufFacts<T>(_ type: T.Type) -> ProtobufFormat.TypeFacts {
        let entry = impl.typeFacts.entry(T.self)
        guard entry.protobufSpecial else { return .plain }
        return ProtobufFormat.facts(T.self, direct: entry.direct)
    }

    /// The error for a key the container lacks, naming the keys it has: computed only here.
    @inline(never)
    private func missing(_ key: Key) -> DecodingError {
        var present: [BinaryKey]?
        if impl.session.isOpen {
            let view = state.currentView
            present = (0..<view.count).map { view.key(at: $0) }
        }
        return DecodingError.noValue(forKey: key, at: path.path, present: present)
    }

    /// A node-layer error in reading `key`'s value, as a `DecodingError` at its path.
    @inline(never)
    private func failure(_ error: any Error, _ type: Any.Type, _ key: Key) -> any Error {
        impl.decodingError(error, type, path.path(appending: .key(BinaryKey(key))))
    }

    @inline(__always)
    private func scalar<S: ScalarDecodable>(_ type: S.Type, _ key: Key) throws -> S {
        if let format = state.scannedFormat {
            // Bytes searched entry by entry: read the stored node directly.
            try state.checkOpen()
            if state.isRecorded {
                guard let value = try recordedScalar(type, key, nilIsAbsent: false) else { throw missing(key) }
                return value
            }
            guard var b = state.scannedNode(forKey: key) else { return try absentScalar(type, key, format) }
            do { return try S.read(bytes: &b, format) } catch { throw failure(error, type, key) }
        }
        var n = try node(key, type)
        do { return try S.read(from: &n, impl.format) } catch { throw failure(error, type, key) }
    }

    /// A fixed-size primitive, read by ``scalarBits(_:_:_:)``: one body for every such type,
    /// so that the fields of a value, whatever their types, run the same instructions. (A copy
    /// of ``scalar(_:_:)`` per type is a few kilobytes: a value with fields of six types missed
    /// the instruction cache in each.)
    @inline(__always)
    func fixedSizeScalar<S: FixedSizeScalar>(_ type: S.Type, _ key: Key) throws -> S {
        S(bits: try scalarBits(S.scalarKind, type, key))
    }

    /// The bits of `key`'s primitive of `kind` (a `type`), from any container. Not generic over
    /// the type: called from code the compiler merges for several types, a generic function
    /// ran unspecialized, looking up metadata per call.
    @inline(never)
    private func scalarBits(_ kind: ScalarKind, _ type: Any.Type, _ key: Key) throws -> UInt64 {
        if let format = state.scannedFormat {
            try state.checkOpen()
            if state.isRecorded {
                do {
                    guard let leaf = try state.recordedLeaf(kind, forKey: key, nilIsAbsent: false) else {
                        throw missing(key)
                    }
                    return try kind.bits(of: leaf, as: type, offset: nil)
                } catch {
                    throw failure(error, type, key)
                }
            }
            guard var b = state.scannedNode(forKey: key) else { return try absentBits(kind, type, key, format) }
            do { return try format.decodeBits(&b, kind) } catch { throw failure(error, type, key) }
        }
        var n = try node(key, type)
        do {
            if case .bytes(var b) = n { return try DecodingNode.requireFormat(impl.format).decodeBits(&b, kind) }
            let leaf = try n.decodeScalar(kind, impl.format)
            return try kind.bits(of: leaf, as: type, offset: n.byteOffset)
        } catch {
            throw failure(error, type, key)
        }
    }

    /// A primitive of a recorded container searched entry by entry
    /// (``KeyedContainerState/recordedLeaf(_:forKey:nilIsAbsent:)``); `nil` when absent.
    @inline(__always)
    private func recordedScalar<S: ScalarDecodable>(_ type: S.Type, _ key: Key, nilIsAbsent: Bool) throws -> S? {
        do {
            guard let leaf = try state.recordedLeaf(S.scalarKind, forKey: key, nilIsAbsent: nilIsAbsent) else {
                return nil
            }
            return try S.value(of: leaf)
        } catch {
            throw failure(error, type, key)
        }
    }

    /// `true` for a nil value and for an absent key: `encodeNil(forKey:)` writes nothing, so this
    /// is how a value it wrote reads back (BinaryCodable's rule, in both formats).
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = try lookup(key) else { return true }
        return found.isNil(impl.format)
    }

    // `decodeIfPresent` with one lookup (the default implementation looks the key up three times).

    @inline(__always)
    func scalarIfPresent<S: ScalarDecodable>(_ type: S.Type, _ key: Key) throws -> S? {
        if let format = state.scannedFormat {
            try state.checkOpen()
            if state.isRecorded { return try recordedScalar(type, key, nilIsAbsent: true) }
            guard var b = state.scannedNode(forKey: key), !format.isNil(b) else { return nil }
            do { return try S.read(bytes: &b, format) } catch { throw failure(error, type, key) }
        }
        guard var n = try lookup(key), !n.isNil(impl.format) else { return nil }
        do { return try S.read(from: &n, impl.format) } catch { throw failure(error, type, key) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try scalarIfPresent(type, key) }

    /// Only an absent key is `nil`: a present key's element, nil included, is `T`'s to read. A
    /// type whose `encode(to:)` writes nil (a JSON-like `.null`, the `.some(nil)` of a `T??`
    /// field) is written as a nil element, while `encodeIfPresent` writes no key for `.none`.
    /// The primitives, which have no nil of their own, read a nil element as absent, as their
    /// own `decodeIfPresent` does.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try state.withDecoderAndPath { impl, path in
            if impl.formatNeedsFacts, isProtobufOneOf(T.self) { return try oneOf(T.self, key) }
            guard var n = try lookup(key) else { return nil }
            if n.isNil(impl.format), T.self is any ScalarDecodable.Type { return nil }
            return try impl.decodeValue(T.self, from: &n, parent: path, step: .key(BinaryKey(key)))
        }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try fixedSizeScalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try fixedSizeScalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try fixedSizeScalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try fixedSizeScalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try fixedSizeScalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try fixedSizeScalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try fixedSizeScalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try fixedSizeScalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try fixedSizeScalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try fixedSizeScalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try fixedSizeScalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try fixedSizeScalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try fixedSizeScalar(type, key) }

    /// An absent key decodes as nil when `T` is optional (BinaryCodable 2.x leaves nil optionals
    /// out of keyed containers), and throws `keyNotFound` otherwise.
    /// (The lookup is inside the closure, a function of its own: outside, the container's frame
    /// and the closure's would both stay on the stack while the value decodes.)
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try state.withDecoderAndPath { impl, path in
            if impl.formatNeedsFacts, isProtobufOneOf(T.self) { return try requiredOneOf(T.self, key) }
            guard var n = try nestedLookup(key) else { return try absent(T.self, key, path) }
            return try impl.decodeValue(T.self, from: &n, parent: path, step: .key(BinaryKey(key)))
        }
    }

    // The protobuf paths are functions of their own: in a generic function that runs
    // unspecialized (as `decode(_:forKey:)` does), a local of type `T?` costs a metadata look-up
    // per call, taken or not (+9% instructions on P2 v3 decode).

    /// For protobuf: whether `T` is a ``ProtobufOneOf`` or an optional one.
    @inline(never)
    private func isProtobufOneOf<T>(_ type: T.Type) -> Bool {
        let facts = protobufFacts(T.self)
        return facts == .oneOf || facts == .optionalOneOf
    }

    /// A oneof read with `decode(_:forKey:)`: `nil` when none is set and `T` is optional, else
    /// `valueNotFound`.
    @inline(never)
    private func requiredOneOf<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        if let value = try oneOf(T.self, key) { return value }
        if let optional = T.self as? any NilRepresentable.Type, let none = optional.nilValue as? T { return none }
        throw DecodingError.valueNotFound(
            T.self,
            .init(
                codingPath: path.path(appending: .key(BinaryKey(key))),
                debugDescription: "Protobuf: no member of the oneof \(T.self) is set"))
    }

    /// A ``ProtobufOneOf`` enum stored under `key`: its members are fields of this container's
    /// message (the key itself is not stored); `nil` when none is set.
    @inline(never)
    private func oneOf<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try state.checkOpen()
        guard let holder = state.openedNode, var node = ProtobufFormat.oneOf(in: holder).map(DecodingNode.bytes) else {
            throw ProtobufFormat.unsupported("a oneof outside a message", at: 0)
        }
        impl.oneOfFoundNoMember = false
        do {
            return try impl.decodeValue(T.self, from: &node, parent: path, step: .key(BinaryKey(key)))
        } catch {
            // Only this oneof's own container sets the flag; cleared, an enclosing oneof's
            // error is not taken for its own.
            guard impl.oneOfFoundNoMember else { throw error }
            impl.oneOfFoundNoMember = false
            return nil
        }
    }

    /// The value of an absent key: nil for an optional `T`, else `keyNotFound`. Out of line, as
    /// its `T?` locals make a generic function look up `Optional<T>`'s metadata on every call.
    @inline(never)
    private func absent<T: Decodable>(_ type: T.Type, _ key: Key, _ path: CodingPathNode) throws -> T {
        if let optional = T.self as? any NilRepresentable.Type, let none = optional.nilValue as? T { return none }
        // A format that gives a missing field its default (protobuf).
        guard var field = try absentField(key).map({ DecodingNode.bytes($0) }) else { throw missing(key) }
        return try impl.decodeValue(T.self, from: &field, parent: path, step: .key(BinaryKey(key)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        var n = try node(key, [String: Any].self)
        do {
            return try impl.session.keyedContainer(
                NestedKey.self, &n, impl: impl, parent: path, step: .key(BinaryKey(key)))
        } catch {
            throw failure(error, type, key)
        }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        var n = try node(key, [Any].self)
        let nested: DecodingNode.UnkeyedView
        do { nested = try n.unkeyedView(impl.format, elementHint: nil, cursors: impl.session.cursors) } catch {
            throw failure(error, [Any].self, key)
        }
        return TreeUnkeyedDecodingContainer(impl: impl, view: nested, path: path.appending(key))
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(for: .super, lookup: BinaryKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(for: BinaryKey(key), lookup: key)
    }

    private func superDecoder(for key: BinaryKey, lookup: some CodingKey) throws -> any Decoder {
        try state.checkOpen()
        var hint = 0
        guard let found = state.currentView.node(forKey: lookup, hint: &hint) else {
            throw DecodingError.noSuperValue(forKey: key, at: path.path)
        }
        impl.session.hasOtherDecoders = true
        return TreeDecoderImpl(
            node: found, format: impl.format, options: impl.options, pathNode: path.appending(.key(key)),
            depth: impl.depth + 1, session: impl.session)
    }
}
