import TreeCoding

/// A zero-copy view of one v3 value inside the input bytes.
///
/// `raw` nodes are the whole input or the content of a single-value container: a `.single`
/// or `Optional` there starts with a nil byte. `element` nodes come from a container, whose
/// length prefix already said "not nil". `nilElement` nodes are the `01` of a container.
struct V3Node: DecodingNode {
    enum Context { case raw, element, nilElement }

    let buffer: UnsafeRawBufferPointer
    let start: Int
    let end: Int
    let context: Context

    /// The whole input as a raw node.
    static func root(_ buffer: UnsafeRawBufferPointer) -> V3Node {
        V3Node(buffer: buffer, start: 0, end: buffer.count, context: .raw)
    }

    var isNil: Bool { context == .nilElement }
    var byteOffset: Int? { start }

    private var reader: ByteReader { ByteReader(buffer: buffer, offset: start, end: end) }

    @inline(never)
    private func foundNil(_ expected: String) -> WireFormatError {
        WireFormatError(.valueNotFound, "expected \(expected), found nil", offset: start)
    }

    func keyedView() throws -> V3KeyedView {
        if context == .nilElement { throw foundNil("a keyed container") }
        return try V3KeyedView(buffer: buffer, start: start, end: end)
    }

    func unkeyedView(elementHint: ScalarKind?) throws -> V3UnkeyedView {
        if context == .nilElement { throw foundNil("an unkeyed container") }
        return V3UnkeyedView(reader: reader)
    }

    func singleValueContent() throws -> V3Node? {
        switch context {
        case .nilElement:
            return nil
        case .element:
            return V3Node(buffer: buffer, start: start, end: end, context: .raw)
        case .raw:
            guard start < end else {
                throw WireFormatError(.truncated, "the data ends before the nil indicator of a single value", offset: start)
            }
            switch buffer[start] {
            case 0:
                return V3Node(buffer: buffer, start: start + 1, end: end, context: .raw)
            case 1:
                guard end == start + 1 else {
                    throw WireFormatError(.trailingBytes, "\(end - start - 1) bytes follow a nil indicator", offset: start + 1)
                }
                return nil
            case let b:
                throw WireFormatError(.invalidBytes, "a nil indicator must be 0 or 1, found \(b)", offset: start)
            }
        }
    }

    func optionalContent() throws -> V3Node? { try singleValueContent() }

    func decodeScalar(_ kind: ScalarKind) throws -> BinaryValue {
        if context == .nilElement { throw foundNil("\(kind)") }
        var r = reader
        let value = try Scalars.read(kind, from: &r)
        guard r.isAtEnd else {
            throw WireFormatError(.trailingBytes, "\(r.remaining) bytes follow a \(kind)", offset: r.offset)
        }
        return value
    }

    func decodePacked(_ kind: PackedArray.Kind) throws -> PackedArray {
        if context == .nilElement { throw foundNil("[\(kind.rawValue)]") }
        var r = reader
        return try Scalars.readPacked(kind, from: &r)
    }
}

/// Reads one element of a v3 container: `01` is nil, else `varint(length << 1)` and the bytes.
extension ByteReader {
    @inline(__always)
    mutating func v3Element() throws -> V3Node {
        let at = offset
        let prefix = try varint()
        if prefix & 1 == 1 {
            guard prefix == 1 else {
                throw WireFormatError(.invalidBytes, "a nil indicator with a length (prefix \(prefix))", offset: at)
            }
            return V3Node(buffer: buffer, start: offset, end: offset, context: .nilElement)
        }
        let length = prefix >> 1
        guard length <= UInt64(remaining) else {
            throw WireFormatError(
                .truncated, "an element of \(length) bytes exceeds the \(remaining) bytes that remain", offset: at)
        }
        let start = offset
        offset &+= Int(truncatingIfNeeded: length)
        return V3Node(buffer: buffer, start: start, end: offset, context: .element)
    }
}

/// An unkeyed v3 container: elements one after another.
struct V3UnkeyedView: UnkeyedNodeView {
    var reader: ByteReader
    private(set) var currentIndex = 0

    init(reader: ByteReader) { self.reader = reader }

    var isAtEnd: Bool { reader.isAtEnd }

    /// Counted by skipping the length prefixes; `nil` when the bytes do not frame.
    var count: Int? {
        var r = reader
        var n = currentIndex
        while !r.isAtEnd {
            guard (try? r.v3Element()) != nil else { return nil }
            n += 1
        }
        return n
    }

    mutating func decodeNil() throws -> Bool {
        guard let b = reader.peekByte() else {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: reader.offset)
        }
        guard b == 1 else { return false }
        reader.offset += 1
        currentIndex += 1
        return true
    }

    mutating func nextElement() throws -> V3Node {
        guard !reader.isAtEnd else {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: reader.offset)
        }
        let node = try reader.v3Element()
        currentIndex += 1
        return node
    }

    func finishElement(_ node: V3Node) throws {}
}
