import Foundation
import TreeCoding

/// Reading v3 bytes.
///
/// Node tags: `raw` nodes are the whole input or the content of a single-value container, where
/// a `.single` or `Optional` starts with a nil byte (`00` value, `01` nil); `element` nodes come
/// from a container, whose length prefix already said "not nil"; `nilElement` is a container's `01`.
enum V3Format: ByteFormat {
    static let raw: UInt8 = 0
    static let element: UInt8 = 1
    static let nilElement: UInt8 = 2

    /// The whole input as a raw node.
    static func root(_ buffer: UnsafeRawBufferPointer) -> ByteNode {
        ByteNode(buffer: buffer, start: 0, end: buffer.count, tag: raw)
    }

    static func isNil(_ node: ByteNode) -> Bool { node.tag == Self.nilElement }

    @inline(never)
    private static func foundNil(_ expected: String, _ node: ByteNode) -> WireFormatError {
        foundNil(expected, at: node.start)
    }

    @inline(never)
    private static func foundNil(_ expected: String, at offset: Int) -> WireFormatError {
        WireFormatError(.valueNotFound, "expected \(expected), found nil", offset: offset)
    }

    /// A keyed container: entries of a key (`varint(k << 1)`, or `varint(len << 1 | 1)` and UTF-8)
    /// followed by an element. A repeated key is corrupt data.
    static func keyedEntries(_ node: inout ByteNode, into entries: KeyedEntries) throws {
        if node.tag == Self.nilElement { throw foundNil("a keyed container", node) }
        var r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
        let stringKey = ByteKeyedView.Entry.stringKey
        while !r.isAtEnd {
            let keyAt = r.offset
            let raw = try r.varint()
            if raw == 0, r.isAtEnd { throw trailingZero(at: keyAt) }
            var intKey = stringKey
            var keyStart = keyAt
            var keyLength = 0
            switch V3Framing.key(raw) {
            case .string(let byteCount): (keyStart, keyLength) = try r.keyBytes(byteCount, keyAt: keyAt)
            case .int(let key): intKey = key
            }
            do {
                guard !r.isAtEnd else {
                    throw WireFormatError(.truncated, "the data ends after a key, before its value", offset: r.offset)
                }
                let value = try r.v3Element()
                // `extra` spelled out: a default argument of another module's function is a call.
                entries.append(
                    intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: node.buffer, start: value.start,
                    end: value.end, tag: value.tag, extra: 0xff)
            } catch var error as WireFormatError {
                // The field whose value could not be framed, for the error's coding path.
                let field = ByteKeyedView.Entry(
                    intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: node.buffer, start: r.offset,
                    end: r.offset, tag: Self.element)
                error.key = ByteKeyedView.key(of: field, node.buffer)
                throw error
            }
        }
    }

    static func unkeyedView(_ node: inout ByteNode, elementHint: ScalarKind?, cursors: ByteCursorPool?) throws
        -> ByteUnkeyedView
    {
        if node.tag == Self.nilElement { throw foundNil("an unkeyed container", node) }
        return ByteUnkeyedView(buffer: node.buffer, offset: node.start, end: node.end)
    }

    static func singleValueContent(_ node: inout ByteNode) throws -> ByteNode? {
        switch node.tag {
        case Self.nilElement:
            return nil
        case Self.element:
            var content = node
            content.tag = Self.raw
            return content
        default:
            guard node.start < node.end else {
                throw WireFormatError(
                    .truncated, "the data ends before the nil indicator of a single value", offset: node.start)
            }
            switch node.buffer[node.start] {
            case 0:
                var content = node
                content.start += 1
                return content
            case 1:
                guard node.end == node.start + 1 else {
                    throw WireFormatError(
                        .trailingBytes, "\(byteCount(node.end - node.start - 1)) after a nil indicator",
                        offset: node.start + 1)
                }
                return nil
            case let b:
                throw WireFormatError(.invalidBytes, "a nil indicator must be 0 or 1, found \(b)", offset: node.start)
            }
        }
    }

    static func optionalContent(_ node: inout ByteNode) throws -> ByteNode? { try singleValueContent(&node) }

    /// v3 marks a single-value nil with its nil byte, so the content itself never stands for nil.
    static func singleValueHoldsNil(_ content: ByteNode) -> Bool { false }

    /// Every v3 value has a known extent: nothing to consume.
    static func finishUnopened(_ node: inout ByteNode) throws {}

    /// A field's element, kept as its bytes (or nil): the length prefix is rewritten from them.
    static func unreadValue(_ node: ByteNode) -> BinaryValue? {
        if node.tag == Self.nilElement { return .nil }
        guard node.start < node.end else { return .unknown(Data()) }
        return .unknown(Data(UnsafeRawBufferPointer(rebasing: node.buffer[node.start..<node.end])))
    }

    static func finishContent(_ node: ByteNode, _ content: ByteNode) throws {}

    @inline(__always)
    static func decodeScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue {
        try readScalar(node.buffer, V3Element(node), kind) { try Scalars.read(kind, from: &$0) }
    }

    static func decodeBits(_ node: inout ByteNode, _ kind: ScalarKind) throws -> UInt64 {
        try bits(kind, of: V3Element(node), in: node.buffer)
    }

    static func decodeString(_ node: inout ByteNode) throws -> String {
        try string(V3Element(node), in: node.buffer)
    }

    /// The bits of the primitive of `kind` in `element` of `buffer` (``decodeBits(_:_:)``
    /// without a node: ``V3FieldCursor`` reads its fields this way).
    @inline(__always)
    static func bits(_ kind: ScalarKind, of element: V3Element, in buffer: UnsafeRawBufferPointer) throws -> UInt64 {
        try readScalar(buffer, element, kind) { try Scalars.readBits(kind, from: &$0) }
    }

    /// The string in `element` of `buffer` (``decodeString(_:)`` without a node).
    static func string(_ element: V3Element, in buffer: UnsafeRawBufferPointer) throws -> String {
        try readScalar(buffer, element, .string) { try Scalars.readString(&$0) }
    }

    /// A primitive of `kind` that `read` takes from the element's bytes, which it must use up.
    @inline(__always)
    private static func readScalar<T>(
        _ buffer: UnsafeRawBufferPointer, _ element: V3Element, _ kind: ScalarKind,
        _ read: (inout ByteReader) throws -> T
    ) throws -> T {
        if element.tag == Self.nilElement { throw foundNil(kind.withArticle, at: element.start) }
        var r = ByteReader(buffer: buffer, offset: element.start, end: element.end)
        let value = try read(&r)
        guard r.isAtEnd else { throw extraBytes(after: kind, buffer, element, at: r.offset) }
        return value
    }

    @inline(never)
    private static func extraBytes(
        after kind: ScalarKind, _ buffer: UnsafeRawBufferPointer, _ element: V3Element, at offset: Int
    ) -> WireFormatError {
        let node = ByteNode(buffer: buffer, start: element.start, end: element.end, tag: element.tag)
        return BinarySerialization.extraBytes(after: kind, node, at: offset, atRoot: element.tag == Self.raw)
    }

    static func decodePacked(_ node: inout ByteNode, _ kind: PackedArray.Kind) throws -> PackedArray {
        if node.tag == Self.nilElement { throw foundNil("[\(kind.rawValue)]", node) }
        var r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
        return try Scalars.readPacked(kind, from: &r)
    }

    /// `[String]`: each element is `varint(length << 1)` and the UTF-8 bytes, read in one loop
    /// (the element-by-element path costs three format calls and a node per string).
    static func decodeStringArray(_ node: inout ByteNode) throws -> [String]? {
        if node.tag == Self.nilElement { throw foundNil("[String]", node) }
        var r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
        var out: [String] = []
        var index = 0
        while !r.isAtEnd {
            do {
                let element = try r.v3Element()
                if element.tag == Self.nilElement { throw foundNil("String", at: element.start) }
                var content = ByteReader(buffer: node.buffer, offset: element.start, end: element.end)
                out.append(try Scalars.readString(&content))
            } catch var error as WireFormatError {
                error.key = BinaryKey.index(index)
                throw error
            }
            index &+= 1
        }
        return out
    }

    // MARK: Unkeyed containers: elements one after another

    /// Counted by skipping the length prefixes; `nil` when the bytes do not frame. The count
    /// depends on the container's bytes alone, so with `counts` it is worked out once per
    /// container and run: asking once per element stays O(n) overall. Only counts that took more
    /// than ``recordedCountMinimum`` steps are recorded (cheaper ones are cheap to redo), so the
    /// record stays small next to the input, however many small containers it holds.
    static func count(_ view: ByteUnkeyedView, counts: UnkeyedCounts?) -> Int? {
        if let known = counts?.count(of: view) { return known }
        var r = ByteReader(buffer: view.buffer, offset: view.offset, end: view.end)
        var steps = 0
        var framed = true
        while !r.isAtEnd {
            guard (try? r.v3Element()) != nil else {
                framed = false
                break
            }
            steps += 1
        }
        let total = framed ? view.currentIndex + steps : nil
        if steps > Self.recordedCountMinimum { counts?.record(total, of: view) }
        return total
    }

    /// Counts of at most this many steps are not recorded.
    static let recordedCountMinimum = 32

    static func isAtEnd(_ view: ByteUnkeyedView) -> Bool { view.offset >= view.end }

    static func decodeNil(_ view: inout ByteUnkeyedView) throws -> Bool {
        guard view.offset < view.end else {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: view.offset)
        }
        guard view.buffer[view.offset] == V3Framing.nilByte else { return false }
        view.offset += 1
        view.currentIndex += 1
        return true
    }

    @inline(__always)
    static func nextElement(_ view: inout ByteUnkeyedView) throws -> ByteNode {
        guard view.offset < view.end else {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: view.offset)
        }
        var r = ByteReader(buffer: view.buffer, offset: view.offset, end: view.end)
        let element = try r.v3Element()
        view.offset = r.offset
        view.currentIndex += 1
        return ByteNode(buffer: view.buffer, start: element.start, end: element.end, tag: element.tag)
    }
}

/// Where one element of a v3 container lies: its content's range and how to read it
/// (``V3Format/element`` or ``V3Format/nilElement``). Plain values: framing makes one per field,
/// and a `ByteNode` (another module's type) would cost a call to make and a release to drop.
struct V3Element {
    var start: Int
    var end: Int
    var tag: UInt8
}

extension V3Element {
    /// The element a node of v3 bytes stands for.
    @inline(__always)
    init(_ node: ByteNode) { self.init(start: node.start, end: node.end, tag: node.tag) }
}

/// Reads one element of a v3 container: `01` is nil, else `varint(length << 1)` and the bytes.
extension ByteReader {
    @inline(__always)
    mutating func v3Element() throws -> V3Element {
        let at = offset
        let prefix = try varint()
        let length: UInt64
        switch V3Framing.element(prefix) {
        case .value(let bytes): length = bytes
        case .nilElement: return V3Element(start: offset, end: offset, tag: V3Format.nilElement)
        case .nilWithLength:
            throw WireFormatError(.invalidBytes, "a nil indicator with a length (prefix \(prefix))", offset: at)
        }
        guard length <= UInt64(remaining) else {
            throw WireFormatError(
                .truncated, "an element of \(byteCount(length)) exceeds \(remainingBytes(remaining))", offset: at)
        }
        let start = offset
        offset &+= Int(truncatingIfNeeded: length)
        return V3Element(start: start, end: offset, tag: V3Format.element)
    }
}
