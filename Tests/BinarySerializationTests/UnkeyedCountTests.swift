import Foundation
import Testing

@testable import BinarySerialization

/// `count` of a v3 unkeyed container: the total number of elements wherever the container is,
/// and cheap enough to ask once per element: a long container is counted once per run and its
/// count recorded. That is checked on the record, not with a clock (a wall-clock limit fails when
/// a parallel run starves the test of a thread).
@Suite struct UnkeyedCountTests {
    /// Reads its elements while `currentIndex < count`, asking `count` every time, and records
    /// what it saw.
    struct CountingList: Decodable {
        var values: [Int?] = []
        var counts: Set<Int?> = []
        var inner: [Int] = []
        /// The number of containers whose count the run recorded, read when the list is done.
        var recordedCounts: Int?

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            while c.currentIndex < (c.count ?? 0) {
                counts.insert(c.count)
                if try c.decodeNil() {
                    values.append(nil)
                } else if c.currentIndex == 2 {
                    // A nested container has its own count; the outer one is unchanged after it.
                    var nested = try c.nestedUnkeyedContainer()
                    while nested.currentIndex < (nested.count ?? 0) {
                        counts.insert(nested.count.map { -$0 })
                        inner.append(try nested.decode(Int.self))
                    }
                    values.append(-1)
                } else {
                    values.append(try c.decode(Int.self))
                }
                counts.insert(c.count)
            }
            #expect(c.isAtEnd)
            recordedCounts = (decoder as? TreeDecoderImpl)?.unkeyedCounts.recordedCount
        }
    }

    static func list(_ elements: [BinaryValue]) throws -> Data {
        try BinaryEncoder(format: .v3).encode(tree: .unkeyed(elements))
    }

    @Test func countIsTheTotalWhereverTheContainerIs() throws {
        let data = try Self.list([.int(5), .nil, .unkeyed([.int(7), .int(8), .int(9)]), .int(6)])
        let decoded = try BinaryDecoder(format: .v3).decode(CountingList.self, from: data)
        #expect(decoded.values == [5, nil, -1, 6])
        #expect(decoded.inner == [7, 8, 9])
        #expect(decoded.counts == [4, -3])
    }

    struct Count: Decodable {
        var count: Int?
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            count = c.count
            _ = try c.decode(Int.self)
            // Asked again after an element: still unknown, from the cache or not.
            #expect(c.count == count)
        }
    }

    @Test func countIsNilWhenTheBytesDoNotFrame() throws {
        // 02 05: an element of one byte (5); 08 00: an element claiming 4 bytes, 1 remains.
        let decoded = try BinaryDecoder(format: .v3).decode(Count.self, from: Data([0x02, 0x0a, 0x08, 0x00]))
        #expect(decoded.count == nil)
        // The same after 100 good elements, long enough for the count to be recorded.
        let long = try Self.list((0..<100).map { .int($0) }) + Data([0x08, 0x00])
        #expect(try BinaryDecoder(format: .v3).decode(Count.self, from: long).count == nil)
    }

    @Test func countAskedPerElementOfALargeContainer() throws {
        let n = 100_000
        let data = try Self.list((0..<n).map { $0 == 2 ? .unkeyed([.int(1)]) : $0 % 7 == 0 ? .nil : .int($0) })
        let decoded = try BinaryDecoder(format: .v3).decode(CountingList.self, from: data)
        #expect(decoded.values.count == n)
        #expect(decoded.counts == [n, -1])
        #expect(decoded.values[n - 1] == ((n - 1) % 7 == 0 ? nil : n - 1))
        #expect(decoded.values[7] == nil)
        #expect(decoded.inner == [1])
        // The outer container's count was recorded; the inner one is too short to be worth it.
        #expect(decoded.recordedCounts == 1)
    }
}
