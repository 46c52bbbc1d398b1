/// A recording that keeps nothing: what the type reads is sent to a sink while it reads it, as
/// the events ``TreeRecording/send(to:)`` would send for the whole recording afterwards. A
/// transcoder writes the target bytes this way without recording the value first.
///
/// The events must come out in stored order, so the stream follows the containers the type has
/// open (``top``, the innermost, and ``outer``): reading a field closes the containers opened inside the
/// fields before it, and a field of a keyed container must come after the last one read there
/// (fields in between that the type skips are sent as ``TreeRecording/forEachField(_:_:)``
/// sends fields not read). That is how types read, almost always. Anything else (a field read
/// out of order or twice, a container read again after a later one, a single-value container or
/// optional holding a container, an error) fails the stream: from then on it sends nothing, and the caller
/// records the value instead (``failed``).
package final class RecordingStream {
    let sink: any EncodingSink
    let format: any ByteFormat.Type
    /// Whether the format keeps fields not read (``ByteFormat/keepsUnreadValues``): only then
    /// are a keyed container's entries kept while it is open.
    private let keepsUnreadValues: Bool
    /// Set by the first thing the stream cannot send in order; the sink's bytes are then not
    /// the value's.
    @exclusivity(unchecked) package private(set) var failed = false

    enum Kind {
        case root, keyed, unkeyed
        /// A single-value container's or an optional's content, sent whole with its leaf
        /// (``TreeRecording/send(to:)`` sends these whole).
        case single, optional
    }

    /// An open container (or the root), and what of it has been sent.
    struct Frame {
        /// Nodes of this container carry it as their slot index (``RecordSlot/index``).
        let id: Int
        let kind: Kind
        let buffer: UnsafeRawBufferPointer
        /// A keyed container's entries, from here in ``entries``.
        let entryStart: Int
        let count: Int
        /// The first stored position not sent yet (keyed).
        var next = 0
        /// The position handed out as a node and not sent yet (keyed), or 0 for an element
        /// or root handed out and not sent yet; -1 for none.
        var pending: Int
        /// Whether the field at ``pending`` is stored as nil (keyed).
        var pendingIsNil = false
    }

    // One decoding run, one thread, and no access stays open across a call out.
    /// The innermost open container (or the root), in a field of its own: nearly every event is
    /// about it.
    @exclusivity(unchecked) private var top: Frame
    /// The key the type asked for at `top.pending` (keyed).
    @exclusivity(unchecked) private var topKey: BinaryKey?
    /// The containers around ``top``, outermost first, and their pending keys.
    @exclusivity(unchecked) private var outer: [(frame: Frame, key: BinaryKey?)] = []
    /// The entries of the open keyed containers, each container's after its parent's.
    @exclusivity(unchecked) private var entries: [ByteKeyedView.Entry] = []
    @exclusivity(unchecked) private var nextID = 1

    /// The id of the root (its node's slot index).
    static let rootID = 0

    /// The root's frame, its value not sent yet.
    private static var rootFrame: Frame {
        Frame(
            id: rootID, kind: .root, buffer: UnsafeRawBufferPointer(start: nil, count: 0), entryStart: 0, count: 0,
            pending: 0)
    }

    package init(sink: any EncodingSink, format: any ByteFormat.Type) {
        self.sink = sink
        self.format = format
        keepsUnreadValues = format.keepsUnreadValues
        top = Self.rootFrame
        outer.reserveCapacity(16)
    }

    /// Empties the stream for another run (``DecodingThreadCache`` keeps one), keeping its
    /// storage unless a deep or wide value made it large.
    func reset() {
        failed = false
        top = Self.rootFrame
        topKey = nil
        if outer.capacity > 1024 { outer = [] } else { outer.removeAll(keepingCapacity: true) }
        if entries.capacity > 4096 { entries = [] } else { entries.removeAll(keepingCapacity: true) }
        nextID = 1
    }

    @inline(never)
    func fail() {
        failed = true
    }

    // MARK: Events from the decoder

    /// The value of the node of `id` is the leaf `value`.
    func leaf(_ id: Int, _ value: BinaryValue) {
        send(id, value) { $0.value(value) }
    }

    /// The value of the node of `id` is an unkeyed container of the string leaves `strings`:
    /// sent as the streaming encoder sends an array of strings (the same
    /// bytes as the container's leaf, without an array of leaves made for it).
    func strings(_ id: Int, _ strings: [String]) {
        send(id, .unkeyed(strings.map { .string($0) })) { sink in
            sink.begin(.unkeyed)
            sink.strings(strings)
            sink.end()
        }
    }

    /// Sends the value of the node of `id`: whole, as `value`, in a wrapper (which is sent
    /// whole with its content), else through `send`.
    private func send(_ id: Int, _ value: @autoclosure () -> BinaryValue, _ send: (any EncodingSink) -> Void) {
        guard take(id) else { return }
        switch top.kind {
        case .single, .optional:
            sink.value(top.kind == .single ? .single(value()) : .optional(value()))
            closeWrapper()
        case .root, .keyed, .unkeyed:
            send(sink)
        }
    }

    /// ``leaf(_:_:)`` if nothing was sent for the node of `id` yet (an empty value whose type
    /// asked for no container).
    func leafIfPending(_ id: Int, _ value: BinaryValue) {
        guard activate(id) else { return }
        if top.pending >= 0 { leaf(id, value) }
    }

    /// The node of `id` holds a keyed container, `view`; returns the container's id.
    func openKeyed(_ id: Int, _ view: ByteKeyedView) -> Int {
        openKeyed(id, view.buffer, view.entries.elements)
    }

    /// The node of `id` holds a keyed container whose fields are `stored` (keys and values in
    /// `buffer`); returns the container's id.
    func openKeyed(_ id: Int, _ buffer: UnsafeRawBufferPointer, _ stored: UnsafeBufferPointer<ByteKeyedView.Entry>)
        -> Int
    {
        guard takeForContainer(id) else { return id }
        sink.begin(.keyed)
        let entryStart = entries.count
        if keepsUnreadValues { entries.append(contentsOf: stored) }
        return push(.keyed, buffer, entryStart: entryStart, count: stored.count)
    }

    /// The node of `id` holds an unkeyed container; returns the container's id.
    func openUnkeyed(_ id: Int) -> Int {
        guard takeForContainer(id) else { return id }
        sink.begin(.unkeyed)
        return push(.unkeyed, UnsafeRawBufferPointer(start: nil, count: 0), entryStart: 0, count: 0)
    }

    /// The node of `id` holds a single-value container (or, `optional`, an optional) with a
    /// content; returns the content's id.
    func openWrapper(_ id: Int, optional: Bool) -> Int {
        guard takeForContainer(id) else { return id }
        let content = push(
            optional ? .optional : .single, UnsafeRawBufferPointer(start: nil, count: 0), entryStart: 0, count: 0)
        top.pending = 0
        return content
    }

    /// The type asks the keyed container `id` for the field stored at `position` (`isNil`: as
    /// nil), with `key`; its value comes later (or not: see ``finishPending()``).
    func field(_ id: Int, _ position: Int, _ key: @autoclosure () -> BinaryKey, isNil: Bool) {
        guard moveTo(id, position) else { return }
        top.pending = position
        top.pendingIsNil = isNil
        topKey = key()
    }

    /// The type reads the field stored at `position` of the keyed container `id`, with `key`,
    /// as the leaf `value`.
    func fieldLeaf(_ id: Int, _ position: Int, _ key: @autoclosure () -> BinaryKey, _ value: BinaryValue) {
        if activate(id), top.kind == .keyed, top.pending == position {
            return leaf(id, value)
        }
        guard moveTo(id, position) else { return }
        sink.key(key())
        sink.value(value)
    }

    /// The type takes the next element of the unkeyed container `id`.
    func element(_ id: Int) {
        guard activate(id), top.kind == .unkeyed else { return fail() }
        // An element taken and not read is an empty keyed container in the tree.
        if top.pending >= 0 { sink.value(.emptyKeyed) }
        top.pending = 0
    }

    /// Sends what is left once the type has returned; `false` if the stream failed.
    package func finish() -> Bool {
        if failed { return false }
        while !outer.isEmpty { finishTop() }
        if top.pending >= 0 { sink.value(.emptyKeyed) }
        top.pending = -1
        return !failed
    }

    // MARK: Order

    /// Makes the keyed container `id` the innermost, sends what it holds before `position`, and
    /// moves past `position` (nothing pending); `false` (and the stream failed) if the field
    /// comes before one sent or handed out already.
    @inline(__always)
    private func moveTo(_ id: Int, _ position: Int) -> Bool {
        guard activate(id), top.kind == .keyed, position >= top.next else {
            fail()
            return false
        }
        if top.pending >= 0 { finishPending() }
        if top.next < position { sendUnread(top.next..<position) }
        top.next = position + 1
        return true
    }

    /// Opens a container; returns its id (a slot index: below ``TreeRecording/maximumSlots``).
    private func push(_ kind: Kind, _ buffer: UnsafeRawBufferPointer, entryStart: Int, count: Int) -> Int {
        guard nextID < TreeRecording.maximumSlots else {
            fail()
            return Self.rootID
        }
        outer.append((top, topKey))
        top = Frame(id: nextID, kind: kind, buffer: buffer, entryStart: entryStart, count: count, pending: -1)
        topKey = nil
        nextID += 1
        return top.id
    }

    /// Makes the container `id` the innermost, closing the containers opened inside it; `false`
    /// (and the stream failed) if it is closed already.
    @inline(__always)
    private func activate(_ id: Int) -> Bool {
        if top.id == id { return !failed }
        return activateOuter(id)
    }

    @inline(never)
    private func activateOuter(_ id: Int) -> Bool {
        if failed { return false }
        guard id < top.id, outer.contains(where: { $0.frame.id == id }) else {
            fail()
            return false
        }
        while top.id != id { finishTop() }
        return true
    }

    /// Sends the key of the node handed out in container `id`, before its value; `false` (and
    /// the stream failed) if that node's value was sent already.
    private func take(_ id: Int) -> Bool {
        guard activate(id), top.pending >= 0 else {
            fail()
            return false
        }
        top.pending = -1
        if let key = topKey {
            topKey = nil
            sink.key(key)
        }
        return true
    }

    /// ``take(_:)`` for a container's content: not a wrapper's, which is sent whole.
    private func takeForContainer(_ id: Int) -> Bool {
        guard take(id) else { return false }
        switch top.kind {
        case .single, .optional:
            fail()
            return false
        case .root, .keyed, .unkeyed:
            return true
        }
    }

    /// Closes the innermost frame, a wrapper whose content was sent.
    private func closeWrapper() {
        guard let (frame, key) = outer.last else { return }
        outer.removeLast()
        top = frame
        topKey = key
    }

    /// A keyed field handed out and not read: nil if it is stored as nil, else as not read.
    private func finishPending() {
        let position = top.pending
        top.pending = -1
        let key = topKey
        topKey = nil
        guard top.kind == .keyed, position >= 0 else { return }
        if top.pendingIsNil, let key {
            sink.key(key)
            sink.value(.nil)
            return
        }
        guard keepsUnreadValues else { return }
        let entry = entries[top.entryStart + position]
        if let value = format.unreadValue(entry.value) {
            sink.key(ByteKeyedView.key(of: entry, top.buffer))
            sink.value(value)
        }
    }

    /// The fields of the innermost container at `positions`, not asked for, where the format
    /// keeps them.
    @inline(never)
    private func sendUnread(_ positions: Range<Int>) {
        guard keepsUnreadValues else { return }
        for position in positions {
            let entry = entries[top.entryStart + position]
            if let value = format.unreadValue(entry.value) {
                sink.key(ByteKeyedView.key(of: entry, top.buffer))
                sink.value(value)
            }
        }
    }

    /// Closes the innermost container (never the root).
    private func finishTop() {
        guard let (frame, key) = outer.last else { return }
        switch top.kind {
        case .keyed:
            finishPending()
            if top.next < top.count { sendUnread(top.next..<top.count) }
            if keepsUnreadValues { entries.removeSubrange(top.entryStart...) }
        case .unkeyed:
            if top.pending >= 0 { sink.value(.emptyKeyed) }
        case .single, .optional:
            // A content taken and not read is an empty keyed container in the tree.
            if top.pending >= 0 { leaf(top.id, .emptyKeyed) } else { closeWrapper() }
            return
        case .root:
            break
        }
        sink.end()
        outer.removeLast()
        top = frame
        topKey = key
    }
}
