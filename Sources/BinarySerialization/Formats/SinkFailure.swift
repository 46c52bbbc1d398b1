import Foundation
import TreeCoding

/// Why a sink could not write what it was sent. A streamed run then starts again through the
/// tree; the tree path turns it into the `EncodingError` (``error(at:)``).
enum SinkFailure {
    /// Nested deeper than the sink's node limit (``DepthGuard/nodeLimit(maximumDepth:)``).
    case tooDeep(limit: Int)
    /// A negative integer key: v3 has no bytes for it.
    case negativeKey(Int)
    /// An integer key outside -2^59..<2^59: v2 has no bytes for it.
    case keyOutOfV2Range(Int)
    /// Stored v3 bytes of a field the decoding type did not read: v2 needs a wire type.
    case unknownBytesInV2
    /// An unkeyed container's `encodeNil()` in v2 without nil index sets.
    case nilElementWithoutIndexSet
    /// A rule of proto3 (boxed: the enum stays a word and a tag, and so does every frame of a
    /// tree's replay that holds one).
    case protobuf(ProtobufRefusal)
    /// Events out of the contract's order: only the streaming encoder's own runs can send them,
    /// and it gives up before (the tree path never does).
    case unexpectedEvent

    /// The error of the tree path for a failure at `path`.
    func error(at path: [BinaryKey]) -> EncodingError {
        let value: Any
        let message: String
        switch self {
        case .tooDeep(let limit):
            value = limit
            message = """
                The tree is nested deeper than the maximum depth allows a tree: \(limit) nested nodes, \
                \(DepthGuard.nodesPerLevel) per level.
                """
        case .negativeKey(let key):
            value = key
            message = "Integer key \(key) is negative, which v3 cannot write."
        case .keyOutOfV2Range(let key):
            value = key
            message = "Integer key \(key) is outside -2^59..<2^59, which v2 can write."
        case .unknownBytesInV2:
            value = BinaryValue.unknown(Data())
            message = """
                A field the decoding type did not read is kept as stored v3 bytes; v2 needs its \
                wire type, which those bytes do not say. Decode with a type that reads the field.
                """
        case .nilElementWithoutIndexSet:
            value = BinaryValue.nil
            message = """
                The v2 format cannot store encodeNil() in an unkeyed container unless \
                prependNilIndexSetForUnkeyedContainers is set on the encoder (and the decoder).
                """
        case .protobuf(let refusal):
            return .invalidValue(
                refusal.shownValue,
                .init(codingPath: path, debugDescription: "Protobuf: \(refusal.rule)", underlyingError: refusal.code))
        case .unexpectedEvent:
            value = BinaryValue.nil
            message = "Internal inconsistency: the writer was sent events out of order."
        }
        return .invalidValue(value, .init(codingPath: path, debugDescription: message))
    }
}

/// A rule of proto3 that a sink refused to break: its code, its statement and the value.
final class ProtobufRefusal {
    let code: ProtobufEncodingError
    let rule: String
    /// The value refused, or a tree node standing for it (see ``shownValue``).
    var value: Any
    /// Whether ``value`` is a stand-in for the value still to come (a refused key is seen before
    /// its value): the sink replaces it with the next value it is sent.
    var awaitsValue: Bool

    init(_ code: ProtobufEncodingError, _ rule: String, _ value: Any, awaitsValue: Bool = false) {
        self.code = code
        self.rule = rule
        self.value = value
        self.awaitsValue = awaitsValue
    }

    /// Takes `node` as the refused value, if the refusal awaits one.
    func receive(_ node: BinaryValue) {
        guard awaitsValue else { return }
        value = node
        awaitsValue = false
    }

    /// The value as the user wrote it, for `EncodingError.invalidValue`: a tree leaf as its Swift
    /// value (`Int32` 150, not `BinaryValue.int32`), a container as a short account of what it is.
    var shownValue: Any {
        guard let node = value as? BinaryValue else { return value }
        return Self.swiftValue(node)
    }

    private static func swiftValue(_ node: BinaryValue) -> Any {
        switch node {
        case .nil, .optional(.none): return "nil"
        case .bool(let v): return v
        case .int8(let v): return v
        case .uint8(let v): return v
        case .int16(let v, _): return v
        case .uint16(let v, _): return v
        case .int32(let v, _): return v
        case .uint32(let v, _): return v
        case .int64(let v, _): return v
        case .uint64(let v, _): return v
        case .int(let v, _): return v
        case .uint(let v, _): return v
        case .float(let v): return v
        case .double(let v): return v
        case .string(let v): return v
        case .data(let v): return v
        case .single(let inner), .optional(.some(let inner)): return swiftValue(inner)
        case .packed(let array): return "an array of \(array.count) \(array.elementKind.rawValue)"
        case .unkeyed: return "an unkeyed container"
        case .keyed: return "a keyed container"
        case .unknown(let bytes): return "stored field bytes (\(byteCount(bytes.count)))"
        }
    }

}
