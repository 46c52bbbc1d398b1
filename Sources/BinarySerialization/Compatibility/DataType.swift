/// BinaryCodable 2.x's name for the wire type that the legacy format (``BinaryFormat/v2``)
/// stores in the low three bits of every key; the raw values are those bits.
public enum DataType: Int, Sendable {
    /// A varint (integers other than `Int8`, `UInt8`, `Int16`, `UInt16`, and `Bool`).
    case variableLengthInteger = 0
    /// One byte (`Int8`, `UInt8`).
    case byte = 6
    /// Two bytes (`Int16`, `UInt16`).
    case twoBytes = 7
    /// A varint length, then that many bytes (strings, data, containers).
    case variableLength = 2
    /// Four bytes (`Float`, fixed-size 32-bit integers).
    case fourBytes = 5
    /// Eight bytes (`Double`, fixed-size 64-bit integers).
    case eightBytes = 1

    /// The wire type the v2 writer and reader use for this data type.
    var wireType: V2WireType {
        switch self {
        case .variableLengthInteger: return .varint
        case .byte: return .byte
        case .twoBytes: return .twoBytes
        case .variableLength: return .lengthDelimited
        case .fourBytes: return .fourBytes
        case .eightBytes: return .eightBytes
        }
    }
}
