import TreeCoding

/// Writes bytes into a buffer that was sized beforehand.
///
/// The writer never trusts the size: every write first checks that it fits in `capacity` (one
/// comparison). A write that does not fit writes nothing and sets ``overflowed``, after which the
/// caller (`Output.make`) throws instead of returning the bytes. So a size and writes that
/// disagree give an `EncodingError`, never a write past the buffer.
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

    /// A varint (the rule: ``forEachVarintByte(_:_:)``).
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        forEachVarintByte(value) { byte($0) }
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
