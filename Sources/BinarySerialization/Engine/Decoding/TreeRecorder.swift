/// Builds the tree of stored data as a type reads it (`decodeTree`).
///
/// The type's `init(from:)` runs over a recording node that wraps the real node and notes
/// every request (keyed, unkeyed, single value, optional, primitive) with its result. Fields the
/// type never reads are kept as the format stores them where it can say (v3:
/// ``BinaryValue/unknown(_:)``), and left out where it cannot (v2, whose values need a type).
///
/// The tree must be resolved while the input bytes are valid (unknown fields are copied then).
enum TreeRecorder {
    /// What `type` read from `base`, not yet resolved into a tree; valid while the input is.
    static func recording<T: Decodable>(
        _ type: T.Type, from base: ByteNode, format: any ByteFormat.Type, options: DecodingOptions
    ) throws -> TreeRecording {
        let recording = TreeRecording(format: format)
        // Most slots are fields of keyed containers, each with an entry: one estimate for both
        // (growing by doubling copied the entries about twice over).
        let estimate = min(max(base.end - base.start, 0) / 4, 1 << 16)
        recording.slots.reserveCapacity(estimate)
        recording.entries.reserveCapacity(estimate)
        let root = try recording.newSlot(.empty)
        _ = try TreeDecoderImpl.decodeRoot(
            T.self, from: .recording(RecordingNode(base, root)), format: format, options: options)
        return recording
    }
}

/// Everything one `decodeTree` run read, in flat arrays: a slot per position of the tree, so
/// recording a field or an element appends to an array instead of allocating an object, and
/// the whole record is freed at once.
final class TreeRecording {
    enum Content {
        case empty
        case leaf(BinaryValue)
        /// A keyed container: the index of its ``Keyed`` record.
        case keyed(Int)
        /// An unkeyed container: the index of its element list in ``unkeyed``.
        case unkeyed(Int)
        /// A single-value container or optional: the slot of its content.
        case single(Int)
        case optional(Int)
    }

    struct Slot {
        var content: Content
        /// For a field of a keyed container, the key as the type asked for it (with its name);
        /// `nil` until the type asks.
        var key: BinaryKey?
    }

    /// A keyed container as stored, and where its fields' slots begin: the field stored at
    /// position p has the slot `first + p`, so a field is found by the position the view looked
    /// up, without a table of keys. Its entries are copied into ``entries`` (from `entryStart`),
    /// so that the container's own entry storage is free for the next container.
    struct Keyed {
        let buffer: UnsafeRawBufferPointer
        let entryStart: Int
        let count: Int
        let first: Int
    }

    // One decoding run, one thread, and no access stays open across a call: like the decoder's
    // own state, the record skips the run-time exclusivity checks.
    @exclusivity(unchecked) var slots: [Slot] = []
    @exclusivity(unchecked) var keyed: [Keyed] = []
    /// The entries of every recorded keyed container, one after the other.
    @exclusivity(unchecked) var entries: [ByteKeyedView.Entry] = []
    /// The slots of each unkeyed container's elements, in order.
    @exclusivity(unchecked) var unkeyed: [[Int]] = []
    let format: any ByteFormat.Type

    init(format: any ByteFormat.Type) {
        self.format = format
    }

    /// The most slots one run records: a slot's index is kept in 32 bits, so that a recording
    /// node is no larger than a byte node and a slot.
    static let maximumSlots = Int(UInt32.max)

    /// Throws unless `count` more slots fit.
    func checkRoom(for count: Int) throws {
        guard count <= Self.maximumSlots - slots.count else {
            throw WireFormatError(.limitExceeded, "more than \(Self.maximumSlots) values to record")
        }
    }

    /// A new slot holding `content`.
    func newSlot(_ content: Content) throws -> RecordSlot {
        try checkRoom(for: 1)
        let index = UInt32(truncatingIfNeeded: slots.count)  // below `maximumSlots`: checked above
        slots.append(Slot(content: content, key: nil))
        return RecordSlot(recording: self, index: index)
    }

    /// Notes that the type asked for the field whose slot is `slot` with `key` (the first time:
    /// the key as first asked keeps its name). A nil the type only tests (`decodeNil(forKey:)`)
    /// leaves the slot empty; resolving records it as nil then, rather than asking the format
    /// here for every field.
    @inline(__always)
    func noteKey(_ key: @autoclosure () -> BinaryKey, slot: Int) {
        if slots[slot].key == nil { slots[slot].key = key() }
    }

    /// ``noteKey(_:slot:)`` and the slot's content in one update.
    @inline(__always)
    func record(_ content: Content, slot: Int, key: @autoclosure () -> BinaryKey) {
        noteKey(key(), slot: slot)
        slots[slot].content = content
    }

    /// The slot of the root value.
    static let rootSlot = 0

    /// The recorded tree (an empty keyed container when the type read nothing).
    var tree: BinaryValue { resolved(Self.rootSlot) ?? .emptyKeyed }

    /// The recorded tree at `slot`; `nil` when nothing was read there.
    func resolved(_ slot: Int) -> BinaryValue? {
        switch slots[slot].content {
        case .empty: return nil
        case .leaf(let v): return v
        case .keyed(let k): return .keyed(resolvedFields(keyed[k]))
        case .unkeyed(let u): return .unkeyed(unkeyed[u].map { resolved($0) ?? .emptyKeyed })
        case .single(let s): return .single(resolved(s) ?? .emptyKeyed)
        case .optional(let s): return .optional(resolved(s) ?? .emptyKeyed)
        }
    }

    /// The fields of a recorded keyed container in stored order, whatever order the type asked
    /// in (keys are distinct: the views reject repeated keys): a field the type read, a nil it
    /// only tested (`.nil`), or, for a field it did not read (or fetched but did not decode),
    /// the value as stored where the format keeps one.
    private func resolvedFields(_ record: Keyed) -> KeyedFields {
        var out: [KeyedFields.Field] = []
        out.reserveCapacity(record.count)
        var slot = record.first
        // By index: a field the type read needs nothing from its stored entry.
        for position in record.entryStart..<record.entryStart + record.count {
            defer { slot += 1 }
            if let key = slots[slot].key {
                if let value = resolved(slot) {
                    out.append(.init(key: key, value: value))
                    continue
                }
                if format.isNil(entries[position].value) {
                    out.append(.init(key: key, value: .nil))
                    continue
                }
            }
            if let value = format.unreadValue(entries[position].value) {
                out.append(.init(key: ByteKeyedView.key(of: entries[position], record.buffer), value: value))
            }
        }
        return KeyedFields(uniqueFields: out)
    }
}

/// One position of a recording: where what is read from a recording node goes.
struct RecordSlot {
    let recording: TreeRecording
    /// The slot's index in ``TreeRecording/slots``.
    let index: UInt32

    init(recording: TreeRecording, index: UInt32) {
        self.recording = recording
        self.index = index
    }

    var content: TreeRecording.Content {
        get { recording.slots[Int(index)].content }
        nonmutating set { recording.slots[Int(index)].content = newValue }
    }

    /// Records the leaf `value` here.
    func record(_ value: BinaryValue) {
        content = .leaf(value)
    }

    /// Records `value` here unless something was recorded here already.
    func recordIfEmpty(_ value: BinaryValue) {
        if case .empty = content { content = .leaf(value) }
    }

    /// A keyed container opened here; a type that opens the same container twice gets the
    /// fields it recorded the first time.
    func recordKeyed(_ view: ByteKeyedView) throws -> RecordingKeyedView {
        let r = recording
        if case .keyed(let k) = content { return RecordingKeyedView(base: view, recording: r, first: r.keyed[k].first) }
        let first = r.slots.count
        let count = view.entries.count
        try r.checkRoom(for: count)
        for _ in 0..<count { r.slots.append(TreeRecording.Slot(content: .empty, key: nil)) }
        r.keyed.append(
            TreeRecording.Keyed(buffer: view.buffer, entryStart: r.entries.count, count: count, first: first))
        r.entries.append(contentsOf: view.entries.elements)
        content = .keyed(r.keyed.count - 1)
        return RecordingKeyedView(base: view, recording: r, first: first)
    }

    /// An unkeyed container opened here.
    func recordUnkeyed(_ view: ByteUnkeyedView) -> RecordingUnkeyedView {
        let r = recording
        r.unkeyed.append([])
        let u = r.unkeyed.count - 1
        content = .unkeyed(u)
        return RecordingUnkeyedView(base: view, recording: r, record: u)
    }

    /// The slot of the content of the single-value container or optional opened here.
    func recordContent(optional: Bool) throws -> RecordSlot {
        let child = try recording.newSlot(.empty)
        let i = Int(child.index)
        content = optional ? .optional(i) : .single(i)
        return child
    }
}

/// A keyed container whose lookups are recorded.
struct RecordingKeyedView {
    let base: ByteKeyedView
    let recording: TreeRecording
    /// The slot of the first stored field.
    let first: Int

    /// The value stored at `position`, found for `key`.
    @inline(never)
    func node(at position: Int, forKey key: some CodingKey) -> DecodingNode {
        recorded(base.entries[position].value, at: position, forKey: BinaryKey(key))
    }

    /// `found`, the value stored at `position`, wrapped so that what is read from it is recorded.
    func recorded(_ found: ByteNode, at position: Int, forKey key: @autoclosure () -> BinaryKey) -> DecodingNode {
        let r = recording
        let slot = first + position
        r.noteKey(key(), slot: slot)
        // Below `maximumSlots`: the container's slots were made by `recordKeyed`.
        return .recording(RecordingNode(found, RecordSlot(recording: r, index: UInt32(truncatingIfNeeded: slot))))
    }
}

/// An unkeyed container whose elements are recorded.
struct RecordingUnkeyedView {
    var base: ByteUnkeyedView
    let recording: TreeRecording
    /// The index of the container's element list in the recording.
    let record: Int

    /// The node of the next element, recorded in a new slot.
    @inline(never)
    mutating func nextElement(_ format: (any ByteFormat.Type)?) throws -> DecodingNode {
        let node = try DecodingNode.requireFormat(format).nextElement(&base)
        return .recording(RecordingNode(node, try appendElement()))
    }

    /// A slot for the next element.
    func appendElement(_ content: TreeRecording.Content = .empty) throws -> RecordSlot {
        let slot = try recording.newSlot(content)
        recording.unkeyed[record].append(Int(slot.index))
        return slot
    }
}

/// A byte node being recorded, and its slot. The tag, wire type and slot index share one word,
/// so that the node is no larger than a byte node and a reference: a larger enum payload is
/// copied through value witnesses, which slows the byte decoder's own nodes too.
struct RecordingNode {
    let buffer: UnsafeRawBufferPointer
    let start: Int
    let end: Int
    /// Bits 0-7: the tag; 8-15: the wire type; 32-63: the slot's index.
    let packed: UInt64
    let cursor: ByteCursor?
    let recording: TreeRecording

    @inline(__always)
    init(_ node: ByteNode, _ slot: RecordSlot) {
        self.init(node, slotIndex: UInt64(slot.index), recording: slot.recording)
    }

    /// The node as the format reads it.
    @inline(__always)
    var byteNode: ByteNode {
        ByteNode(
            buffer: buffer, start: start, end: end, tag: UInt8(truncatingIfNeeded: packed),
            extra: UInt8(truncatingIfNeeded: packed >> 8), cursor: cursor)
    }

    /// The same slot, over `node` (the format may have moved it along).
    @inline(__always)
    func replacingNode(_ node: ByteNode) -> RecordingNode {
        RecordingNode(node, slotIndex: packed >> 32, recording: recording)
    }

    @inline(__always)
    private init(_ node: ByteNode, slotIndex: UInt64, recording: TreeRecording) {
        buffer = node.buffer
        start = node.start
        end = node.end
        packed = UInt64(node.tag) | UInt64(node.extra) << 8 | slotIndex << 32
        cursor = node.cursor
        self.recording = recording
    }

    /// The index of the slot in ``TreeRecording/slots``.
    @inline(__always)
    var slotIndex: Int { Int(truncatingIfNeeded: packed >> 32) }

    @inline(__always)
    var slot: RecordSlot { RecordSlot(recording: recording, index: UInt32(truncatingIfNeeded: packed >> 32)) }
}
