// The varint rules of both wire formats, written once: the byte writer and reader and the
// per-type coding members (`zigZagEncoded`, `variableLengthEncoding`...) all call these.

/// Hands `body` the bytes of `value` as a varint: base 128, low group first, at most 9 bytes,
/// the 9th taking the top 8 bits whole (BinaryCodable's varint, not protobuf's 10-byte one).
@inline(__always)
func forEachVarintByte(_ value: UInt64, _ body: (UInt8) -> Void) {
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
enum VarintReading {
    /// The value, and the offset just after its last byte.
    case value(UInt64, next: Int)
    /// The bytes ended before the varint did.
    case truncated
    /// A multi-byte varint whose last byte is zero: a shorter encoding of the same value exists,
    /// and no writer produces this one.
    case overLong
}

/// Reads the varint of ``forEachVarintByte(_:_:)`` from `buffer[start..<end]`.

func readVarint(_ buffer: UnsafeRawBufferPointer, from start: Int, end: Int) -> VarintReading {
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
