import TreeCoding

/// What ``ProtobufSink`` builds instead of bytes for `encodeTree`: the protobuf tree of the
/// fields it decided to write, with fields at their default value kept (the writer leaves them
/// out) and fields with presence as `.optional`.
///
/// The shape (what the sink writes when the tree is replayed into it):
/// - a message is `.keyed`, its keys the field numbers;
/// - a scalar is a leaf whose integer encoding names its proto type (`.varint`: `int32`...,
///   `.zigZag`: `sint32`..., `.fixed`: `fixed32`...);
/// - `.optional(x)` is a field with presence, `.optional(nil)` an absent one;
/// - a repeated field is `.unkeyed`, or `.packed` for an array of plain numbers;
/// - a map is `.unkeyed` of entry messages `[1: key, 2: value]`, sorted by key, both present;
/// - a oneof member is an `.optional` field of the enclosing message;
/// - `.unknown(bytes)` is a whole field that the decoding type did not know.
final class ProtobufTreeOutput {
    private enum Frame {
        case message(number: Int, present: Bool, fields: [KeyedFields.Field])
        case repeated(number: Int, elements: [BinaryValue])
    }

    private var frames: [Frame] = []
    /// The top-level message, once closed.
    private(set) var result: BinaryValue?

    /// Opens message `number` (0: the top level, or an element of the open repeated field).
    func openMessage(_ number: Int, present: Bool) {
        frames.append(.message(number: number, present: present, fields: []))
    }

    func openRepeated(_ number: Int) {
        frames.append(.repeated(number: number, elements: []))
    }

    /// Closes the innermost message or repeated field and puts it where it belongs.
    func close() {
        guard let frame = frames.popLast() else { return }
        switch frame {
        case .message(let number, let present, let fields):
            let message = BinaryValue.keyed(KeyedFields(uniqueFields: fields))
            put(present ? .optional(message) : message, number: number)
        case .repeated(let number, let elements):
            put(.unkeyed(elements), number: number)
        }
    }

    /// Field `number` of the open message holds `node`.
    func field(_ number: Int, _ node: BinaryValue) {
        guard case .message(let n, let present, var fields) = frames.popLast() else { return }
        fields.append(KeyedFields.Field(key: BinaryKey(intValue: number), value: node))
        frames.append(.message(number: n, present: present, fields: fields))
    }

    /// The open repeated field gains `node`.
    func element(_ node: BinaryValue) {
        guard case .repeated(let n, var elements) = frames.popLast() else { return }
        elements.append(node)
        frames.append(.repeated(number: n, elements: elements))
    }

    private func put(_ node: BinaryValue, number: Int) {
        switch frames.last {
        case .message?: field(number, node)
        case .repeated?: element(node)
        case nil: result = node
        }
    }
}

extension BinaryValue {
    /// The leaf as the protobuf tree holds it: see ``IntegerEncoding/protobuf(plain:)``.
    func protobufTreeLeaf(plainSigned: Bool) -> BinaryValue {
        switch self {
        case .int32(let v, let e): return .int32(v, e.protobuf(plain: plainSigned))
        case .int64(let v, let e): return .int64(v, e.protobuf(plain: plainSigned))
        case .int(let v, let e): return .int(v, e.protobuf(plain: plainSigned))
        default: return self
        }
    }
}
