import TreeCoding

/// The wire rules of Protocol Buffers (proto3), written once for the protobuf writer and reader.
///
/// A field is a tag varint (`fieldNumber << 3 | wireType`) followed by a value in that wire type.
/// Its varints (up to 10 bytes) are ``ProtobufVarint``'s, in Primitives/ with the other varint.
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

    static func tag(_ field: Int, _ type: ProtobufWireType) -> UInt64 {
        // `field` is in `fieldNumbers` (checked by the callers), so the shift cannot overflow.
        UInt64(truncatingIfNeeded: field) << 3 | UInt64(type.rawValue)
    }
}
