import TreeCoding

/// Reads bytes from a region of the input, checking every read against the end of the region.
/// Offsets are relative to the start of the whole input, so errors can name them.
struct ByteReader {
    let buffer: UnsafeRawBufferPointer
    var offset: Int
    let end: Int
    /// Whether `end` is only where the bytes received so far end (a stream's element being read
    /// without a length): a truncation there means "wait for more" and carries `regionEnd`. A
    /// region bounded by a length prefix is closed: running past it is corrupt data.
    let isOpenEnded: Bool

    init(buffer: UnsafeRawBufferPointer, offset: Int, end: Int, isOpenEnded: Bool = false) {
        self.buffer = buffer
        self.offset = offset
        self.end = end
        self.isOpenEnded = isOpenEnded
    }

    var remaining: Int { end &- offset }
    var isAtEnd: Bool { offset >= end }

    @inline(__always)
    mutating func byte() throws -> UInt8 {
        guard offset < end else { throw truncated("a byte") }
        let b = buffer[offset]
        offset &+= 1
        return b
    }

    @inline(__always)
    func peekByte() -> UInt8? {
        offset < end ? buffer[offset] : nil
    }

    /// A base-128 varint of at most 9 bytes (the 9th byte is taken whole). Rejects non-minimal
    /// encodings (a multi-byte varint whose last byte is zero).
    @inline(__always)
    mutating func varint() throws -> UInt64 {
        guard offset < end else { throw truncated("a varint") }
        let first = buffer[offset]
        if first < 0x80 {
            offset &+= 1
            return UInt64(first)
        }
        // Two bytes (v2's keys from 8 up, values below 2^14) without the loop.
        if offset &+ 1 < end {
            let second = buffer[offset &+ 1]
            if second < 0x80, second != 0 {
                offset &+= 2
                return UInt64(first & 0x7f) | UInt64(second) << 7
            }
        }
        return try varintSlow()
    }

    /// Varints of two or more bytes that the fast paths above do not take.
    @inline(never)
    private mutating func varintSlow() throws -> UInt64 {
        let start = offset
        switch readVarint(buffer, from: start, end: end) {
        case .value(let value, let next):
            offset = next
            return value
        case .truncated: throw truncated("a varint", at: start)
        case .overLong: throw WireFormatError(.invalidBytes, "over-long varint", offset: start)
        }
    }

    /// A varint that must fit `T`.
    @inline(__always)
    mutating func varint<T: FixedWidthInteger & UnsignedInteger>(as type: T.Type) throws -> T {
        let start = offset
        let v = try varint()
        guard let r = T(exactly: v) else {
            throw WireFormatError(.invalidBytes, "varint \(v) does not fit \(T.self)", offset: start)
        }
        return r
    }

    /// A length (or count) that must not exceed the bytes that remain. (`what` names it in the
    /// error only: an autoclosure, so that an interpolated name costs nothing when it is valid.)
    @inline(__always)
    mutating func length(_ what: @autoclosure () -> String) throws -> Int {
        let start = offset
        let v = try varint()
        guard v <= UInt64(remaining) else {
            var error = WireFormatError(
                .truncated, "\(what()) of \(byteCount(v)) exceeds \(remainingBytes(remaining))", offset: start)
            if isOpenEnded { error.regionEnd = end }
            let (sum, overflow) = offset.addingReportingOverflow(Int(clamping: v))
            error.requiredEnd = overflow ? Int.max : sum
            throw error
        }
        return Int(truncatingIfNeeded: v)
    }

    @inline(__always)
    mutating func littleEndian<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        T(littleEndian: try fixedWidth(T.self))
    }

    @inline(__always)
    mutating func bigEndian<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        T(bigEndian: try fixedWidth(T.self))
    }

    /// The next `T` as stored, unaligned.
    @inline(__always)
    private mutating func fixedWidth<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw truncated("\(size) bytes") }
        let v = buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset &+= size
        return v
    }

    /// The bytes of a string key of `length` bytes (from a key varint read at `keyAt`).
    @inline(__always)
    mutating func keyBytes(_ length: UInt64, keyAt: Int) throws -> (start: Int, length: Int) {
        guard length <= UInt64(remaining) else {
            throw WireFormatError(
                .truncated, "a key of \(byteCount(length)) exceeds \(remainingBytes(remaining))", offset: keyAt)
        }
        let start = offset
        offset &+= Int(truncatingIfNeeded: length)
        return (start, Int(truncatingIfNeeded: length))
    }

    /// Skips `count` bytes, which the caller has checked are there.
    @inline(__always)
    mutating func skip(_ count: Int) throws {
        guard count <= remaining else { throw truncated(bytes: count) }
        offset &+= count
    }

    /// The error of ``skip(_:)``, made out of line with its message.
    @inline(never)
    func truncated(bytes count: Int) -> WireFormatError {
        truncated(byteCount(count))
    }

    @inline(never)
    func truncated(_ what: String, at position: Int? = nil) -> WireFormatError {
        var error = WireFormatError(.truncated, "the data ends before \(what)", offset: position ?? offset)
        if isOpenEnded { error.regionEnd = end }
        return error
    }
}
