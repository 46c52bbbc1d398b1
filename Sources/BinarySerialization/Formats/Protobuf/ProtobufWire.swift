import TreeCoding

/// The wire rules of Protocol Buffers (proto3), written once for the protobuf writer and reader.
///
/// A field is a tag varint (`fieldNumber << 3 | wireType`) followed by a value in that wire type.
/// Protobuf's varint is base 128, low group first, up to 10 bytes (a negative `int32`/`int64` is
/// sign-extended to 64 bits and takes all 10): not the 9-byte varint of the BinaryCodable formats.
enum ProtobufWireType: UInt8, Sendable, CustomStringConvertible {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5

    var description: String {
        switch self {
        case .varint: return "varint"
        case .fixed64: return "fixed64"
        case .lengthDelimited: return "length-delimited"
        case .startGroup: return "start group"
        case .endGroup: return "end group"
        case .fixed32: return "fixed32"
        }
    }
}

enum ProtobufWire {
    /// Field numbers are 29 bits; 0 is not a field number.
    static let fieldNumbers = 1...((1 << 29) - 1)
    /// The longest protobuf varint: 64 bits in groups of 7.
    static let maximumVarintLength = 10

    static func tag(_ field: Int, _ type: ProtobufWireType) -> UInt64 {
        // `field` is in `fieldNumbers` (checked by the callers), so the shift cannot overflow.
        UInt64(truncatingIfNeeded: field) << 3 | UInt64(type.rawValue)
    }

    /// The number of bytes of `value` as a protobuf varint (1...10).
    static func varintSize(_ value: UInt64) -> Int {
        if value < 1 << 7 { return 1 }
        let bits = 64 - value.leadingZeroBitCount
        return (bits + 6) / 7
    }

    /// Hands `body` the bytes of `value` as a protobuf varint.
    @inline(__always)
    static func forEachVarintByte(_ value: UInt64, _ body: (UInt8) -> Void) {
        var v = value
        while v >= 0x80 {
            body(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        body(UInt8(truncatingIfNeeded: v))
    }
}

extension ByteWriter {
    /// A protobuf varint (the rule: ``ProtobufWire/forEachVarintByte(_:_:)``).
    @inline(__always)
    mutating func protobufVarint(_ value: UInt64) {
        ProtobufWire.forEachVarintByte(value) { byte($0) }
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
        for index in 0..<ProtobufWire.maximumVarintLength {
            guard offset < end else { throw truncated("a varint", at: start) }
            let b = buffer[offset]
            offset &+= 1
            if index == ProtobufWire.maximumVarintLength - 1, b > 1 {
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
