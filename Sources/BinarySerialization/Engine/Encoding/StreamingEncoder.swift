/// Encodes a value straight into an ``EncodingSink``, without building the tree.
///
/// It hands `encode(to:)` the same containers as ``TreeEncoder`` and sends the nodes that encoder
/// would build, in order. That is only possible while containers are used one at a time, innermost
/// first, which is how synthesized and almost all hand-written code uses them. Anything else
/// (a container written after a sibling was started, a key written twice, mixing container kinds,
/// a write after the value was finished, a value too deep, any thrown error) makes the run give
/// up: ``encode(_:options:)`` returns `false` and the caller encodes through the tree, which
/// handles every case (or reports the error). So the streamed bytes, when there are any, are the
/// tree's bytes; the only cost of giving up is running `encode(to:)` a second time.
///
/// Containers are closed lazily: a nested container stays open until its parent is written to
/// again or finished, as the tree encoder folds pending children in when the parent finishes.
final class StreamingEncoder {
    let sink: any EncodingSink
    /// The sink's ``EncodingSink/needsTypeFacts``, asked once.
    let needsTypeFacts: Bool
    /// The sink, if it takes generated types' primitive fields in one call, and as its own type.
    let directFieldSink: (any DirectFieldSink)?
    let v3FieldSink: V3Sink?
    let v2FieldSink: V2Sink?
    let protobufFieldSink: ProtobufSink?
    @exclusivity(unchecked) private(set) var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    @exclusivity(unchecked) private(set) var maximumDepth = 0
    /// The open containers and encoders, outermost first. Ids grow along the stack and are never
    /// reused, not even by a later run.
    @exclusivity(unchecked) var frames: [Frame] = []
    /// The keys written so far in open keyed containers (each frame owns a suffix).
    @exclusivity(unchecked) var keys: [BinaryKey] = []
    @exclusivity(unchecked) var nextID = 1
    /// How each type is sent (``StreamFact``), kept from run to run (an engine serves one thread).
    @exclusivity(unchecked) private var streamFacts = TypeFactCache<StreamFact>()
    /// The keys of the types with generated code this engine encoded.
    @exclusivity(unchecked) private var generatedKeys = TypeFactCache<GeneratedKeys>()
    /// The box of the last keyed container handed out for each frame index, to be handed out
    /// again (see ``ContainerBoxes``). The boxes refer to the engine: its owner calls
    /// ``releaseContainerBoxes()`` when done with it.
    @exclusivity(unchecked) private var keyedBoxes: [KeptBox?] = []
    /// Boxes of other key types kept for each frame index.
    @exclusivity(unchecked) private var spareBoxes: [SpareBoxes<KeptBox>] = []
    /// The frame id objects of generated values, one per frame index (see ``generatedFrame(_:)``).
    @exclusivity(unchecked) private var generatedFrames: [FrameID] = []
    private let reusesBoxes = ContainerBoxes.reusesBoxes
    /// Set by the first thing this run cannot stream; every later call returns at once.
    @exclusivity(unchecked) private(set) var gaveUp = false
    @exclusivity(unchecked) private var thrownError: (any Error)?

    /// What an open frame is.
    enum State {
        /// The root: holds the value, is never a container.
        case holder
        /// An encoder handed to `encode(to:)` that has not asked for a container yet.
        case encoder
        case keyed
        case unkeyed
        /// A single-value container was asked for; nothing encoded yet.
        case singleRequested
        /// A single-value container that holds its value.
        case singleDone
    }

    /// An open container or encoder. `state` follows `step` to sit in its padding: at 88 bytes a
    /// frame's offset is one multiply, and frames are indexed several times per value.
    struct Frame {
        let id: Int
        /// The step from the enclosing frame (for `codingPath`).
        let step: PathStep?
        var state: State
        /// The levels (``DepthGuard``) enclosing the values encoded in this frame: its owner
        /// encoder's, its own value included (a nested container is no level of its own).
        let depth: Int
        /// Elements of an unkeyed container.
        var count = 0
        /// The integer keys from 0 to 63 written so far, one bit each: exact, so these keys are
        /// checked and noted without going to `keys` (most synthesized integer `CodingKeys`).
        var smallIntKeys: UInt64 = 0
        /// One bit per key hash for the other keys: a clear bit proves a key is new.
        var keyFilter: UInt64 = 0
        /// Where this frame's keys start in `keys`.
        let keyStart: Int
        /// The keys of a large keyed container, for O(1) duplicate checks.
        var keySet: Set<BinaryKey>?
    }

    /// Thrown to unwind a run that gave up; never leaves ``encode(_:options:)``.
    struct GaveUp: Error {}

    /// An encoder that sends to `sink`; it can run many times, one run at a time.
    init(sink: any EncodingSink) {
        self.sink = sink
        needsTypeFacts = sink.needsTypeFacts
        v3FieldSink = needsTypeFacts ? nil : sink as? V3Sink
        v2FieldSink = needsTypeFacts ? nil : sink as? V2Sink
        protobufFieldSink = sink as? ProtobufSink
        directFieldSink = v3FieldSink ?? v2FieldSink ?? protobufFieldSink
        frames.reserveCapacity(16)
        keys.reserveCapacity(16)
    }

    /// Streams `value` into the sink. Returns `false` when the run gave up (nothing the sink
    /// received is usable then); errors thrown by `encode(to:)` also give `false`, so that the
    /// tree encoder reports them with its coding paths.
    ///
    /// The frame and key stacks keep their memory from run to run, and so do the answers of the
    /// conformance check (a type's conformances do not change while the process runs).
    ///
    /// With `throughEncodable`, the root value is encoded by its own `encode(to:)` even when it is
    /// a primitive, array or optional, as ``TreeEncoder`` does for v3 stream elements.
    func encode<T: Encodable>(_ value: T, options encoder: TreeEncoder, throughEncodable: Bool = false) -> Bool {
        userInfo = encoder.userInfo
        maximumDepth = encoder.maximumDepth
        // Element by element: `removeAll(keepingCapacity:)` costs more for the few left here.
        while !frames.isEmpty { frames.removeLast() }
        while !keys.isEmpty { keys.removeLast() }
        gaveUp = false
        thrownError = nil
        // `nextID` goes on counting, for the root too: a container kept from an earlier run (or
        // handed out as id 0 after giving up) never names a frame of this run.
        let rootID = nextID
        nextID &+= 1
        frames.append(
            Frame(id: rootID, step: nil, state: .holder, depth: 0, keyStart: 0))
        // Do not keep the caller's objects alive between runs (`Dictionary()`: the literal `[:]`
        // costs a call), nor what a deep or wide run made the stacks grow to.
        defer {
            userInfo = Dictionary()
            if frames.capacity > RetentionLimits.levels || keys.capacity > RetentionLimits.levels { trim() }
        }
        do {
            if throughEncodable {
                try encodeWithChild(value, step: nil, in: 0)
            } else {
                try encodeValue(value, step: nil, in: 0)
            }
        } catch {
            if !gaveUp, !(error is GaveUp) { thrownError = error }
            return false
        }
        return activate(rootID) != nil && !gaveUp
    }

    /// The error the last run's `encode(to:)` threw, if that is why it returned `false`; taken
    /// (the engine does not keep the caller's objects between runs).
    func takeThrownError() -> (any Error)? {
        defer { thrownError = nil }
        return thrownError
    }

    // MARK: Keyed containers

    /// A keyed container's frame id; see ``StreamingKeyedContainer/frame``.
    final class FrameID {
        @exclusivity(unchecked) var id: Int

        init(_ id: Int) {
            self.id = id
        }
    }

    /// The box of a keyed container handed out, its key type and its frame id. (A class:
    /// `isKnownUniquelyReferenced` on an `AnyObject` in an array element answered no even when it
    /// was the only reference. And an optional: on a non-optional `AnyObject` property it
    /// answered no in debug builds too, and no box was reused.)
    private final class KeptBox {
        let key: ObjectIdentifier
        @exclusivity(unchecked) var box: AnyObject?
        /// Rebuilds the box's wrapper (``ContainerBoxes/encodingRebuilder(_:)`` for `key`).
        let rebuilder: AnyObject
        let frame: FrameID

        init<Key: CodingKey>(_ container: KeyedEncodingContainer<Key>, frame: FrameID) {
            key = ObjectIdentifier(Key.self)
            box = ContainerBoxes.box(of: container)
            rebuilder = ContainerBoxes.encodingRebuilder(Key.self)
            self.frame = frame
        }
    }

    /// A keyed container of `Key` writing to frame `id`, the innermost (0 after giving up): the
    /// box of a container handed out before for a frame at this index if it was of `Key` and
    /// nothing holds it any more (the last one, else a spare), else a new one, kept for the next.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, id: Int) -> KeyedEncodingContainer<Key> {
        let index = frames.count &- 1
        guard id != 0, index >= 0, frames[index].id == id else {
            return KeyedEncodingContainer(StreamingKeyedContainer<Key>(engine: self, frame: FrameID(id)))
        }
        if index < keyedBoxes.count, let kept = keyedBoxes[index] {
            if kept.key == ObjectIdentifier(Key.self), isKnownUniquelyReferenced(&kept.box), let box = kept.box {
                kept.frame.id = id
                return ContainerBoxes.encoding(box, kept.rebuilder, Key.self)
            }
            if let spare = takeSpareBox(at: index, ObjectIdentifier(Key.self)), let box = spare.box {
                spare.frame.id = id
                return ContainerBoxes.encoding(box, spare.rebuilder, Key.self)
            }
        }
        let frame = FrameID(id)
        let container = KeyedEncodingContainer(StreamingKeyedContainer<Key>(engine: self, frame: frame))
        if reusesBoxes { keep(KeptBox(container, frame: frame), at: index) }
        return container
    }

    /// A free spare box of `key` at frame index `index`, made the index's last box (the last one
    /// taking its place among the spares); `nil` if there is none. Not generic: out of line, it
    /// looks nothing up.
    @inline(never)
    private func takeSpareBox(at index: Int, _ key: ObjectIdentifier) -> KeptBox? {
        guard index < spareBoxes.count,
            let (j, spare) = spareBoxes[index].first(where: { $0.key == key && isKnownUniquelyReferenced(&$0.box) })
        else { return nil }
        spareBoxes[index].replace(at: j, with: keyedBoxes[index])
        keyedBoxes[index] = spare
        return spare
    }

    /// Makes `kept` the last box of frame index `index`, the one before it the first spare.
    @inline(never)
    private func keep(_ kept: KeptBox, at index: Int) {
        while keyedBoxes.count <= index { keyedBoxes.append(nil) }
        if let last = keyedBoxes[index] {
            while spareBoxes.count <= index { spareBoxes.append(SpareBoxes()) }
            spareBoxes[index].keep(last)
        }
        keyedBoxes[index] = kept
    }

    /// Gives back what a deep or wide run made the stacks and kept boxes grow to: the work is the
    /// levels past ``RetentionLimits/levels``, which only such a run adds. Boxes are kept one per
    /// frame index, so they grow only with `frames`.
    @inline(never)
    private func trim() {
        frames.releaseStorage(beyond: RetentionLimits.levels)
        keys.releaseStorage(beyond: RetentionLimits.levels)
        if keyedBoxes.count > RetentionLimits.levels {
            keyedBoxes.removeLast(keyedBoxes.count - RetentionLimits.levels)
        }
        if spareBoxes.count > RetentionLimits.levels {
            spareBoxes.removeLast(spareBoxes.count - RetentionLimits.levels)
        }
        if generatedFrames.count > RetentionLimits.levels {
            generatedFrames.removeLast(generatedFrames.count - RetentionLimits.levels)
        }
    }

    /// Lets go of the kept boxes, which refer to the engine (a cycle otherwise).
    func releaseContainerBoxes() {
        keyedBoxes = []
        spareBoxes = []
    }

    // MARK: Giving up

    /// Gives up the run; the returned error unwinds a throwing call.
    @inline(never)
    @discardableResult
    func giveUp() -> GaveUp {
        gaveUp = true
        return GaveUp()
    }

    // MARK: Frames

    /// Makes frame `id` the innermost open frame, closing the frames opened inside it, and
    /// returns its index; `nil` (and the run gives up) if the frame is closed already.
    @inline(__always)
    func activate(_ id: Int) -> Int? {
        if gaveUp { return nil }
        let top = frames.count &- 1
        if top >= 0, frames[top].id == id { return top }
        return activateSlow(id)
    }

    @inline(never)
    private func activateSlow(_ id: Int) -> Int? {
        guard let index = frames.lastIndex(where: { $0.id == id }) else {
            giveUp()
            return nil
        }
        while frames.count &- 1 > index, !gaveUp { closeTop() }
        return gaveUp ? nil : index
    }

    /// Opens a frame inside frame `parent` (the innermost one) and returns its id: the frame of a
    /// new level when given its `depth`, else a nested container of the parent's level. A keyed or
    /// unkeyed frame is a node the sink has begun (every frame in those states is one).
    func push(_ state: State, step: PathStep?, in parent: Int, depth: Int? = nil) -> Int {
        let id = nextID
        nextID &+= 1
        frames.append(
            Frame(id: id, step: step, state: state, depth: depth ?? frames[parent].depth, keyStart: keys.count))
        return id
    }

    /// Closes the innermost frame: ends its node in the sink, or sends the node an encoder
    /// that asked for nothing stands for (an empty keyed container).
    func closeTop() {
        guard let frame = frames.popLast() else { return }
        while keys.count > frame.keyStart { keys.removeLast() }
        switch frame.state {
        case .holder, .singleDone:
            break
        case .encoder:
            sink.value(.emptyKeyed)
        case .singleRequested:
            // The tree encoder reports a single-value container without a value.
            giveUp()
        case .keyed, .unkeyed:
            sink.end()
        }
    }

    // MARK: Values

    /// How a type's values are sent: directly, through generated code, or by `encode(to:)`.
    /// (Metatypes only: reading a fact costs no retain.)
    enum StreamFact {
        case direct(any DirectStreamEncodable.Type)
        case generated(any GeneratedBinaryCodable.Type)
        case encodable
    }

    /// Sends `value`'s nodes; frame `parent` is the innermost open frame.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, step: PathStep?, in parent: Int) throws {
        switch streamFact(T.self) {
        case .direct(let direct): try streamDirect(direct, value, step: step, in: parent)
        case .generated(let generated):
            try encodeGenerated(generated, value, step: step, in: parent)
        case .encodable: try encodeWithChild(value, step: step, in: parent)
        }
    }

    @inline(__always)
    private func streamFact<T>(_ type: T.Type) -> StreamFact {
        if let known = streamFacts.fact(for: ObjectIdentifier(T.self)) { return known }
        return learnStreamFact(T.self)
    }

    @inline(never)
    private func learnStreamFact<T>(_ type: T.Type) -> StreamFact {
        let fact = streamFactOfType(T.self)
        if RetentionLimits.reuses { streamFacts.remember(fact, for: ObjectIdentifier(T.self)) }
        return fact
    }

    private func streamFactOfType<T>(_ type: T.Type) -> StreamFact {
        var direct = T.self as? any DirectStreamEncodable.Type
        if direct == nil, needsTypeFacts {
            // What a sink that needs type facts must hear of before `encode(to:)` runs.
            if T.self is any ProtobufOneOf.Type {
                direct = OneOfFact.self
            } else if T.self is any UnorderedCollection.Type {
                direct = UnorderedFact.self
            } else if T.self is any ProtobufMapEntryMarker.Type {
                direct = MapEntryFact.self
            }
        }
        if let direct { return .direct(direct) }
        if let generated = T.self as? any GeneratedBinaryCodable.Type { return .generated(generated) }
        return .encodable
    }

    private func streamDirect<D: DirectStreamEncodable, T: Encodable>(
        _ type: D.Type, _ value: T, step: PathStep?, in parent: Int
    ) throws {
        guard T.self == D.self else {
            // The facts of a type that is not itself direct (see `streamFactOfType`).
            if D.self == OneOfFact.self {
                sink.note(.oneOf)
                return try encodeWithChild(value, step: step, in: parent)
            }
            if D.self == MapEntryFact.self {
                sink.note(.mapEntry)
                return try encodeWithChild(value, step: step, in: parent)
            }
            // A set or dictionary: sent in the order the sink needs.
            guard let unordered = value as? any UnorderedCollection else { throw giveUp() }
            return try encodeValue(unordered.orderedForm, step: step, in: parent)
        }
        try reinterpret(value, as: D.self).stream(into: self, step: step, in: parent)
    }

    /// Sends a value of a type with generated code: the keyed container its `encode(to:)` would
    /// ask for, written by ``GeneratedBinaryCodable/encodeBinaryFields(to:)``.
    private func encodeGenerated<G: GeneratedBinaryCodable, T: Encodable>(
        _ type: G.Type, _ value: T, step: PathStep?, in parent: Int
    ) throws {
        guard T.self == G.self else { throw giveUp() }
        let id = try openLevel(.keyed, step: step, in: parent)
        var fields = BinaryFieldWriter(
            container: StreamingKeyedContainer(engine: self, frame: generatedFrame(id)),
            keys: generatedKeys.keys(of: G.self, directSink: directFieldSink))
        try reinterpret(value, as: G.self).encodeBinaryFields(to: &fields)
        try closeLevel(id)
    }

    /// Sends an array of a type with generated code as `Array.encode(to:)` through this engine
    /// does (an unkeyed level, each element at its index), without the `Encoder` and container
    /// existentials.
    func encodeGeneratedArray<G: GeneratedBinaryCodable>(_ elements: [G], step: PathStep?, in parent: Int) throws {
        let id = try openLevel(.unkeyed, step: step, in: parent)
        for element in elements {
            guard let index = activate(id) else { throw giveUp() }
            let position = frames[index].count
            frames[index].count = position &+ 1
            try encodeValue(element, step: .index(position), in: index)
        }
        try closeLevel(id)
    }

    /// The id object of frame `id`, the innermost, for a generated value's writer. One per frame
    /// index, reused without a check: the writer is not copyable, so it and its container end with
    /// the value's `encodeBinaryFields(to:)`, before another value at this index starts.
    @inline(__always)
    private func generatedFrame(_ id: Int) -> FrameID {
        let index = frames.count &- 1
        if index < generatedFrames.count {
            generatedFrames[index].id = id
            return generatedFrames[index]
        }
        return newGeneratedFrame(id, at: index)
    }

    @inline(never)
    private func newGeneratedFrame(_ id: Int, at index: Int) -> FrameID {
        guard RetentionLimits.reuses, index >= 0 else { return FrameID(id) }
        while generatedFrames.count <= index { generatedFrames.append(FrameID(0)) }
        generatedFrames[index].id = id
        return generatedFrames[index]
    }

    /// Opens the keyed or unkeyed container of a new level inside frame `parent` (the innermost),
    /// as a value's `encode(to:)` asking for one does; returns its frame id.
    @inline(__always)
    private func openLevel(_ state: State, step: PathStep?, in parent: Int) throws -> Int {
        let depth = frames[parent].depth
        guard admitsLevel(inside: depth, maximumDepth: maximumDepth) else { throw giveUp() }
        let id = push(state, step: step, in: parent, depth: depth &+ 1)
        sink.begin(state == .keyed ? .keyed : .unkeyed)
        return id
    }

    /// Closes the frame ``openLevel(_:step:in:)`` opened, and whatever is still open inside it.
    @inline(__always)
    private func closeLevel(_ id: Int) throws {
        guard activate(id) != nil else { throw giveUp() }
        closeTop()
        if gaveUp { throw GaveUp() }
    }

    func encodeWithChild<T: Encodable>(_ value: T, step: PathStep?, in parent: Int) throws {
        let depth = frames[parent].depth
        guard admitsLevel(inside: depth, maximumDepth: maximumDepth) else { throw giveUp() }
        let id = push(.encoder, step: step, in: parent, depth: depth &+ 1)
        try value.encode(to: StreamingEncoderHandle(engine: self, id: id))
        guard activate(id) != nil else { throw giveUp() }
        closeTop()
        if gaveUp { throw GaveUp() }
    }

    /// Sends `node` whole.
    @inline(__always)
    func send(_ node: BinaryValue) {
        sink.value(node)
    }

    /// Sends `.optional(.some(wrapped))` or `.single(value)` as bracketed content.
    func sendWrapped<T: Encodable>(_ kind: SinkNodeKind, _ value: T, step: PathStep?, in parent: Int) throws {
        sink.begin(kind)
        try encodeValue(value, step: step, in: parent)
        sink.end()
    }

    // MARK: Keys

    /// Records `key` as written in keyed frame `index`; gives up on a key written twice (the tree
    /// encoder replaces the first value in place, or reports two keys with one integer value).
    @inline(__always)
    func noteKey(_ key: BinaryKey, in index: Int) -> Bool {
        if let i = key.intValue, i >= 0, i < 64 {
            // A key equals another only by its integer (see `BinaryKey.==`): the bit says it all.
            let bit: UInt64 = 1 &<< UInt64(i)
            if frames[index].smallIntKeys & bit != 0 {
                giveUp()
                return false
            }
            frames[index].smallIntKeys |= bit
            return true
        }
        let bit = key.filterBit
        if frames[index].keyFilter & bit != 0 || frames[index].keySet != nil {
            return noteKeySlow(key, in: index)
        }
        frames[index].keyFilter |= bit
        keys.append(key)
        return true
    }

    @inline(never)
    private func noteKeySlow(_ key: BinaryKey, in index: Int) -> Bool {
        if frames[index].keySet != nil {
            guard frames[index].keySet?.insert(key).inserted == true else {
                giveUp()
                return false
            }
            return true
        }
        let start = frames[index].keyStart
        if keys[start...].contains(key) {
            giveUp()
            return false
        }
        keys.append(key)
        frames[index].keyFilter |= key.filterBit
        if keys.count &- start > KeyLookup.scanLimit {
            frames[index].keySet = Set(keys[start...])
            while keys.count > start { keys.removeLast() }
        }
        return true
    }

    // MARK: Paths

    /// The coding path of frame `id`; gives up if the frame is closed (the tree encoder keeps
    /// every container's path, this run cannot).
    func codingPath(of id: Int) -> [any CodingKey] {
        guard let index = frames.lastIndex(where: { $0.id == id }) else {
            giveUp()
            return []
        }
        var path: [any CodingKey] = []
        for frame in frames[...index] {
            if let step = frame.step { path.append(step.codingKey) }
        }
        return path
    }
}

/// The `Encoder` handed to `encode(to:)` by ``StreamingEncoder``: the engine and a frame id.
struct StreamingEncoderHandle: Encoder {
    let engine: StreamingEncoder
    let id: Int

    var codingPath: [any CodingKey] { engine.codingPath(of: id) }
    var userInfo: [CodingUserInfoKey: Any] { engine.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        engine.keyedContainer(Key.self, id: request(.keyed))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamingUnkeyedContainer(engine: engine, id: request(.unkeyed))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamingSingleValueContainer(engine: engine, id: request(.singleRequested))
    }

    /// Turns this encoder's frame into a container of the requested kind; asking again for the
    /// same kind gives the same container. Returns the frame id, or 0 (never open) after giving up.
    private func request(_ kind: StreamingEncoder.State) -> Int {
        guard let index = engine.activate(id) else { return 0 }
        switch (engine.frames[index].state, kind) {
        case (.encoder, .keyed):
            engine.frames[index].state = .keyed
            engine.sink.begin(.keyed)
        case (.encoder, .unkeyed):
            engine.frames[index].state = .unkeyed
            engine.sink.begin(.unkeyed)
        case (.encoder, .singleRequested):
            engine.frames[index].state = .singleRequested
        case (.keyed, .keyed), (.unkeyed, .unkeyed), (.singleRequested, .singleRequested),
            (.singleDone, .singleRequested):
            break
        default:
            // Mixing container kinds: the tree encoder reports the misuse.
            engine.giveUp()
            return 0
        }
        return id
    }
}
