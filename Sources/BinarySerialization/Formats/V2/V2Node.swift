import TreeCoding

/// The read position shared by an unkeyed v2 container and the element being decoded from it:
/// v2 elements carry no lengths, so only reading an element tells where the next one starts.
final class V2Cursor {
    var offset: Int
    let end: Int

    init(offset: Int, end: Int) {
        self.offset = offset
        self.end = end
    }
}

/// A zero-copy view of one v2 value.
///
/// - `raw`: a value whose extent is known (the whole input, the value of a key, the content of a
///   length-delimited value); it must fill its range. `wireType` is the key's wire type, if any.
/// - `element`: the next value of an unkeyed container (or after an optional's flag), read from
///   the shared cursor; its extent is found by reading it as the requested type.
/// - `nilElement`: an index of the container's nil index set.
struct V2Node: DecodingNode {
    enum Mode {
        case raw(start: Int, end: Int, wireType: V2WireType?)
        case element(V2Cursor, start: Int)
        case nilElement(offset: Int)
    }

    let buffer: UnsafeRawBufferPointer
    let options: V2Options
    var mode: Mode

    static func root(_ buffer: UnsafeRawBufferPointer, options: V2Options) -> V2Node {
        V2Node(buffer: buffer, options: options, mode: .raw(start: 0, end: buffer.count, wireType: nil))
    }

    var isNil: Bool {
        if case .nilElement = mode { return true }
        return false
    }

    var byteOffset: Int? {
        switch mode {
        case .raw(let start, _, _): return start
        case .element(let cursor, _): return cursor.offset
        case .nilElement(let offset): return offset
        }
    }

    @inline(never)
    private func foundNil(_ expected: String) -> WireFormatError {
        WireFormatError(.valueNotFound, "expected \(expected), found nil", offset: byteOffset)
    }

    /// Checks that a key's wire type fits the request.
    @inline(__always)
    private func expect(_ type: V2WireType, for what: @autoclosure () -> String) throws {
        guard case .raw(let start, _, let actual?) = mode, actual != type else { return }
        // Bool has been written both as a varint and as a byte.
        if type == .varint, actual == .byte, what() == "Bool" { return }
        throw WireFormatError(
            .typeMismatch, "expected \(what()) (wire type \(type)), found wire type \(actual)", offset: start)
    }

    /// The range of a length-delimited value: the raw range, or a length read at the cursor.
    /// In element mode the node becomes that raw range, so asking twice gives the same answer.
    private mutating func delimitedRange(_ what: @autoclosure () -> String) throws -> (Int, Int) {
        switch mode {
        case .raw(let start, let end, _):
            try expect(.lengthDelimited, for: what())
            return (start, end)
        case .element(let cursor, _):
            var r = ByteReader(buffer: buffer, offset: cursor.offset, end: cursor.end)
            let length = try r.length("the length of \(what())")
            let start = r.offset
            cursor.offset = start + length
            mode = .raw(start: start, end: start + length, wireType: nil)
            return (start, start + length)
        case .nilElement:
            throw foundNil(what())
        }
    }

    mutating func keyedView() throws -> V2KeyedView {
        let (start, end) = try delimitedRange("a keyed container")
        return try V2KeyedView(buffer: buffer, options: options, start: start, end: end)
    }

    mutating func unkeyedView(elementHint: ScalarKind?) throws -> V2UnkeyedView {
        let (start, end) = try delimitedRange("an unkeyed container")
        return try V2UnkeyedView(buffer: buffer, options: options, start: start, end: end, elementHint: elementHint)
    }

    /// v2 writes nothing for a single-value container: the content is this node.
    mutating func singleValueContent() throws -> V2Node? {
        if case .nilElement = mode { return nil }
        return self
    }

    /// An optional is a flag byte (`01` present, `00` nil) and then the value as an element.
    mutating func optionalContent() throws -> V2Node? {
        let cursor: V2Cursor
        switch mode {
        case .nilElement:
            return nil
        case .raw(let start, let end, _):
            try expect(.lengthDelimited, for: "an optional")
            cursor = V2Cursor(offset: start, end: end)
        case .element(let shared, _):
            cursor = shared
        }
        let at = cursor.offset
        guard at < cursor.end else {
            var error = WireFormatError(.truncated, "the data ends before the flag of an optional", offset: at)
            error.regionEnd = cursor.end
            throw error
        }
        switch buffer[at] {
        case 0:
            cursor.offset = at + 1
            if case .raw(_, let end, _) = mode, at + 1 != end {
                throw WireFormatError(.trailingBytes, "\(end - at - 1) bytes follow a nil optional", offset: at + 1)
            }
            return nil
        case 1:
            cursor.offset = at + 1
            return V2Node(buffer: buffer, options: options, mode: .element(cursor, start: at + 1))
        case let b:
            throw WireFormatError(.invalidBytes, "an optional's flag must be 0 or 1, found \(b)", offset: at)
        }
    }

    /// After an optional's value: content read from a raw range must fill it.
    func finishContent(_ content: V2Node) throws {
        guard case .raw(_, let end, _) = mode, case .element(let cursor, _) = content.mode else { return }
        if cursor.offset != end {
            throw WireFormatError(.trailingBytes, "\(end - cursor.offset) bytes follow an optional's value", offset: cursor.offset)
        }
    }

    mutating func decodeScalar(_ kind: ScalarKind) throws -> BinaryValue {
        switch kind {
        case .string, .data:
            let (start, end) = try delimitedRange("\(kind)")
            var r = ByteReader(buffer: buffer, offset: start, end: end)
            return try Scalars.read(kind, from: &r)
        default:
            break
        }
        switch mode {
        case .nilElement:
            throw foundNil("\(kind)")
        case .raw(let start, let end, _):
            try expect(V2WireType.of(kind), for: "\(kind)")
            var r = ByteReader(buffer: buffer, offset: start, end: end)
            let value = try Scalars.read(kind, from: &r)
            guard r.isAtEnd else {
                throw WireFormatError(.trailingBytes, "\(r.remaining) bytes follow a \(kind)", offset: r.offset)
            }
            return value
        case .element(let cursor, _):
            var r = ByteReader(buffer: buffer, offset: cursor.offset, end: cursor.end)
            let value = try Scalars.read(kind, from: &r)
            cursor.offset = r.offset
            return value
        }
    }

    mutating func decodePacked(_ kind: PackedArray.Kind) throws -> PackedArray {
        let (start, end) = try delimitedRange("[\(kind.rawValue)]")
        var r = ByteReader(buffer: buffer, offset: start, end: end)
        return try Scalars.readPacked(kind, from: &r)
    }
}
