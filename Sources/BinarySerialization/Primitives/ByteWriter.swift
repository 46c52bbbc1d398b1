/// Writes bytes into a buffer that was sized exactly beforehand (no bounds growth, no checks
/// beyond debug assertions: the size pass guarantees the room).
struct ByteWriter {
    let base: UnsafeMutableRawPointer
    private(set) var offset = 0

    init(base: UnsafeMutableRawPointer) { self.base = base }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
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
        base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        offset &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func bigEndian<T: FixedWidthInteger>(_ value: T) {
        base.storeBytes(of: value.bigEndian, toByteOffset: offset, as: T.self)
        offset &+= MemoryLayout<T>.size
    }

    @inline(__always)
    mutating func bytes(_ buffer: UnsafeRawBufferPointer) {
        guard let source = buffer.baseAddress, buffer.count > 0 else { return }
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
