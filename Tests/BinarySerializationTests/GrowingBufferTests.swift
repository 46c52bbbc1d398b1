import Foundation
import Testing

@testable import BinarySerialization

/// The streaming sink's buffer grows under raw pointers: every write stays inside its
/// reservation, a write that does not match its reservation fails the buffer instead of writing
/// outside it, and reads outside the written bytes give nothing. Run under AddressSanitizer in CI.
@Suite struct GrowingBufferTests {
    /// The buffer's counters (`#expect` cannot look into a non-copyable value).
    struct State: Equatable {
        var count: Int
        var capacity: Int
        var failed: Bool
    }

    static func state(_ buffer: borrowing GrowingBuffer) -> State {
        State(count: buffer.count, capacity: buffer.capacity, failed: buffer.failed)
    }

    static func bytes(_ buffer: borrowing GrowingBuffer, _ range: Range<Int>) -> [UInt8] {
        Array(buffer.bytes(range))
    }

    /// Appends of every size from 0 to 300 bytes, across many reallocations, read back exactly.
    @Test func growsAndKeepsEveryByte() {
        var buffer = GrowingBuffer(initialCapacity: 1)
        var expected: [UInt8] = []
        for size in 0...300 {
            let fill = UInt8(truncatingIfNeeded: size)
            buffer.append(size) { w in
                for _ in 0..<size { w.byte(fill) }
            }
            expected += repeatElement(fill, count: size)
            buffer.byte(0xEE)
            expected.append(0xEE)
        }
        let state = Self.state(buffer)
        #expect(!state.failed)
        #expect(state.count == expected.count)
        #expect(state.capacity >= state.count)
        #expect(Self.bytes(buffer, 0..<state.count) == expected)
    }

    /// A write longer or shorter than its reservation: nothing past it is written, and the
    /// buffer is failed (its bytes are never used).
    @Test(arguments: [(4, 5), (4, 3), (0, 1)])
    func writeThatDoesNotMatchItsReservationFails(_ reserved: Int, _ written: Int) {
        var buffer = GrowingBuffer()
        buffer.append(reserved) { w in
            for _ in 0..<written { w.byte(1) }
        }
        #expect(Self.state(buffer).failed)
        #expect(Self.state(buffer).count == 0)
        buffer.byte(2)  // ignored once failed
        #expect(Self.state(buffer).count == 0)
    }

    /// A negative reservation, or one whose end overflows `Int`, fails instead of allocating or wrapping.
    @Test(arguments: [-1, Int.max])
    func impossibleReservationFails(_ size: Int) {
        var buffer = GrowingBuffer()
        buffer.byte(1)
        buffer.append(size) { _ in }
        #expect(Self.state(buffer).failed)
        #expect(Self.state(buffer).count == 1)
    }

    /// Ranges outside the written bytes read as empty, never past them.
    @Test func readsOutsideTheWrittenBytesAreEmpty() {
        var buffer = GrowingBuffer()
        buffer.append(3) { w in w.varint(0x4000) }  // 80 80 01
        #expect(Self.bytes(buffer, 0..<3) == [0x80, 0x80, 0x01])
        #expect(Self.bytes(buffer, 0..<4).isEmpty)
        #expect(Self.bytes(buffer, 2..<9).isEmpty)
        #expect(Self.bytes(buffer, 1..<2).count == 1)
    }

    /// Emptying keeps modest memory for the next run and frees large memory.
    @Test func removeAllKeepsOnlyBoundedMemory() {
        var buffer = GrowingBuffer()
        buffer.append(100) { w in for _ in 0..<100 { w.byte(9) } }
        buffer.removeAll(keepingCapacityUpTo: 1 << 16)
        let kept = Self.state(buffer)
        #expect(kept.count == 0 && kept.capacity >= 100 && !kept.failed)
        buffer.append(70_000) { w in for _ in 0..<70_000 { w.byte(9) } }
        buffer.removeAll(keepingCapacityUpTo: 1 << 16)
        let freed = Self.state(buffer)
        #expect(freed.count == 0 && freed.capacity <= 1 << 16 && !freed.failed)
        // An empty write after the large memory was given back (an empty `Data` encoded on a
        // thread that encoded a large value before) needs memory too: it failed the buffer.
        buffer.append(0) { _ in }
        #expect(!Self.state(buffer).failed)
        buffer.byte(5)
        #expect(Self.bytes(buffer, 0..<1) == [5])
    }

    /// The same through the encoder: a value over the kept 64 KiB, then an empty one.
    @Test func anEmptyValueAfterALargeOneOnOneThread() throws {
        let large = Data(repeating: 7, count: 100_000)
        for format in [BinaryFormat.v3, .v2] {
            let encoder = BinaryEncoder(format: format)
            _ = try encoder.encode(large)
            #expect(try encoder.encode(Data()).count <= 1)
            #expect(try encoder.encode(tree: .data(Data())).count <= 1)
        }
    }

    /// `setBits` and `truncate` work only inside the written bytes; anywhere else they fail the
    /// buffer and touch no memory.
    @Test func patchesStayInsideTheWrittenBytes() {
        var buffer = GrowingBuffer()
        buffer.append(3) { w in
            w.byte(0x10)
            w.byte(0x20)
            w.byte(0x30)
        }
        buffer.setBits(0x02, at: 1)
        #expect(Self.bytes(buffer, 0..<3) == [0x10, 0x22, 0x30])
        buffer.truncate(to: 2)
        #expect(Self.state(buffer).count == 2 && !Self.state(buffer).failed)

        for offset in [-1, 2, 3, Int.max] {
            var b = GrowingBuffer()
            b.append(2) { w in w.littleEndian(UInt16(7)) }
            b.setBits(1, at: offset)
            #expect(Self.state(b).failed, "setBits at \(offset)")
        }
        for offset in [-1, 3, Int.max] {
            var b = GrowingBuffer()
            b.append(2) { w in w.littleEndian(UInt16(7)) }
            b.truncate(to: offset)
            #expect(Self.state(b).failed, "truncate to \(offset)")
        }
    }
}
