/// Writes bytes into a buffer that was sized beforehand by a size pass.
///
/// The writer never trusts the size pass: every write first checks that it fits in `capacity`
/// (one comparison). A write that does not fit writes nothing and sets ``overflowed``, after which
/// the caller (`Output.make`) throws instead of returning the bytes. So a size pass and a write
/// pass that disagree give an `EncodingError`, never a write past the buffer.
struct ByteWriter {
    let base: UnsafeMutableRawPointer
    /// The number of bytes `base` has room for.
    let capacity: Int
    /// The number of bytes written; never more than `capacity`.
    private(set) var offset = 0
    /// Whether a write did not fit and was dropped; the output is then unusable.
    private(set) var overflowed = false

    init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = max(capacity, 0)
    }

    /// Whether `n` more bytes fit; records the overflow if not.
    @inline(__always)
    private mutating func fits(_ n: Int) -> Bool {
        // `capacity - offset` cannot overflow: 0 <= offset <= capacity.
        if _fastPath(n <= capacity &- offset) { return true }
        overflowed = true
        return false
    }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        guard fits(1) else { return }
        base.storeBytes(of: b, toByteOffset: offset, as: UInt8.self)
        offset &+= 1
    }

    /// A base-128 varint, at most 9 bytes: the 9th byte carries the top 8 bits whole.
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        if v < 0x80 {
            byte(UInt8(truncatingIfNeeded: v))
            return
        }
        for _ in 0..<8 {
            if v < 0x80 {
                byte(UInt8(truncatingIfNeeded: v))
                return
            }
            byte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        byte(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    mutating func littleEndian<T: FixedWidthInteger>(_ value: T) {
        guard fits(MemoryLayout<T>.size) else { return }
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func bigEndian<T: FixedWidthInteger>(_ value: T) {
        guard fits(MemoryLayout<T>.size) else { return }
        base.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
        offset &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func bytes(_ buffer: UnsafeRawBufferPointer) {
        guard let source = buffer.baseAddress, buffer.count > 0, fits(buffer.count) else { return }
        (base + offset).copyMemory(from: source, byteCount: buffer.count)
        offset &+= buffer.count
    }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { bytes(UnsafeRawBufferPointer($0)) }
    }
}

/// The number of bytes of `value` as a varint (1...9).
@inline(__always)
func varintSize(_ value: UInt64) -> Int {
    if value < 1 << 7 { return 1 }
    if value >= 1 << 56 { return 9 }
    // Bits needed, 7 per byte.
    let bits = 64 - value.leadingZeroBitCount
    return (bits + 6) / 7
}

@inline(__always)
func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
@inline(__always)
func zigZag(_ v: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (v << 1) ^ (v >> 31))) }
@inline(__always)
func zigZag(_ v: Int16) -> UInt64 { UInt64(UInt16(bitPattern: (v << 1) ^ (v >> 15))) }
@inline(__always)
func unZigZag(_ u: UInt64) -> Int64 { Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))) }
