/// The keyed container states of a decoding session, as a stack: the containers a value's
/// `init(from:)` opened are done with once it returns, and their states are reused for the next
/// value's, unless a container was kept (then its state stays with it and a new one takes its
/// place). With each state goes the standard library's box of its last container, handed out again
/// for the next container of the same key type (see ``ContainerBoxes``). A session keeps its pool
/// from run to run, and a thread keeps its last session's decoder (``DecodingThreadCache``).
///
/// The slots are in memory of the pool's own and are read in place: a slot read from an array
/// (or a class per slot) is a counted reference, and its state, box and rebuilder three more,
/// each retained and released per container opened and again when its value is done.
final class KeyedStatePool {
    /// A state, and the box of the last container made for it (when boxes are reused).
    private struct Slot {
        var state: KeyedContainerState
        var box: AnyObject?
        var key: ObjectIdentifier?
        /// Rebuilds the box's wrapper (``ContainerBoxes/decodingRebuilder(_:)`` for `key`).
        var rebuilder: AnyObject?
        /// Boxes of other key types made for the state before.
        var spares = SpareBoxes<SpareBox>()
    }

    /// A box of ``Slot/spares``. (A class, and an optional: `isKnownUniquelyReferenced` on an
    /// `AnyObject` in an array element does not see a sole reference, nor, in debug builds, on a
    /// non-optional `AnyObject` property.)
    private final class SpareBox {
        @exclusivity(unchecked) var box: AnyObject?
        @exclusivity(unchecked) var key: ObjectIdentifier
        @exclusivity(unchecked) var rebuilder: AnyObject

        init(box: AnyObject, key: ObjectIdentifier, rebuilder: AnyObject) {
            self.box = box
            self.key = key
            self.rebuilder = rebuilder
        }
    }

    // One run, one thread; no access stays open across a call out.
    @exclusivity(unchecked) private var slots: UnsafeMutablePointer<Slot>
    @exclusivity(unchecked) private var slotCount = 0
    @exclusivity(unchecked) private var slotCapacity: Int
    /// The run's unkeyed containers' cursors (kept with the states, for the session's next run).
    let cursors = ByteCursorPool()
    /// The number of states handed out to values still being decoded.
    @exclusivity(unchecked) var inUse = 0
    /// The slots this run has used are `0..<reached` (states are taken as a stack).
    @exclusivity(unchecked) private var reached = 0
    /// What an idle state refers to instead of a finished run's decoder, which it must not keep
    /// alive (with its user info) until the session's next run.
    private lazy var idle = TreeDecoderImpl(
        node: .tree(.nil), format: nil, options: DecodingOptions(userInfo: [:], maximumDepth: 0))
    private let reusesBoxes = ContainerBoxes.reusesBoxes

    init() {
        slotCapacity = 8
        slots = .allocate(capacity: slotCapacity)
    }

    deinit {
        slots.deinitialize(count: slotCount)
        slots.deallocate()
    }

    /// Whether no container refers to the state of slot `i`: its boxes, if kept, are held by
    /// nothing else (a state's only other holders are its containers).
    @inline(__always)
    private func isFree(_ i: Int) -> Bool {
        if slots[i].box != nil {
            return isKnownUniquelyReferenced(&slots[i].box) && (slots[i].spares.isEmpty || sparesAreFree(i))
        }
        return isKnownUniquelyReferenced(&slots[i].state)
    }

    @inline(never)
    private func sparesAreFree(_ i: Int) -> Bool {
        for spare in slots[i].spares.entries where !isKnownUniquelyReferenced(&spare.box) { return false }
        return true
    }

    /// Slot `inUse`, with a state no container holds.
    @inline(__always)
    private func freeSlot(_ impl: TreeDecoderImpl) -> UnsafeMutablePointer<Slot> {
        if inUse >= reached { reached = inUse &+ 1 }
        if inUse < slotCount {
            if !isFree(inUse) { slots[inUse] = Slot(state: KeyedContainerState(impl: impl)) }
        } else {
            appendSlot(impl)
        }
        return slots + inUse
    }

    @inline(never)
    private func appendSlot(_ impl: TreeDecoderImpl) {
        // At most one slot per nesting level.
        if slotCount == slotCapacity {
            (slots, slotCapacity) = doubled(slots, count: slotCount, capacity: slotCapacity)
        }
        (slots + slotCount).initialize(to: Slot(state: KeyedContainerState(impl: impl)))
        slotCount += 1
    }

    /// The free slot, its state opened on `node` and taken.
    @inline(__always)
    private func openSlot(
        _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?,
        defersFraming: Bool = false
    ) throws -> UnsafeMutablePointer<Slot> {
        let slot = freeSlot(impl)
        // The slot's references are read without counting: the slot holds them, and nothing
        // changes it before this returns.
        try Unmanaged.passUnretained(slot.pointee.state)._withUnsafeGuaranteedRef {
            try $0.open(&node, impl: impl, parent: parent, step: step, defersFraming: defersFraming)
        }
        inUse += 1
        return slot
    }

    /// A state opened on `node` for a reader that needs no box (generated code), taken as
    /// ``container(_:_:impl:parent:step:)`` takes it.
    func openState(
        _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?, defersFraming: Bool
    ) throws -> KeyedContainerState {
        try openSlot(&node, impl: impl, parent: parent, step: step, defersFraming: defersFraming).pointee.state
    }

    /// A container of `Key` opened on `node`, at `step` below `parent`: on the state at this
    /// depth if no container holds it, with the box of its last container if that was of `Key`.
    func container<Key: CodingKey>(
        _ type: Key.Type, _ node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> KeyedDecodingContainer<Key> {
        let slot = try openSlot(&node, impl: impl, parent: parent, step: step)
        if slot.pointee.key == ObjectIdentifier(Key.self), let box = slot.pointee.box,
            let rebuilder = slot.pointee.rebuilder
        {
            return ContainerBoxes.decoding(box, rebuilder, Key.self)
        }
        if !slot.pointee.spares.isEmpty, let (box, rebuilder) = takeSpareBox(slot, ObjectIdentifier(Key.self)) {
            return ContainerBoxes.decoding(box, rebuilder, Key.self)
        }
        let container = KeyedDecodingContainer(TreeKeyedDecodingContainer<Key>(state: slot.pointee.state))
        if reusesBoxes {
            keepLastBoxAsSpare(slot)
            slot.pointee.box = ContainerBoxes.box(of: container)
            slot.pointee.key = ObjectIdentifier(Key.self)
            slot.pointee.rebuilder = ContainerBoxes.decodingRebuilder(Key.self)
        }
        return container
    }

    /// The spare box of `key` in `slot` and its rebuilder, made the slot's last box (the last one
    /// taking its place among the spares); `nil` if there is none. The slot is free, so its spares
    /// are too. Not generic: out of line, it looks nothing up.
    @inline(never)
    private func takeSpareBox(_ slot: UnsafeMutablePointer<Slot>, _ key: ObjectIdentifier) -> (AnyObject, AnyObject)? {
        guard let (j, spare) = slot.pointee.spares.first(where: { $0.key == key }), let box = spare.box else {
            return nil
        }
        let rebuilder = spare.rebuilder
        if let last = slot.pointee.box, let lastKey = slot.pointee.key, let lastRebuilder = slot.pointee.rebuilder {
            // The spare's object takes the last box, where it is: no object made per turn.
            (spare.box, spare.key, spare.rebuilder) = (last, lastKey, lastRebuilder)
        } else {
            slot.pointee.spares.replace(at: j, with: nil)
        }
        slot.pointee.box = box
        slot.pointee.key = key
        slot.pointee.rebuilder = rebuilder
        return (box, rebuilder)
    }

    /// Moves the slot's last box, if any, to the front of its spares.
    @inline(never)
    private func keepLastBoxAsSpare(_ slot: UnsafeMutablePointer<Slot>) {
        // Moved out of the slot, not copied: the slot's fields are set again by the caller.
        guard let box = slot.pointee.box.take(), let key = slot.pointee.key,
            let rebuilder = slot.pointee.rebuilder.take()
        else { return }
        slot.pointee.spares.keep(SpareBox(box: box, key: key, rebuilder: rebuilder))
    }

    /// Entry storage for a keyed container read without a container (a dictionary's), from the
    /// state at this depth, which counts as in use until ``pop(to:)``: a dictionary in an array
    /// frames its entries where the one before it did, rather than into new storage.
    func entries(_ impl: TreeDecoderImpl) -> KeyedEntries {
        let slot = freeSlot(impl)
        inUse += 1
        return slot.pointee.state.entriesForView()
    }

    /// The value whose `init(from:)` took the states from `mark` on has been decoded: they are
    /// free again, and those no container kept drop their paths.
    func pop(to mark: Int) {
        var i = inUse
        while i > mark {
            i -= 1
            if isFree(i) { Unmanaged.passUnretained(slots[i].state)._withUnsafeGuaranteedRef { $0.dropPath() } }
        }
        inUse = mark
    }

    /// The states kept for the next run.
    var keptStates: Int { slotCount }

    /// Ends a run: keeps the states of the levels it used that no container holds, emptied of
    /// the run's references, up to ``RetentionLimits/levels``, and leaves the others to the
    /// containers that hold them. The slots past `reached` are idle from an earlier run, so the
    /// work is the run's own depth, not the deepest run's.
    func endRun() {
        cursors.endRun()
        inUse = 0
        let used = min(reached, slotCount)
        reached = 0
        var kept = 0
        let idle = self.idle
        for i in 0..<used where isFree(i) {
            slots[i].state.reset(to: idle)
            if kept != i { UnsafeMutableBufferPointer(start: slots, count: slotCount).swapAt(kept, i) }
            kept += 1
        }
        // The idle slots past the used ones move down behind the kept ones, in order.
        let idleCount = slotCount - used
        let keep = min(kept + idleCount, RetentionLimits.levels)
        // (Each call guarded: the runtime's destroy costs a call even for no elements.)
        if kept != used {
            (slots + kept).deinitialize(count: used - kept)
            (slots + kept).moveInitialize(from: slots + used, count: idleCount)
        }
        if kept + idleCount > keep { (slots + keep).deinitialize(count: kept + idleCount - keep) }
        slotCount = keep
        if slotCapacity > RetentionLimits.levels {
            slots = shrunk(slots, count: slotCount, to: RetentionLimits.levels)
            slotCapacity = RetentionLimits.levels
        }
    }
}
