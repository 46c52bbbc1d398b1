import Foundation
import TreeCoding

/// A keyed v2 container: each entry is a key varint carrying the wire type
/// (`k << 4 | type` or `len << 4 | 8 | type` + UTF-8), then the value in that wire type.
/// A repeated key is rejected as corrupt data.
struct V2KeyedView: KeyedNodeView {
    struct Entry {
        var intKey: Int
        var keyStart: Int
        var keyLength: Int
        var value: V2Node
    }

    let buffer: UnsafeRawBufferPointer
    let entries: [Entry]
    let index: [BinaryKey: Int]?

    init(buffer: UnsafeRawBufferPointer, options: V2Options, start: Int, end: Int) throws {
        self.buffer = buffer
        var r = ByteReader(buffer: buffer, offset: start, end: end)
        var entries: [Entry] = []
        while !r.isAtEnd {
            let keyAt = r.offset
            let raw = try r.varint()
            guard let type = V2WireType(rawValue: UInt8(raw & 7)) else {
                throw WireFormatError(.invalidBytes, "unknown wire type \(raw & 7)", offset: keyAt)
            }
            var entry = Entry(intKey: -1, keyStart: keyAt, keyLength: 0, value: V2Node.root(buffer, options: options))
            if raw & 8 != 0 {
                let length = raw >> 4
                guard length <= UInt64(r.remaining) else {
                    throw WireFormatError(
                        .truncated, "a key of \(length) bytes exceeds the \(r.remaining) bytes that remain", offset: keyAt)
                }
                entry.keyStart = r.offset
                entry.keyLength = Int(truncatingIfNeeded: length)
                r.offset += entry.keyLength
            } else {
                entry.intKey = Int(truncatingIfNeeded: raw >> 4)
            }
            let valueAt = r.offset
            let valueStart: Int
            switch type {
            case .varint:
                _ = try r.varint()
                valueStart = valueAt
            case .eightBytes:
                try r.skip(8)
                valueStart = valueAt
            case .fourBytes:
                try r.skip(4)
                valueStart = valueAt
            case .twoBytes:
                try r.skip(2)
                valueStart = valueAt
            case .byte:
                try r.skip(1)
                valueStart = valueAt
            case .lengthDelimited:
                let length = try r.length("a value")
                valueStart = r.offset
                r.offset += length
            }
            entry.value = V2Node(buffer: buffer, options: options, mode: .raw(start: valueStart, end: r.offset, wireType: type))
            entries.append(entry)
        }
        self.entries = entries
        var map: [BinaryKey: Int] = [:]
        for (i, e) in entries.enumerated() {
            let key = Self.key(of: e, buffer)
            if map.updateValue(i, forKey: key) != nil {
                throw WireFormatError(.duplicateKey, "the key \(key) appears twice", offset: e.keyStart)
            }
        }
        index = map
    }

    static func key(of e: Entry, _ buffer: UnsafeRawBufferPointer) -> BinaryKey {
        if e.intKey >= 0 { return BinaryKey(intValue: e.intKey) }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[e.keyStart..<e.keyStart + e.keyLength])
        return BinaryKey(stringValue: String(decoding: bytes, as: UTF8.self))
    }

    var allKeys: [BinaryKey] { entries.map { Self.key(of: $0, buffer) } }

    func contains(_ key: some CodingKey) -> Bool { index?[BinaryKey(key)] != nil }

    func node(forKey key: some CodingKey) throws -> V2Node? {
        index?[BinaryKey(key)].map { entries[$0].value }
    }
}

/// An unkeyed v2 container: elements back to back, optionally after a nil index set.
/// The element count is unknown without the element type (`nil`), except when the container
/// is empty or the decoder names the element type in advance (SIMD vectors).
struct V2UnkeyedView: UnkeyedNodeView {
    let buffer: UnsafeRawBufferPointer
    let options: V2Options
    let cursor: V2Cursor
    private(set) var currentIndex = 0
    /// Indices written with `encodeNil()`, ascending.
    let nilIndices: [Int]
    private var nextNil = 0
    let elementHint: ScalarKind?

    init(buffer: UnsafeRawBufferPointer, options: V2Options, start: Int, end: Int, elementHint: ScalarKind?) throws {
        self.buffer = buffer
        self.options = options
        self.elementHint = elementHint
        var r = ByteReader(buffer: buffer, offset: start, end: end)
        var nils: [Int] = []
        if options.nilIndexSets {
            let countAt = r.offset
            let count = try r.varint()
            guard count <= UInt64(r.remaining) else {
                throw WireFormatError(.truncated, "a nil index set of \(count) entries exceeds the data", offset: countAt)
            }
            for _ in 0..<Int(count) {
                let at = r.offset
                let i = try r.varint()
                guard i <= UInt64(Int32.max), nils.last.map({ UInt64($0) < i }) ?? true else {
                    throw WireFormatError(.invalidBytes, "nil index \(i) is out of order or too large", offset: at)
                }
                nils.append(Int(i))
            }
        }
        nilIndices = nils
        cursor = V2Cursor(offset: r.offset, end: end)
    }

    private var atNil: Bool { nextNil < nilIndices.count && nilIndices[nextNil] == currentIndex }

    var isAtEnd: Bool { cursor.offset >= cursor.end && !atNil }

    var count: Int? {
        let remainingNils = nilIndices.count - nextNil
        if cursor.offset >= cursor.end { return currentIndex + remainingNils }
        guard let hint = elementHint else { return nil }
        var r = ByteReader(buffer: buffer, offset: cursor.offset, end: cursor.end)
        var n = 0
        while !r.isAtEnd {
            guard (try? Scalars.read(hint, from: &r)) != nil else { return nil }
            n += 1
        }
        return currentIndex + n + remainingNils
    }

    mutating func decodeNil() throws -> Bool {
        if atNil {
            nextNil += 1
            currentIndex += 1
            return true
        }
        if cursor.offset >= cursor.end {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: cursor.offset)
        }
        return false
    }

    mutating func nextElement() throws -> V2Node {
        if atNil {
            nextNil += 1
            currentIndex += 1
            return V2Node(buffer: buffer, options: options, mode: .nilElement(offset: cursor.offset))
        }
        guard cursor.offset < cursor.end else {
            throw WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: cursor.offset)
        }
        currentIndex += 1
        return V2Node(buffer: buffer, options: options, mode: .element(cursor, start: cursor.offset))
    }

    /// Every element occupies at least one byte; one that read nothing would loop forever.
    func finishElement(_ node: V2Node) throws {
        switch node.mode {
        case .element(_, let start):
            if cursor.offset == start {
                throw WireFormatError(.invalidBytes, "an element was decoded without reading any bytes", offset: start)
            }
        case .raw, .nilElement:
            // A length-delimited element read its length; a nil element has no bytes.
            break
        }
    }
}
