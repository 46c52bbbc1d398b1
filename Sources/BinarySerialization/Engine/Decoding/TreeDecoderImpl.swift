import Foundation

/// Options shared by every decoder of one decoding run.
struct DecodingOptions: Sendable {
    var userInfo: [CodingUserInfoKey: any Sendable]
    var maximumDepth: Int
    /// For protobuf, whose rule counts messages, not values: the most messages open at once
    /// (the top level's included).
    var maximumMessages = Int.max
}

/// The `Decoder` handed to `init(from:)`.
///
/// It is not generic: nodes are one concrete type (``DecodingNode``) and byte formats are reached
/// through one existential, so no decoding code runs unspecialized. One instance serves a whole
/// decoding run: decoding a nested value swaps the current node in and out, so nested structs
/// cost no decoder allocation. Its state is `@exclusivity(unchecked)`: one run, one thread, and no
/// access to it stays open across a call into `init(from:)`.
final class TreeDecoderImpl: Decoder {
    @exclusivity(unchecked) var node: DecodingNode
    /// The current value's coding path is `pathParent` then `pathStep`: a node for it is built
    /// only when asked for (``pathNode``).
    @exclusivity(unchecked) private var pathParent: CodingPathNode
    @exclusivity(unchecked) private var pathStep: PathStep?
    @exclusivity(unchecked) private(set) var options: DecodingOptions
    /// The wire format of byte nodes; `nil` when decoding a tree. (A constant: code reading a
    /// variable would retain and release it around every call into the format.)
    let format: (any ByteFormat.Type)?
    /// The format's ``ByteFormat/needsTypeFacts``, asked once.
    let formatNeedsFacts: Bool
    /// The levels (``DepthGuard``) enclosing the current value, its own included once it opened.
    @exclusivity(unchecked) var depth: Int
    /// The element type of the unkeyed container the current type is about to open (SIMD).
    @exclusivity(unchecked) var elementHint: ScalarKind?
    /// Whether the type being decoded asked for a container (see ``decodeWithInit(_:from:parent:step:)``).
    @exclusivity(unchecked) var opened = false
    /// Protobuf messages open around the current value, and with its own container.
    @exclusivity(unchecked) private var messagesOutside = 0
    @exclusivity(unchecked) private var messages = 0
    /// The decoding run this decoder belongs to; closed when the run returns, reopened when the
    /// thread's next run reuses the decoder.
    let session: DecodingSession
    @exclusivity(unchecked) private var countsOfRun: UnkeyedCounts?
    /// This thread's answers to the conformance checks of each type.
    let typeFacts: DecodingThreadCache
    /// The stack of the thread the decoder was made on (its cache's thread).
    let stack: ThreadStack

    /// The unkeyed-container counts of this run, made on the first request for a `count`.
    var unkeyedCounts: UnkeyedCounts {
        if let countsOfRun { return countsOfRun }
        let counts = UnkeyedCounts()
        countsOfRun = counts
        return counts
    }

    init(
        node: DecodingNode, format: (any ByteFormat.Type)?, options: DecodingOptions, pathNode: CodingPathNode = .root,
        depth: Int = 0, session: DecodingSession = DecodingSession(), threadCache: DecodingThreadCache = .current
    ) {
        self.node = node
        self.format = format
        self.formatNeedsFacts = format?.needsTypeFacts ?? false
        self.options = options
        self.pathParent = pathNode
        self.depth = depth
        self.session = session
        self.typeFacts = threadCache
        self.stack = threadCache.stack
    }

    /// Decodes a whole input.
    ///
    /// With `throughDecodable`, the root is read by the type's own `init(from:)` even when it is a
    /// primitive, array or optional, the mirror of `TreeEncoder.encodeTree(_:throughEncodable:)`.
    static func decodeRoot<T: Decodable>(
        _ type: T.Type, from node: DecodingNode, format: (any ByteFormat.Type)?, options: DecodingOptions,
        throughDecodable: Bool = false
    ) throws -> T {
        let cache = DecodingThreadCache.current
        var impl = cache.decoder(node: node, format: format, options: options)
        var root = node
        let value: T
        do {
            if throughDecodable {
                value = try impl.decodeWithInit(T.self, from: &root, parent: .root, step: nil)
            } else {
                value = try impl.decodeValue(T.self, from: &root, parent: .root, step: nil)
            }
        } catch {
            endRun(&impl, cache)
            throw error
        }
        endRun(&impl, cache)
        return value
    }

    private static func endRun(_ impl: inout TreeDecoderImpl, _ cache: DecodingThreadCache) {
        // Byte nodes point into the caller's buffer, which is only valid during this call: a
        // decoder or container that a type kept (legal in Swift) must not read it afterwards.
        if impl.format != nil { impl.session.close() }
        impl.session.end()
        // No decoder or container kept: the thread's next run reuses this decoder.
        if isKnownUniquelyReferenced(&impl), !impl.session.hasOtherDecoders { cache.keep(impl) }
    }

    /// Readies a decoder of an earlier run (see ``DecodingThreadCache/decoder(node:format:options:)``).
    func begin(node: DecodingNode, options: DecodingOptions) {
        self.node = node
        self.options = options
        session.reopen()
    }

    /// Drops what refers to the finished run (the input, the user info), for a decoder kept for
    /// the thread's next run.
    func idle() {
        node = .tree(.nil)
        // `Dictionary()`, not `[:]`: the literal went through `Dictionary(dictionaryLiteral:)`,
        // about 30 instructions per run.
        options = DecodingOptions(userInfo: Dictionary(), maximumDepth: 0)
        pathParent = .root
        pathStep = nil
        depth = 0
        elementHint = nil
        opened = false
        countsOfRun = nil
    }

    /// The current value's coding path.
    var pathNode: CodingPathNode { pathParent.appending(pathStep) }

    var codingPath: [any CodingKey] { pathNode.path }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    /// Throws if the decoding run has returned (see ``DecodingSession/closedError(_:)``).
    @inline(__always)
    private func checkOpen() throws {
        if !session.isOpen { throw closed() }
    }

    @inline(never)
    private func closed() -> DecodingError { DecodingSession.closedError(pathNode.path) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkOpen()
        opened = true
        do { return try session.keyedContainer(Key.self, &node, impl: self, parent: pathParent, step: pathStep) } catch
        {
            throw decodingError(error, type, pathNode.path)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkOpen()
        opened = true
        let hint = elementHint
        elementHint = nil
        let view: DecodingNode.UnkeyedView
        do { view = try node.unkeyedView(format, elementHint: hint, cursors: session.cursors) } catch {
            throw decodingError(error, [Any].self, pathNode.path)
        }
        return TreeUnkeyedDecodingContainer(impl: self, view: view, path: pathNode)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try checkOpen()
        opened = true
        var n = node
        let content: DecodingNode?
        do { content = try n.singleValueContent(format, atRoot: pathNode.isEmpty) } catch {
            throw decodingError(error, Any.self, pathNode.path)
        }
        return TreeSingleValueDecodingContainer(impl: self, content: content, path: pathNode)
    }

    // MARK: Values

    /// Decodes one value from `node`: primitives, packed arrays, wrappers and optionals directly,
    /// anything else through `init(from:)` with this decoder pointed at `node`.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> T {
        let facts = typeFacts.entry(T.self)
        if facts.protobufSpecial, formatNeedsFacts, try isProtobufMap(T.self, node, parent: parent, step: step) {
            return try decodeProtobufMap(T.self, from: &node, parent: parent, step: step)
        }
        if let direct = facts.direct {
            return try decodeDirect(direct, T.self, from: &node, parent: parent, step: step)
        }
        if let array = facts.array {
            return try decodeElements(array, as: T.self, from: &node, parent: parent, step: step)
        }
        return try decodeWithInit(T.self, from: &node, parent: parent, step: step, generated: facts.generated)
    }

    /// For protobuf: whether `T` is a map it reads as entries; throws for a oneof read anywhere
    /// but from a message's fields (``ProtobufFormat``).
    @inline(never)
    private func isProtobufMap<T>(_ type: T.Type, _ node: DecodingNode, parent: CodingPathNode, step: PathStep?)
        throws -> Bool
    {
        let facts = ProtobufFormat.facts(T.self, direct: typeFacts.entry(T.self).direct)
        guard facts == .oneOf || facts == .optionalOneOf else { return facts == .map }
        if case .bytes(let b) = node, ProtobufFormat.isOneOf(b) { return false }
        let wire = WireFormatError(
            .typeMismatch, "\(T.self) is a oneof: it must be a property of a message", offset: node.byteOffset)
        throw decodingError(wire, T.self, parent.path(appending: step))
    }

    @inline(never)
    private func decodeProtobufMap<T>(
        _ type: T.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> T {
        guard let map = T.self as? any ProtobufMapDecodable.Type,
            let value = try map.decodeProtobufMap(from: &node, impl: self, parent: parent, step: step) as? T
        else { throw typeConfusion(T.self, parent: parent, step: step) }
        return value
    }

    /// Set when a oneof's container lists no member (an absent optional oneof).
    @exclusivity(unchecked) var oneOfFoundNoMember = false

    private func decodeDirect<D: DirectTreeDecodable, T>(
        _ direct: D.Type, _ type: T.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?
    ) throws -> T {
        let value: D
        do {
            value = try D.decodeDirect(from: &node, impl: self, parent: parent, step: step)
        } catch {
            throw decodingError(error, T.self, parent.path(appending: step))
        }
        return try sameType(value, as: T.self, parent: parent, step: step)
    }

    /// `value` as the `T` the caller asked for, which the conformance cache said it is.
    @inline(__always)
    func sameType<V, T>(_ value: V, as type: T.Type, parent: CodingPathNode, step: PathStep?) throws -> T {
        guard V.self == T.self else { throw typeConfusion(T.self, parent: parent, step: step) }
        return reinterpret(value, as: T.self)
    }

    /// The error of ``sameType(_:as:parent:step:)``, built out of line (its callers' frames stay
    /// on the stack while nested values decode).
    @inline(never)
    private func typeConfusion(_ type: Any.Type, parent: CodingPathNode, step: PathStep?) -> DecodingError {
        DecodingError.typeMismatch(
            type, .init(codingPath: parent.path(appending: step), debugDescription: "Internal type confusion."))
    }

    /// Throws if a level (``DepthGuard``) opened at `step` below `parent` would nest deeper than
    /// the maximum depth, or than the thread's stack holds.
    @inline(__always)
    func checkDepth(parent: CodingPathNode, step: PathStep?, node: DecodingNode) throws {
        guard admitsLevel(inside: depth, maximumDepth: options.maximumDepth) else {
            throw tooDeep(parent: parent, step: step, at: node.byteOffset)
        }
        guard stack.hasRoom() else { throw stackExhausted(parent: parent, step: step, at: node.byteOffset) }
    }

    /// Notes that the current value's keyed container is a protobuf message; throws past
    /// ``DecodingOptions/maximumMessages``.
    @inline(never)
    func enterMessage(at offset: Int) throws {
        messages = messagesOutside &+ 1
        guard messages > options.maximumMessages else { return }
        let limit = options.maximumMessages &- 1
        throw DecodingError.tooDeep(
            maximumDepth: limit, at: pathNode.path,
            underlyingError: WireFormatError(.limitExceeded, "messages nested deeper than \(limit)", offset: offset))
    }

    @inline(never)
    private func stackExhausted(parent: CodingPathNode, step: PathStep?, at offset: Int?) -> DecodingError {
        DecodingError.dataCorrupted(
            WireFormatError.stackExhausted(levels: depth, offset: offset).context(parent.path(appending: step)))
    }

    @inline(never)
    private func tooDeep(parent: CodingPathNode, step: PathStep?, at offset: Int?) -> DecodingError {
        DecodingError.tooDeep(
            maximumDepth: options.maximumDepth, at: parent.path(appending: step),
            underlyingError: WireFormatError(
                .limitExceeded, "maximum depth \(options.maximumDepth) exceeded", offset: offset))
    }

    /// Decodes one value through `init(from:)`, or through its `generated` code when it has some.
    func decodeWithInit<T: Decodable>(
        _ type: T.Type, from node: inout DecodingNode, parent: CodingPathNode, step: PathStep?,
        generated: (any GeneratedBinaryCodable.Type)? = nil
    ) throws -> T {
        try checkDepth(parent: parent, step: step, node: node)
        // The value's node, path and step are swapped in, and the saved ones back out, rather
        // than copied: a copy of each costs retains and releases, per value decoded.
        swap(&self.node, &node)
        var savedParent = parent
        swap(&self.pathParent, &savedParent)
        var savedStep = step
        swap(&self.pathStep, &savedStep)
        let savedOpened = self.opened
        let savedKeyedStates = session.keyedStatesInUse
        let savedMessagesOutside = messagesOutside
        messagesOutside = messages
        self.elementHint = elementHint(of: T.self)
        self.opened = false
        depth += 1
        defer {
            messages = messagesOutside
            messagesOutside = savedMessagesOutside
            swap(&self.node, &node)
            swap(&self.pathParent, &savedParent)
            swap(&self.pathStep, &savedStep)
            self.elementHint = nil
            self.opened = savedOpened
            session.popKeyedStates(to: savedKeyedStates)
            depth -= 1
        }
        if let generated { return try decodeGenerated(generated, as: T.self) }
        let value = try T(from: self)
        if !opened { try finishUnopened(T.self) }
        return value
    }

    /// A value of a type with generated code, read by ``GeneratedBinaryCodable/init(binaryFields:)``
    /// from the keyed container its `init(from:)` would ask for. Out of line: the reader would take
    /// room in ``decodeWithInit(_:from:parent:step:)``'s frame (one per level of a nested value).
    ///
    /// From v3 bytes, the reader reads the fields in place (``V3FieldCursor``) and the container
    /// is framed only if it must be; the entries it did not get to are framed once the type is
    /// done, so that what the framing rejects is rejected either way.
    @inline(never)
    private func decodeGenerated<G: GeneratedBinaryCodable, T>(_ type: G.Type, as: T.Type) throws -> T {
        try checkOpen()
        opened = true
        let state: KeyedContainerState
        let keys = typeFacts.generatedKeys.keys(of: G.self, forDecoding: true)
        let cursor = V3FieldCursor.on(node, format: format, keys: keys.v3Read)
        do {
            state = try session.keyedState(
                &node, keys: keys, impl: self, parent: pathParent, step: pathStep, defersFraming: cursor != nil)
        } catch {
            throw framingError(error, of: keys)
        }
        var fields = BinaryFieldReader(container: TreeKeyedDecodingContainer(state: state), keys: keys, cursor: cursor)
        let value = try sameType(G(binaryFields: &fields), as: T.self, parent: pathParent, step: pathStep)
        try fields.finish()
        return value
    }

    /// The error of framing the keyed container of the current value, a generated type's of
    /// `keys`: the field whose value could not be framed is named only when the type has it
    /// (``DecodingSession/namingOnlyKeys(_:isKey:)``).
    @inline(never)
    func framingError(_ error: any Error, of keys: GeneratedKeys) -> any Error {
        var error = error
        if let wire = error as? WireFormatError, wire.key != nil {
            error = DecodingSession.namingOnlyKeys(wire, isKey: keys.contains)
        }
        return decodingError(error, keys.type, pathNode.path)
    }

    /// The element type `T`'s unkeyed containers hold, when known in advance (SIMD vectors).
    /// Out of line, as what it needs would take room in ``decodeWithInit(_:from:parent:step:)``'s
    /// frame, which stays on the stack while the value decodes (one per level of a nested value).
    @inline(never)
    private func elementHint<T>(of type: T.Type) -> ScalarKind? {
        let facts = typeFacts.entry(T.self)
        if formatNeedsFacts { return facts.protobufNumbers ? ProtobufFormat.packedElements : nil }
        // A directly decoded type gets here only as the root of a stream element.
        return facts.direct == nil ? facts.elementHint : (T.self as? any ElementHinted.Type)?.elementHint
    }

    /// A type that reads nothing (an empty struct) still consumes its stored value.
    @inline(never)
    private func finishUnopened<T>(_ type: T.Type) throws {
        do { try node.finishUnopened(format) } catch { throw decodingError(error, T.self, pathNode.path) }
    }

    /// Turns a node-layer error into a `DecodingError` at `path`; `DecodingError`s pass through.
    @inline(never)
    func decodingError(_ error: any Error, _ type: Any.Type, _ path: @autoclosure () -> [any CodingKey])
        -> any Error
    {
        let wire: WireFormatError
        if let error = error as? WireFormatError {
            wire = error
        } else if let violation = error as? TreeRuleViolation {
            wire = WireFormatError(violation)
        } else if let protobuf = error as? ProtobufDecodingError {
            return DecodingError.typeMismatch(
                type,
                .init(codingPath: path(), debugDescription: "Protobuf: \(protobuf.reason)", underlyingError: protobuf))
        } else {
            return error
        }
        var codingPath = path()
        if let index = wire.earlierElement, codingPath.last?.intValue != nil {
            codingPath[codingPath.count - 1] = PathStep.index(index).codingKey
        }
        if let key = wire.key { codingPath.append(key) }
        let context = wire.context(codingPath)
        switch wire.code {
        case .typeMismatch: return DecodingError.typeMismatch(type, context)
        case .valueNotFound: return DecodingError.valueNotFound(type, context)
        default: return DecodingError.dataCorrupted(context)
        }
    }
}

/// `value` as a `T`, for a caller that has checked that `T` is exactly the type of `value`.
///
/// The generic code that reads a primitive knows only at run time that the type the caller asked
/// for is the one it read. A dynamic `as? T` would look up the metadata of `Optional<T>` for every
/// value (a hash-table search costing more than reading the value); comparing the two types and
/// reinterpreting the identical bits avoids it. Same type, same size: the cast cannot fail.
@inline(__always)
func reinterpret<V, T>(_ value: V, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
}

/// Types that open an unkeyed container of known element type (SIMD vectors).
protocol ElementHinted {
    static var elementHint: ScalarKind { get }
}

/// One decoding run. Byte views point into memory that is only valid while the run's top-level
/// call executes; once it returns, the session is closed, and a decoder or container the decoded
/// type kept throws instead of reading that memory.
final class DecodingSession {
    @exclusivity(unchecked) private var isClosed = false
    /// Whether decoders other than the run's own share the session (`superDecoder()`'s): then
    /// neither is reused for another run.
    @exclusivity(unchecked) var hasOtherDecoders = false
    /// The states of the session's keyed containers, for reuse from run to run. A constant: code
    /// reading a variable would retain and release it around each use, twice per value decoded.
    let keyedStates: KeyedStatePool
    /// Whether the run has ended: its containers' states are no longer handed out.
    @exclusivity(unchecked) private var hasEnded = false

    init(keyedStates: KeyedStatePool = KeyedStatePool()) {
        self.keyedStates = keyedStates
    }

    /// The run's pool of unkeyed containers' cursors; `nil` once the run has ended.
    var cursors: ByteCursorPool? { hasEnded ? nil : keyedStates.cursors }

    /// How many keyed container states values still being decoded hold.
    var keyedStatesInUse: Int { hasEnded ? 0 : keyedStates.inUse }

    /// Frees the keyed container states taken since `mark` (see ``KeyedStatePool/pop(to:)``).
    func popKeyedStates(to mark: Int) {
        if !hasEnded { keyedStates.pop(to: mark) }
    }

    /// Entry storage for a keyed container the caller reads itself (see
    /// ``KeyedStatePool/entries(_:)``), until ``popKeyedStates(to:)``; storage of its own once
    /// the run has ended.
    func keyedEntries(_ impl: TreeDecoderImpl) -> KeyedEntries {
        hasEnded ? KeyedEntries() : keyedStates.entries(impl)
    }

    /// A keyed container of `Key` opened on `node`.
    func keyedContainer<Key: CodingKey>(
        _ type: Key.Type, _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> KeyedDecodingContainer<Key> {
        do {
            if !hasEnded { return try keyedStates.container(Key.self, &node, impl: impl, parent: parent, step: step) }
            let state = try unpooledState(&node, impl: impl, parent: parent, step: step)
            return KeyedDecodingContainer(TreeKeyedDecodingContainer<Key>(state: state))
        } catch let error as WireFormatError where error.key != nil {
            throw Self.namingOnlyKeys(error) { key in
                key.intValue.map { Key(intValue: $0) != nil } ?? (Key(stringValue: key.stringValue) != nil)
            }
        }
    }

    /// A keyed container's state opened on `node`, for generated code reading `keys`; its
    /// errors are ``TreeDecoderImpl/framingError(_:of:)``'s to report.
    func keyedState(
        _ node: inout DecodingNode, keys: GeneratedKeys, impl: TreeDecoderImpl, parent: CodingPathNode,
        step: PathStep?, defersFraming: Bool
    ) throws -> KeyedContainerState {
        if !hasEnded {
            return try keyedStates.openState(
                &node, impl: impl, parent: parent, step: step, defersFraming: defersFraming)
        }
        return try unpooledState(&node, impl: impl, parent: parent, step: step, defersFraming: defersFraming)
    }

    /// The run has ended (a tree's container kept past it opens another): a state of its own, in
    /// no pool.
    private func unpooledState(
        _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?,
        defersFraming: Bool = false
    ) throws -> KeyedContainerState {
        let state = KeyedContainerState(impl: impl)
        try state.open(&node, impl: impl, parent: parent, step: step, defersFraming: defersFraming)
        return state
    }

    /// `error`, from framing a keyed container, naming the field whose value could not be framed
    /// only when the type has that key (`isKey`). Any other key is bytes read as a key where the
    /// framing had already gone astray (the tail of an over-long varint, say): no value of the
    /// type is there, and the error stays at the container's path, its offset saying where.
    @inline(never)
    static func namingOnlyKeys(_ error: WireFormatError, isKey: (BinaryKey) -> Bool) -> WireFormatError {
        guard let key = error.key, !isKey(key) else { return error }
        var anonymous = error
        anonymous.key = nil
        return anonymous
    }

    /// Ends the run's use of its keyed container states, which are emptied for the session's next
    /// run.
    func end() {
        if hasEnded { return }
        hasEnded = true
        keyedStates.endRun()
    }

    func close() { isClosed = true }

    /// Readies the session of a finished run for another.
    func reopen() {
        isClosed = false
        hasEnded = false
    }

    var isOpen: Bool { !isClosed }

    /// The error of a decoder or container used once the run has returned (``isOpen`` is
    /// false). Callers test ``isOpen`` in line: a check taking the path as a closure was not
    /// inlined, and cost a call and a retain of the session per field.
    @inline(never)
    static func closedError(_ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: path,
                debugDescription: """
                    A decoder or container was used after the decode call that created it returned; \
                    the input bytes are no longer available.
                    """))
    }
}
