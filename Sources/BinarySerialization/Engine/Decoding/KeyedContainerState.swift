/// What a keyed decoding container reads: its view, coding path and search position.
///
/// The container (``TreeKeyedDecodingContainer``) holds only a reference to this object. The
/// standard library's container box copies the container on every call it forwards, so one
/// reference costs one retain, where the view and path inline cost several, and their
/// destruction as much again.
///
/// A decoding run keeps these objects in a ``KeyedStatePool`` and reuses one once no container
/// refers to it any more, with the capacity of its entry storage and the standard library's box of
/// its last container (see ``KeyedStatePool``): opening a container allocates nothing.
final class KeyedContainerState {
    @exclusivity(unchecked) var impl: TreeDecoderImpl
    /// The container's coding path (see ``CodingPathNode/keyedContainer(_:)``).
    @exclusivity(unchecked) private var pathObject = ContainerPath()
    /// The view of a container that is not ``scanned`` (a tree's, a recording's, or a byte view
    /// with an index); closed otherwise (see ``currentView``).
    @exclusivity(unchecked) private var view: DecodingNode.KeyedView
    @exclusivity(unchecked) private var viewIsClosed = true
    /// Where the next search of the stored entries starts: after the last entry found.
    @exclusivity(unchecked) private var hint = 0
    /// The byte entries, kept from one use to the next.
    @exclusivity(unchecked) private var storage = KeyedEntries()
    /// For a byte view searched entry by entry (no index): its entries and input, so that a lookup
    /// reads them without copying a view (a retain and release, and an enum's copy and
    /// destruction, per lookup). Valid while ``storage`` holds them.
    @exclusivity(unchecked) private var scanned: UnsafeBufferPointer<ByteKeyedView.Entry>?
    @exclusivity(unchecked) private var input = UnsafeRawBufferPointer(start: nil, count: 0)
    /// For a recorded container searched entry by entry (``scanned``): where what is read from
    /// it is noted (`decodeTree`), and the slot of its first field there. (Not a
    /// `RecordingKeyedView`: testing an optional struct that holds references retains them.)
    @exclusivity(unchecked) private var recording: TreeRecording?
    @exclusivity(unchecked) private var firstSlot = 0
    /// For a format that needs type facts (protobuf): the node the container was opened on (a
    /// oneof's members are its fields), and the value every key reads in a oneof member's
    /// container.
    @exclusivity(unchecked) private(set) var openedNode: ByteNode?
    @exclusivity(unchecked) private(set) var memberValue: ByteNode?
    /// The bytes of a container opened unframed, for a reader that reads them in place until it
    /// asks for ``frameDeferred()`` (``BinaryFieldReader``); nothing else reads the state before.
    @exclusivity(unchecked) private var deferred: ByteNode?

    init(impl: TreeDecoderImpl) {
        self.impl = impl
        self.view = Self.closed
    }

    /// The container's coding path.
    var path: CodingPathNode { .keyedContainer(pathObject) }

    /// Runs `body` with the decoder and the container's path, read without counting (a retain and
    /// release of each per nested value): while a container holds this state, nothing replaces
    /// them (``open(_:impl:parent:step:)``, ``dropPath()`` and ``reset(to:)`` change only a state
    /// no container holds), and the state holds both.
    @inline(__always)
    func withDecoderAndPath<R>(_ body: (TreeDecoderImpl, CodingPathNode) throws -> R) rethrows -> R {
        try Unmanaged.passUnretained(impl)._withUnsafeGuaranteedRef { impl in
            try Unmanaged.passUnretained(pathObject)._withUnsafeGuaranteedRef { path in
                try body(impl, .keyedContainer(path))
            }
        }
    }

    /// Throws if the decoding run has returned (see ``DecodingSession/closedError(_:)``).
    @inline(__always)
    func checkOpen() throws {
        if !impl.session.isOpen { throw closed() }
    }

    @inline(never)
    private func closed() -> DecodingError { DecodingSession.closedError(path.path) }

    /// Opens the keyed container stored in `node`, at `step` below `parent`; with
    /// `defersFraming`, a byte node's entries are framed only by ``frameDeferred()``.
    func open(
        _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?,
        defersFraming: Bool = false
    ) throws {
        // Usually the decoder of the state's last use: then no retain and release.
        if self.impl !== impl { self.impl = impl }
        // A path node of the last use may still refer to the path: then it keeps it.
        if !isKnownUniquelyReferenced(&pathObject) { pathObject = ContainerPath() }
        setPath(parent: parent, step: step)
        hint = 0
        dropLastView()
        if case .bytes(var bytes) = node, let format = impl.format {
            if defersFraming {
                deferred = bytes
                return
            }
            // The common case, framed here: a `KeyedView` made and dropped would retain and
            // release the storage.
            try frame(&bytes, format)
            node = .bytes(bytes)
            return
        }
        let opened = try node.keyedView(impl.format, storage: storage)
        if case .bytes(let v) = opened, v.index == nil {
            scanned = storage.elements
            input = v.buffer
        } else if case .recording(let r) = opened, r.base.index == nil {
            // A recorded container is searched entry by entry too.
            scanned = storage.elements
            input = r.base.buffer
            recording = r.recording
            firstSlot = r.first
        } else {
            view = opened
            viewIsClosed = false
        }
    }

    /// Frames the entries of a container opened with `defersFraming`, as ``open(_:impl:parent:step:defersFraming:)``
    /// would have; nothing for any other.
    func frameDeferred() throws {
        guard var bytes = deferred, let format = impl.format else { return }
        deferred = nil
        try frame(&bytes, format)
    }

    /// Frames `node`'s entries and notes, for a format that needs it, the node framed.
    @inline(__always)
    private func frame(_ node: inout ByteNode, _ format: any ByteFormat.Type) throws {
        try openBytes(&node, format)
        if impl.formatNeedsFacts { try noteOpened(node) }
    }

    /// Notes the node the container was framed from (for protobuf, which may have merged it).
    @inline(never)
    private func noteOpened(_ node: ByteNode) throws {
        // Without its cursor, which a keyed read never uses: no count to keep, per message.
        openedNode = ByteNode(buffer: node.buffer, start: node.start, end: node.end, tag: node.tag, extra: node.extra)
        if let member = ProtobufFormat.memberValue(node) {
            memberValue = member
        } else {
            if memberValue != nil { memberValue = nil }
            if !ProtobufFormat.isOneOf(node) { try impl.enterMessage(at: node.start) }
        }
    }

    /// For a protobuf oneof's container: the number of the member set last among the stored
    /// fields whose numbers `isMember` accepts (its value restarted where the others cleared it);
    /// `nil` when none is stored. `known` gets the positions of every member stored.
    @inline(never)
    func oneOfMember(_ isMember: (Int) -> Bool) throws -> Int? {
        var members: [(position: Int, node: ByteNode)] = []
        for position in 0..<storage.count where isMember(storage[position].intKey) {
            members.append((position, storage[position].value))
        }
        guard let (position, start) = try ProtobufFormat.memberSetLast(members) else { return nil }
        storage.base[position].valueStart = start
        ProtobufReadLog.noteOneOf(members)
        return storage[position].intKey
    }

    /// Frames the entries of the keyed container `node` holds into ``storage``: searched entry by
    /// entry if small, through a view with an index if large.
    @inline(__always)
    private func openBytes(_ node: inout ByteNode, _ format: any ByteFormat.Type) throws {
        // The storage is read without counting: this state holds it, and nothing here replaces it.
        try Unmanaged.passUnretained(storage)._withUnsafeGuaranteedRef { storage in
            storage.removeAll()
            try format.keyedEntries(&node, into: storage)
            if let index = try ByteKeyedView.checkedIndex(storage.elements, node.buffer) {
                view = .bytes(ByteKeyedView(checked: node.buffer, entries: storage, index: index))
                viewIsClosed = false
            } else {
                scanned = storage.elements
                input = node.buffer
            }
        }
    }

    /// Sets the container's path, with the path object read without counting (this state holds
    /// it, and `set` replaces nothing but the path's fields).
    @inline(__always)
    private func setPath(parent: CodingPathNode, step: PathStep?) {
        Unmanaged.passUnretained(pathObject)._withUnsafeGuaranteedRef { $0.set(parent: parent, step: step) }
    }

    /// The container's view (made for a scanned byte view, which keeps none).
    var currentView: DecodingNode.KeyedView {
        if let recorder { return .recording(recorder) }
        if scanned != nil { return .bytes(ByteKeyedView(checked: input, entries: storage)) }
        return view
    }

    /// The recording view of a recorded container searched entry by entry.
    private var recorder: RecordingKeyedView? {
        guard let recording else { return nil }
        return RecordingKeyedView(
            base: ByteKeyedView(checked: input, entries: storage), recording: recording, first: firstSlot)
    }

    private func closeView() {
        if viewIsClosed { return }
        view = Self.closed
        viewIsClosed = true
    }

    /// The state's entry storage, emptied of its last container, for a view a caller frames and
    /// reads itself (a dictionary's entries). The state must be free (no container holds it), so
    /// only its own closed view referred to the storage, and a recording copies the entries it
    /// records; new storage all the same if anything else still refers to it.
    func entriesForView() -> KeyedEntries {
        dropLastView()
        return storage
    }

    /// Forgets the last container's scan, view and recording. A view of the last use may still
    /// refer to `storage` (a container kept past its value, or a view a caller copied): then the
    /// next entries go to new storage.
    @inline(__always)
    private func dropLastView() {
        scanned = nil
        deferred = nil
        if recording != nil { recording = nil }
        closeView()
        if !isKnownUniquelyReferenced(&storage) { storage = KeyedEntries() }
    }

    /// Drops the container's path once no container holds the state: it refers to the parent's
    /// path, which would otherwise look held and not be reused. (A path someone kept stays as it
    /// is.)
    func dropPath() {
        if isKnownUniquelyReferenced(&pathObject) { setPath(parent: .root, step: nil) }
    }

    /// Drops what refers to a finished run (its decoder, path, a tree's view and a recording),
    /// keeping the storage (its entries point into the run's input, which nothing reads before the
    /// next ``open(_:impl:parent:step:)`` frames new ones).
    func reset(to idle: TreeDecoderImpl) {
        impl = idle
        openedNode = nil
        memberValue = nil
        deferred = nil
        dropPath()
        closeView()
        recording = nil
        if storage.capacity > RetentionLimits.entriesPerLevel { storage = KeyedEntries() }
    }

    private static var closed: DecodingNode.KeyedView { .tree(TreeKeyedView(fields: KeyedFields())) }

    /// The value node for `key`, or `nil` when absent.
    @inline(__always)
    func node(forKey key: some CodingKey) -> DecodingNode? {
        if scanned != nil {
            if recording != nil { return recordedNode(forKey: key) }
            return scannedNode(forKey: key).map { .bytes($0) }
        }
        return view.node(forKey: key, hint: &hint)
    }

    /// The format of a byte view searched entry by entry, `nil` for any other view; with it, a
    /// primitive is read from ``scannedNode(forKey:)`` (or ``recordedLeaf(_:forKey:nilIsAbsent:)``)
    /// without wrapping it in a `DecodingNode`.
    var scannedFormat: (any ByteFormat.Type)? { scanned == nil ? nil : impl.format }

    /// Whether the container searched entry by entry is recorded: its primitives are read
    /// through ``recordedLeaf(_:forKey:nilIsAbsent:)``.
    var isRecorded: Bool { recording != nil }

    /// The stored node of `key` in a byte view searched entry by entry, `nil` when absent (or
    /// when the view is not one).
    @inline(__always)
    func scannedNode(forKey key: some CodingKey) -> ByteNode? {
        guard let scanned, let p = ByteKeyedView.position(key, in: scanned, input, hint: hint) else { return nil }
        hint = p + 1
        return scanned[p].value
    }

    /// `key`'s node in a recorded container searched entry by entry, wrapped so that what is read
    /// from it is recorded.
    @inline(never)
    private func recordedNode(forKey key: some CodingKey) -> DecodingNode? {
        guard let scanned, let recorder, let p = ByteKeyedView.position(key, in: scanned, input, hint: hint) else {
            return nil
        }
        hint = p + 1
        // `recorded` notes the key.
        return recorder.recorded(scanned[p].value, at: p, forKey: BinaryKey(key))
    }

    /// The primitive of `kind` stored for `key` in a recorded container searched entry by entry,
    /// as a leaf, recorded; `nil` when the key is absent, or (with `nilIsAbsent`) holds nil.
    /// (Not generic over the primitive: out of line, that would run unspecialized.)
    @inline(never)
    func recordedLeaf(_ kind: ScalarKind, forKey key: some CodingKey, nilIsAbsent: Bool) throws -> BinaryValue? {
        guard let scanned, let recording, let p = ByteKeyedView.position(key, in: scanned, input, hint: hint) else {
            return nil
        }
        hint = p + 1
        let format = try DecodingNode.requireFormat(impl.format)
        var node = scanned[p].value
        let slot = firstSlot + p
        let leaf: BinaryValue
        do {
            if nilIsAbsent, format.isNil(node) {
                recording.noteKey(BinaryKey(key), slot: slot)
                return nil
            }
            leaf = try format.decodeScalar(&node, kind)
        } catch {
            // The key is noted as asked for even when its value is bad (a type may go on).
            recording.noteKey(BinaryKey(key), slot: slot)
            throw error
        }
        // Key and leaf in one update of the slot: one access to the slots, not two.
        recording.record(.leaf(leaf), slot: slot, key: BinaryKey(key))
        return leaf
    }
}
