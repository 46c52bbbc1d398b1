import Foundation
import Testing

@testable import BinarySerialization

/// The writer never writes past its buffer: when the writes do not match the size,
/// `Output.make` throws an `EncodingError` instead of returning (or overrunning) the buffer.
@Suite struct ByteWriterTests {
    @Test func exactWritesProduceTheBytes() throws {
        let data = try Output.make(count: 8) { w in
            w.varint(300)  // ac 02
            w.byte(7)
            w.littleEndian(UInt16(0x0102))  // 02 01
            w.bigEndian(UInt16(0x0304))  // 03 04
            w.string("z")  // 7a
        }
        #expect(Array(data) == [0xac, 0x02, 0x07, 0x02, 0x01, 0x03, 0x04, 0x7a])
        #expect(try Output.make(count: 0) { _ in } == Data())
    }

    /// Each kind of write, one byte short of room.
    static let overruns: [(String, @Sendable (inout ByteWriter) -> Void)] = [
        (
            "byte",
            { w in
                w.byte(1)
                w.byte(2)
            }
        ),
        ("varint", { w in w.varint(UInt64.max) }),
        ("littleEndian", { w in w.littleEndian(UInt64(1)) }),
        ("bigEndian", { w in w.bigEndian(UInt32(1)) }),
        ("bytes", { w in w.string("a string longer than the buffer") }),
    ]

    @Test(arguments: 0..<overruns.count)
    func writingPastTheSizeThrows(_ i: Int) {
        let (name, write) = Self.overruns[i]
        let error = #expect(throws: EncodingError.self, "\(name)") {
            try Output.make(count: 1) { w in
                write(&w)
                #expect(w.overflowed)
                #expect(w.offset <= w.capacity)
            }
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains("Internal inconsistency"))
    }

    @Test func writingLessThanTheSizeThrows() {
        #expect(throws: EncodingError.self) { try Output.make(count: 4) { w in w.byte(1) } }
        #expect(throws: EncodingError.self) { try Output.make(count: 0) { w in w.byte(1) } }
    }
    /// Outputs up to `Output.copiedLimit` bytes are copied into a `Data` of their own, larger ones
    /// handed over: both sides of the limit give the bytes written, in both formats, for the
    /// streamed and the tree path alike, and decode back.
    @Test(arguments: [0, 1, 2, Output.copiedLimit - 1, Output.copiedLimit, Output.copiedLimit + 1, 1000])
    func outputsOnBothSidesOfTheCopyLimit(count: Int) throws {
        let direct = try Output.make(count: count) { w in
            for i in 0..<count { w.byte(UInt8(truncatingIfNeeded: i &* 7)) }
        }
        #expect(Array(direct) == (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for format in [BinaryFormat.v3, .v2] {
            // A string whose encoded value is about `count` bytes.
            let value = ["s": String(repeating: "x", count: max(count - 8, 0)), "t": "y"]
            let encoder = BinaryEncoder(format: format)
            let data = try encoder.encode(value)
            #expect(data == (try encoder.encode(tree: encoder.encodeTree(value))))
            #expect(try BinaryDecoder(format: format).decode([String: String].self, from: data) == value)
        }
    }
}
