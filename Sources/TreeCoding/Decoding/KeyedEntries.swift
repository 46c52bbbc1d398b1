/// The entries of a keyed container framed from bytes, in memory of their own.
///
/// A keyed container's state (``KeyedContainerState``) keeps one of these from container to
/// container, emptied rather than freed, and reads it through an `UnsafeBufferPointer` that
/// stays valid while it holds the storage: a lookup then costs no reference counting. Storage
/// another holder still refers to (a view kept past its container) is never emptied;
/// the state takes new storage instead.
package final class KeyedEntries: RandomAccessCollection {
    package typealias Entry = ByteKeyedView.Entry

    // One decoding run, one thread; no access stays open across a call out.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) package private(set) var count = 0

    package init(capacity: Int = 8) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    /// The entry at `position`, which must be below ``count``.
    package subscript(position: Int) -> Entry { elements[position] }

    /// The entries; valid while this storage is alive and not changed.
    package var elements: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    package func append(_ entry: consuming Entry) {
        if count == capacity { grow() }
        (base + count).initialize(to: entry)
        count += 1
    }

    /// Appends the entry of a field whose value the format framed at `start..<end` of `buffer`
    /// (one call from the format's module, where building the entry there would cost a call per
    /// initializer).
    package func append(
        intKey: Int, keyStart: Int, keyLength: Int, buffer: UnsafeRawBufferPointer, start: Int, end: Int, tag: UInt8,
        extra: UInt8 = 0xff
    ) {
        append(
            Entry(
                intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: buffer, start: start, end: end,
                tag: tag, extra: extra))
    }

    /// Empties the storage, keeping its capacity.
    package func removeAll() {
        base.deinitialize(count: count)
        count = 0
    }

    private func grow() {
        // `capacity` is at most the number of entries framed from an input that holds at least
        // one byte per entry, far below `Int.max / 2`.
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<Entry>.allocate(capacity: larger)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
