import Foundation
import Testing

@testable import BinarySerialization

/// `ByteReader.varint()` has three paths (one byte, two bytes, the loop); each is checked at its
/// edges by bytes, and all three against the writer with seeded random values of every length.
@Suite struct ByteReaderVarintTests {
    /// Reads one varint from `bytes`; returns the value and the offset after it.
    private static func read(_ bytes: [UInt8]) throws -> (UInt64, Int) {
        try bytes.withUnsafeBytes { buffer in
            var r = ByteReader(buffer: buffer, offset: 0, end: buffer.count)
            let v = try r.varint()
            return (v, r.offset)
        }
    }

    @Test(
        arguments: [
            ([0x00], 0, 1),
            ([0x7f], 127, 1),
            ([0x80, 0x01], 128, 2),  // the smallest two-byte value
            ([0xac, 0x02], 300, 2),
            ([0xff, 0x7f], 16_383, 2),  // the largest two-byte value
            ([0x80, 0x80, 0x01], 16_384, 3),  // the smallest three-byte value: the loop
            ([0xff, 0x7f, 0x05], 16_383, 2),  // a following byte is not read
            ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], 1 << 56, 9),
            ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], UInt64.max, 9),
        ] as [([UInt8], UInt64, Int)])
    func readsTheValueAndStopsAfterIt(bytes: [UInt8], value: UInt64, length: Int) throws {
        let (v, end) = try Self.read(bytes)
        #expect(v == value)
        #expect(end == length)
    }

    @Test(
        arguments: [
            ([0x80, 0x00], "invalidBytes"),  // over-long: a two-byte form of 0
            ([0xff, 0x80, 0x00], "invalidBytes"),  // over-long in three bytes
            ([0x80], "truncated"),  // the second byte is missing
            ([0x80, 0x80], "truncated"),  // the third byte is missing
            ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], "invalidBytes"),
            ([], "truncated"),
        ] as [([UInt8], String)])
    func rejectsOverLongAndTruncatedForms(bytes: [UInt8], code: String) {
        #expect {
            _ = try Self.read(bytes)
        } throws: { error in
            (error as? WireFormatError)?.code.name == code && (error as? WireFormatError)?.offset == 0
        }
    }

    /// A two-byte varint at the very end of a region, and one cut off by the region's end
    /// although the buffer goes on.
    @Test func respectsTheRegionEndNotTheBufferEnd() throws {
        let bytes: [UInt8] = [0x05, 0xac, 0x02]
        let (whole, cut) = bytes.withUnsafeBytes { buffer -> (Result<UInt64, any Error>, Result<UInt64, any Error>) in
            var whole = ByteReader(buffer: buffer, offset: 1, end: 3)
            var cut = ByteReader(buffer: buffer, offset: 1, end: 2)
            return (Result { try whole.varint() }, Result { try cut.varint() })
        }
        #expect(try whole.get() == 300)
        #expect {
            try cut.get()
        } throws: { error in
            (error as? WireFormatError)?.code.name == "truncated" && (error as? WireFormatError)?.offset == 1
        }
    }

    @Test func roundTripsRandomValuesOfEveryLength() throws {
        var rng = SplitMix64(seed: 0x7661_7269_6e74)
        for i in 0..<20_000 {
            // Every bit length from 0 to 64, so each byte count is drawn about as often.
            let bits = i % 65
            let value = bits == 0 ? 0 : rng.next() >> UInt64(64 - bits)
            let data = try Output.make(count: varintSize(value)) { w in w.varint(value) }
            let (v, end) = try Self.read(Array(data))
            #expect(v == value, "value \(value)")
            #expect(end == data.count, "value \(value)")
        }
    }
}
