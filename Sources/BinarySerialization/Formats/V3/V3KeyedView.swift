import Foundation
import TreeCoding

/// A keyed v3 container, framed once when opened: each entry is a key (`varint(k << 1)` or
/// `varint(len << 1 | 1)` + UTF-8) followed by an element. A key may appear once; a repeated
/// key is rejected as corrupt data, so a value can never be read two different ways.
struct V3KeyedView: KeyedNodeView {
    struct Entry {
        /// The integer key, or -1 for a string key.
        var intKey: Int
        var keyStart: Int
        var keyLength: Int
        var value: V3Node
    }

    let buffer: UnsafeRawBufferPointer
    let entries: [Entry]
    /// Key -> entry position, for large containers only.
    let index: [BinaryKey: Int]?

    static let indexThreshold = 16

    init(buffer: UnsafeRawBufferPointer, start: Int, end: Int) throws {
        self.buffer = buffer
        var r = ByteReader(buffer: buffer, offset: start, end: end)
        var entries: [Entry] = []
        while !r.isAtEnd {
            let keyAt = r.offset
            let raw = try r.varint()
            var entry: Entry
            if raw & 1 == 1 {
                let length = raw >> 1
                guard length <= UInt64(r.remaining) else {
                    throw WireFormatError(
                        .truncated, "a key of \(length) bytes exceeds the \(r.remaining) bytes that remain", offset: keyAt)
                }
                let keyStart = r.offset
                r.offset += Int(truncatingIfNeeded: length)
                entry = Entry(intKey: -1, keyStart: keyStart, keyLength: Int(truncatingIfNeeded: length),
                              value: V3Node(buffer: buffer, start: 0, end: 0, context: .nilElement))
            } else {
                entry = Entry(intKey: Int(truncatingIfNeeded: raw >> 1), keyStart: keyAt, keyLength: 0,
                              value: V3Node(buffer: buffer, start: 0, end: 0, context: .nilElement))
            }
            guard !r.isAtEnd else {
                throw WireFormatError(.truncated, "the data ends after a key, before its value", offset: r.offset)
            }
            entry.value = try r.v3Element()
            entries.append(entry)
        }
        self.entries = entries
        if entries.count > Self.indexThreshold {
            var map = [BinaryKey: Int](minimumCapacity: entries.count)
            for (i, e) in entries.enumerated() {
                let key = Self.key(of: e, buffer)
                if map.updateValue(i, forKey: key) != nil {
                    throw WireFormatError(.duplicateKey, "the key \(key) appears twice", offset: e.keyStart)
                }
            }
            index = map
        } else {
            index = nil
            try Self.rejectDuplicates(entries, buffer)
        }
    }

    private static func rejectDuplicates(_ entries: [Entry], _ buffer: UnsafeRawBufferPointer) throws {
        guard entries.count > 1 else { return }
        for i in 1..<entries.count {
            for j in 0..<i where sameKey(entries[i], entries[j], buffer) {
                throw WireFormatError(
                    .duplicateKey, "the key \(key(of: entries[i], buffer)) appears twice", offset: entries[i].keyStart)
            }
        }
    }

    private static func sameKey(_ a: Entry, _ b: Entry, _ buffer: UnsafeRawBufferPointer) -> Bool {
        if a.intKey >= 0 || b.intKey >= 0 { return a.intKey == b.intKey }
        guard a.keyLength == b.keyLength else { return false }
        return bytesEqual(buffer, a.keyStart, buffer.baseAddress.map { $0 + b.keyStart }, a.keyLength)
    }

    static func key(of e: Entry, _ buffer: UnsafeRawBufferPointer) -> BinaryKey {
        if e.intKey >= 0 { return BinaryKey(intValue: e.intKey) }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[e.keyStart..<e.keyStart + e.keyLength])
        return BinaryKey(stringValue: String(decoding: bytes, as: UTF8.self))
    }

    var allKeys: [BinaryKey] { entries.map { Self.key(of: $0, buffer) } }

    @inline(__always)
    private func position(_ key: some CodingKey) -> Int? {
        if let index { return index[BinaryKey(key)] }
        if let i = key.intValue {
            for p in entries.indices where entries[p].intKey == i { return p }
            return nil
        }
        var name = key.stringValue
        return name.withUTF8 { utf8 -> Int? in
            for p in entries.indices {
                let e = entries[p]
                guard e.intKey < 0, e.keyLength == utf8.count else { continue }
                if bytesEqual(buffer, e.keyStart, utf8.baseAddress.map { UnsafeRawPointer($0) }, e.keyLength) {
                    return p
                }
            }
            return nil
        }
    }

    func contains(_ key: some CodingKey) -> Bool { position(key) != nil }

    func node(forKey key: some CodingKey) throws -> V3Node? {
        position(key).map { entries[$0].value }
    }
}

/// Whether `length` bytes of `buffer` at `offset` equal the bytes at `other`.
@inline(__always)
func bytesEqual(_ buffer: UnsafeRawBufferPointer, _ offset: Int, _ other: UnsafeRawPointer?, _ length: Int) -> Bool {
    if length == 0 { return true }
    guard let base = buffer.baseAddress, let other else { return false }
    return memcmp(base + offset, other, length) == 0
}
