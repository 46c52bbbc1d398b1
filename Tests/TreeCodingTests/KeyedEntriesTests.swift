import Testing

@testable import TreeCoding

/// The keyed containers' entry storage lives in raw memory: it must grow without losing or
/// duplicating an entry, release the references its entries hold when emptied or freed, and
/// never hand out more entries than it holds. Run under AddressSanitizer in CI.
@Suite struct KeyedEntriesTests {
    static let input: [UInt8] = Array(0..<64)

    static func entry(_ key: Int, cursor: ByteCursor?, in buffer: UnsafeRawBufferPointer) -> ByteKeyedView.Entry {
        .init(
            intKey: key, keyStart: key % 64, keyLength: 0,
            value: ByteNode(buffer: buffer, start: key % 64, end: key % 64, tag: 0, cursor: cursor))
    }

    @Test(arguments: [1, 2, 7, 8, 9, 100])
    func growsPastItsCapacityKeepingEveryEntry(_ count: Int) {
        Self.input.withUnsafeBytes { buffer in
            let entries = KeyedEntries(capacity: 1)
            for key in 0..<count { entries.append(Self.entry(key, cursor: nil, in: buffer)) }
            #expect(entries.count == count)
            #expect(entries.elements.count == count)
            #expect(entries.map(\.intKey) == Array(0..<count))
            #expect(entries[count - 1].intKey == count - 1)
        }
    }

    @Test func emptyingReleasesReferencesAndKeepsWorking() {
        Self.input.withUnsafeBytes { buffer in
            weak var released: ByteCursor?
            let entries = KeyedEntries()
            do {
                let cursor = ByteCursor(offset: 0, end: 64)
                released = cursor
                for key in 0..<20 { entries.append(Self.entry(key, cursor: cursor, in: buffer)) }
            }
            #expect(released != nil)
            entries.removeAll()
            #expect(released == nil)
            #expect(entries.isEmpty)
            #expect(entries.elements.isEmpty)
            entries.append(Self.entry(5, cursor: nil, in: buffer))
            #expect(entries.map(\.intKey) == [5])
        }
    }

    @Test func freeingReleasesReferences() {
        Self.input.withUnsafeBytes { buffer in
            weak var released: ByteCursor?
            do {
                let entries = KeyedEntries(capacity: 0)
                let cursor = ByteCursor(offset: 0, end: 64)
                released = cursor
                for key in 0..<3 { entries.append(Self.entry(key, cursor: cursor, in: buffer)) }
                #expect(entries.count == 3)
            }
            #expect(released == nil)
        }
    }
}
