// The integer rules of both wire formats, written once: the byte writer and reader of
// BinarySerialization and the per-type coding members (`zigZagEncoded`, `variableLengthEncoding`...)
// all call these.

/// `v` zig-zag mapped (0, -1, 1, -2... become 0, 1, 2, 3...), so small magnitudes make short varints.
@inlinable @inline(__always)
package func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
/// `v` zig-zag mapped in its own 32 bits.
@inlinable @inline(__always)
package func zigZag(_ v: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (v << 1) ^ (v >> 31))) }
/// `v` zig-zag mapped in its own 16 bits.
@inlinable @inline(__always)
package func zigZag(_ v: Int16) -> UInt64 { UInt64(UInt16(bitPattern: (v << 1) ^ (v >> 15))) }
/// The inverse of ``zigZag(_:)-(Int64)``; a value below 2^n maps back into n-bit range.
@inlinable @inline(__always)
package func unZigZag(_ u: UInt64) -> Int64 { Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))) }

/// Hands `body` the bytes of `value` as a varint: base 128, low group first, at most 9 bytes,
/// the 9th taking the top 8 bits whole (BinaryCodable's varint, not protobuf's 10-byte one).
@inlinable @inline(__always)
package func forEachVarintByte(_ value: UInt64, _ body: (UInt8) -> Void) {
    var v = value
    if v < 0x80 {
        body(UInt8(truncatingIfNeeded: v))
        return
    }
    for _ in 0..<8 {
        if v < 0x80 {
            body(UInt8(truncatingIfNeeded: v))
            return
        }
        body(UInt8(truncatingIfNeeded: v) | 0x80)
        v >>= 7
    }
    body(UInt8(truncatingIfNeeded: v))
}

/// What reading one varint found.
@usableFromInline
package enum VarintReading {
    /// The value, and the offset just after its last byte.
    case value(UInt64, next: Int)
    /// The bytes ended before the varint did.
    case truncated
    /// A multi-byte varint whose last byte is zero: a shorter encoding of the same value exists,
    /// and no writer produces this one.
    case overLong
}

/// Reads the varint of ``forEachVarintByte(_:_:)`` from `buffer[start..<end]`.
@inlinable
package func readVarint(_ buffer: UnsafeRawBufferPointer, from start: Int, end: Int) -> VarintReading {
    var offset = start
    var result: UInt64 = 0
    var shift: UInt64 = 0
    for _ in 0..<8 {
        guard offset < end else { return .truncated }
        let b = buffer[offset]
        offset &+= 1
        result |= UInt64(b & 0x7f) << shift
        if b < 0x80 {
            if b == 0, offset &- start > 1 { return .overLong }
            return .value(result, next: offset)
        }
        shift &+= 7
    }
    guard offset < end else { return .truncated }
    let last = buffer[offset]
    if last == 0 { return .overLong }
    return .value(result | (UInt64(last) << 56), next: offset &+ 1)
}
