/// The entry positions of a large keyed container framed from bytes, by key as stored: an integer
/// key by its value, a string key by its UTF-8 bytes in the input (``BinaryKey``'s equality), so
/// that neither building the index nor a lookup makes a `String`.
///
/// Open addressing with linear probing over a power-of-two table at most half full. Keys are
/// hashed with the standard library's seeded `Hasher`, so input chosen to collide cannot make the
/// probes long.
struct EntryIndex {
    typealias Entry = ByteKeyedView.Entry

    /// Entry position + 1 per slot; 0 is an empty slot.
    private var slots: [Int]
    private let mask: Int

    /// Indexes `entries` (keys in `buffer`); `nil` with the position of the first entry whose key
    /// repeats an earlier one's.
    static func make(_ entries: UnsafeBufferPointer<Entry>, _ buffer: UnsafeRawBufferPointer) -> (EntryIndex?, Int?) {
        // `entries.count` is at most the input's length (each entry takes bytes), far below
        // `Int.max / 4`: the doubling cannot overflow.
        var capacity = 4
        while capacity < entries.count * 2 { capacity *= 2 }
        var index = EntryIndex(slots: [Int](repeating: 0, count: capacity), mask: capacity - 1)
        for position in entries.indices {
            let entry = entries[position]
            let hash = Self.hash(of: entry, buffer)
            var slot = hash & index.mask
            while index.slots[slot] != 0 {
                if ByteKeyedView.sameKey(entries[index.slots[slot] - 1], entry, buffer) { return (nil, position) }
                slot = (slot + 1) & index.mask
            }
            index.slots[slot] = position + 1
        }
        return (index, nil)
    }

    /// The position of the entry with integer key `intKey`.
    func position(intKey: Int, in entries: UnsafeBufferPointer<Entry>) -> Int? {
        var hasher = Hasher()
        hasher.combine(0 as UInt8)
        hasher.combine(intKey)
        return probe(hasher.finalize()) { entries[$0].intKey == intKey }
    }

    /// The position of the entry whose string key has the UTF-8 bytes of `name`.
    func position(name: String, in entries: UnsafeBufferPointer<Entry>, _ buffer: UnsafeRawBufferPointer) -> Int? {
        var name = name
        return name.withUTF8 { utf8 -> Int? in
            let bytes = UnsafeRawBufferPointer(utf8)
            var hasher = Hasher()
            hasher.combine(1 as UInt8)
            hasher.combine(bytes: bytes)
            return probe(hasher.finalize()) { entries[$0].hasName(bytes.baseAddress, count: bytes.count, in: buffer) }
        }
    }

    @inline(__always)
    private func probe(_ hash: Int, _ matches: (Int) -> Bool) -> Int? {
        var slot = hash & mask
        while slots[slot] != 0 {
            let position = slots[slot] - 1
            if matches(position) { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private static func hash(of entry: Entry, _ buffer: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        if entry.intKey != Entry.stringKey {
            hasher.combine(0 as UInt8)
            hasher.combine(entry.intKey)
        } else {
            hasher.combine(1 as UInt8)
            hasher.combine(
                bytes: UnsafeRawBufferPointer(rebasing: buffer[entry.keyStart..<entry.keyStart + entry.keyLength]))
        }
        return hasher.finalize()
    }
}
