import Testing

@_spi(Formats) @testable import BinarySerialization

/// The keyed containers' entry storage lives in raw memory: it must grow without losing or
/// duplicating an entry, keep each entry's value node exactly, and never hand out more entries
/// than it holds. Run under AddressSanitizer in CI.
@Suite struct KeyedEntriesTests {
    static let input: [UInt8] = Array(0..<64)

    static func entry(_ key: Int, in buffer: UnsafeRawBufferPointer) -> ByteKeyedView.Entry {
        .init(
            intKey: key, keyStart: key % 64, keyLength: key % 3, buffer: buffer, start: key % 64,
            end: key % 64 + key % 5, tag: UInt8(key % 7), extra: UInt8(key % 11))
    }

    @Test(arguments: [1, 2, 7, 8, 9, 100])
    func growsPastItsCapacityKeepingEveryEntry(_ count: Int) {
        Self.input.withUnsafeBytes { buffer in
            let entries = KeyedEntries(capacity: 1)
            for key in 0..<count { entries.append(Self.entry(key, in: buffer)) }
            #expect(entries.count == count)
            #expect(entries.elements.count == count)
            #expect(entries.map(\.intKey) == Array(0..<count))
            #expect(entries[count - 1].intKey == count - 1)
            for key in 0..<count {
                let value = entries[key].value
                #expect(value.buffer.baseAddress == buffer.baseAddress)
                #expect(value.start == key % 64 && value.end == key % 64 + key % 5)
                #expect(value.tag == UInt8(key % 7) && value.extra == UInt8(key % 11))
                #expect(value.cursor == nil)
                #expect(entries[key].keyStart == key % 64 && entries[key].keyLength == key % 3)
            }
        }
    }

    @Test func emptyingKeepsWorking() {
        Self.input.withUnsafeBytes { buffer in
            let entries = KeyedEntries()
            for key in 0..<20 { entries.append(Self.entry(key, in: buffer)) }
            entries.removeAll()
            #expect(entries.isEmpty)
            #expect(entries.elements.isEmpty)
            entries.append(Self.entry(5, in: buffer))
            #expect(entries.map(\.intKey) == [5])
            #expect(entries[0].value.start == 5)
        }
    }

    @Test func theFormatsDefaultExtraIsUnused() {
        Self.input.withUnsafeBytes { buffer in
            let entry = ByteKeyedView.Entry(
                intKey: ByteKeyedView.Entry.stringKey, keyStart: 1, keyLength: 2, buffer: buffer, start: 3, end: 4,
                tag: 1)
            #expect(entry.value.extra == 0xff)
            #expect(entry.hasName(buffer.baseAddress.map { $0 + 1 }, count: 2, in: buffer))
            #expect(!entry.hasName(buffer.baseAddress.map { $0 + 2 }, count: 2, in: buffer))
        }
    }
}
