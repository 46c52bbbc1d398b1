import TreeCoding

/// Protobuf's varint: base 128, low group first, up to 10 bytes (a negative `int32`/`int64` is
/// sign-extended to 64 bits and takes all 10): not the 9-byte varint of the BinaryCodable formats
/// (IntegerWireRules), so it has its own rules, here beside the byte reader and writer.
enum ProtobufVarint {
    /// The longest protobuf varint: 64 bits in groups of 7.
    static let maximumLength = 10

    /// The number of bytes of `value` as a protobuf varint (1...10).
    static func size(_ value: UInt64) -> Int {
        if value < 1 << 7 { return 1 }
        let bits = 64 - value.leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// Hands `body` the bytes of `value` as a protobuf varint.
    @inline(__always)
    static func forEachByte(_ value: UInt64, _ body: (UInt8) -> Void) {
        var v = value
        while v >= 0x80 {
            body(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        body(UInt8(truncatingIfNeeded: v))
    }
}

extension ByteWriter {
    /// A protobuf varint (the rule: ``ProtobufVarint/forEachByte(_:_:)``).
    @inline(__always)
    mutating func protobufVarint(_ value: UInt64) {
        ProtobufVarint.forEachByte(value) { byte($0) }
    }
}

extension ByteReader {
    /// A protobuf varint: at most 10 bytes, the 10th holding only the top bit. A longer encoding of
    /// a value (trailing `0x80` groups) is accepted, as protobuf parsers accept it.
    mutating func protobufVarint() throws -> UInt64 {
        let start = offset
        guard offset < end else { throw truncated("a varint") }
        let first = buffer[offset]
        if first < 0x80 {
            offset &+= 1
            return UInt64(first)
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        for index in 0..<ProtobufVarint.maximumLength {
            guard offset < end else { throw truncated("a varint", at: start) }
            let b = buffer[offset]
            offset &+= 1
            if index == ProtobufVarint.maximumLength - 1, b > 1 {
                throw WireFormatError(.invalidBytes, "a varint longer than 64 bits", offset: start)
            }
            result |= UInt64(b & 0x7f) << shift
            if b < 0x80 { return result }
            shift &+= 7
        }
        throw WireFormatError(.invalidBytes, "a varint longer than 10 bytes", offset: start)
    }

    /// A protobuf length that must not exceed the bytes that remain: checked before anything is
    /// sized from it.
    mutating func protobufLength(_ what: @autoclosure () -> String) throws -> Int {
        let start = offset
        let v = try protobufVarint()
        guard v <= UInt64(remaining) else {
            throw WireFormatError(
                .truncated, "\(what()) of \(byteCount(v)) exceeds \(remainingBytes(remaining))", offset: start)
        }
        return Int(truncatingIfNeeded: v)
    }
}
