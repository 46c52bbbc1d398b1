/// The entries of a keyed container framed from bytes, in memory of their own.
///
/// A keyed container's state (``KeyedContainerState``) keeps one of these from container to
/// container, emptied rather than freed, and reads it through an `UnsafeBufferPointer` that
/// stays valid while it holds the storage: a lookup then costs no reference counting. Storage
/// another holder still refers to (a view kept past its container) is never emptied;
/// the state takes new storage instead.
///
/// Visible to the formats as SPI, with an inlinable ``append(intKey:keyStart:keyLength:buffer:start:end:tag:extra:)``:
/// a `package` method is a call from another module, once per field framed.
final class KeyedEntries: RandomAccessCollection {
    /// A framed field.
    typealias Entry = ByteKeyedView.Entry

    // One decoding run, one thread; no access stays open across a call out.
    @exclusivity(unchecked) var base: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) var capacity: Int
    @exclusivity(unchecked) var storedCount = 0

    init(capacity: Int = 8) {
        self.capacity = Swift.max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deinitialize(count: storedCount)
        base.deallocate()
    }

    /// 0.
    var startIndex: Int { 0 }
    /// The number of entries.
    var endIndex: Int { storedCount }
    /// The number of entries.
    var count: Int { storedCount }

    /// The entry at `position`, which must be below ``count``.
    subscript(position: Int) -> Entry { elements[position] }

    /// The entries; valid while this storage is alive and not changed.
    var elements: UnsafeBufferPointer<Entry> { UnsafeBufferPointer(start: base, count: storedCount) }

    @inline(__always)
    func append(_ entry: consuming Entry) {
        if storedCount == capacity { grow() }
        (base + storedCount).initialize(to: entry)
        storedCount += 1
    }

    /// Appends the entry of a field whose value the format framed at `start..<end` of `buffer`.
    @inline(__always)
    func append(
        intKey: Int, keyStart: Int, keyLength: Int, buffer: UnsafeRawBufferPointer, start: Int, end: Int, tag: UInt8,
        extra: UInt8 = 0xff
    ) {
        append(
            Entry(
                intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: buffer, start: start, end: end,
                tag: tag, extra: extra))
    }

    /// Empties the storage, keeping its capacity.
    func removeAll() {
        base.deinitialize(count: storedCount)
        storedCount = 0
    }

    @inline(never)
    func grow() {
        // At most one entry per byte of the input.
        (base, capacity) = doubled(base, count: storedCount, capacity: capacity)
    }
}
