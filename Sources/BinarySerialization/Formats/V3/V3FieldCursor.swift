/// Reads a generated type's fields from a v3 keyed container in place, in the order the type asks
/// for them (``BinaryFieldReader``): each field's key is compared as bytes with the next entry's,
/// and its element is read where it lies, with no entries framed and no key looked up.
///
/// It only ever answers for what it is sure of: a field that is the next entry, or one that is
/// absent from the few entries left. Anything else (a field out of order, an entry it cannot
/// frame, entries left when the type is done) is the framed container's to answer, which also
/// gives every error, so both paths report the same one (see ``BinaryFieldReader``).
struct V3FieldCursor {
    private let buffer: UnsafeRawBufferPointer
    private var offset: Int
    private let end: Int
    /// The fields found so far, one bit each: a field is found once (a second entry of the same
    /// key is the framed container's error to report).
    private var found: UInt64 = 0
    /// The type's key bytes; the reader's ``GeneratedKeys`` holds them.
    private let keys: Unmanaged<FieldKeyBytes>

    /// The most entries ``isAbsent(_:)`` looks through: past them, framing the container once
    /// costs less than looking ahead once per absent field.
    static let lookAhead = 8

    /// A cursor on the keyed container of v3 bytes at `start..<end` of `buffer`.
    init(_ buffer: UnsafeRawBufferPointer, start: Int, end: Int, keys: FieldKeyBytes) {
        self.buffer = buffer
        offset = start
        self.end = end
        self.keys = Unmanaged.passUnretained(keys)
    }

    /// A cursor on `node` when it is a keyed container of v3 bytes and `keys` can be matched as
    /// bytes; `nil` otherwise.
    @inline(__always)
    static func on(_ node: DecodingNode, format: (any ByteFormat.Type)?, keys: FieldKeyBytes?) -> V3FieldCursor? {
        guard let keys, format == V3Format.self, case .bytes(let bytes) = node, bytes.tag != V3Format.nilElement
        else { return nil }
        return V3FieldCursor(bytes.buffer, start: bytes.start, end: bytes.end, keys: keys)
    }

    /// Whether every entry was found.
    var isAtEnd: Bool { offset == end }

    /// Field `field`'s element when the next entry holds it; `nil` otherwise.
    @inline(__always)
    mutating func next(_ field: Int) -> V3Element? {
        guard let bit = unfound(field), let valueAt = keyEnd(field, at: offset) else { return nil }
        var r = ByteReader(buffer: buffer, offset: valueAt, end: end)
        guard let element = try? r.v3Element() else { return nil }
        offset = r.offset
        found |= bit
        return element
    }

    /// The bits of a primitive of `kind` in `element`; `nil` when it holds none (the framed
    /// container reports why).
    @inline(__always)
    func bits(_ kind: ScalarKind, of element: V3Element) -> UInt64? {
        try? V3Format.bits(kind, of: element, in: buffer)
    }

    /// The string in `element`; `nil` when it holds none.
    @inline(__always)
    func string(_ element: V3Element) -> String? {
        try? V3Format.string(element, in: buffer)
    }

    /// `element` as a node, for a value read by the decoder.
    @inline(__always)
    func node(_ element: V3Element) -> ByteNode {
        ByteNode(buffer: buffer, start: element.start, end: element.end, tag: element.tag)
    }

    /// Whether field `field` is in none of the entries left, which are at most ``lookAhead`` and
    /// all frame; `false` when unsure.
    mutating func isAbsent(_ field: Int) -> Bool {
        guard unfound(field) != nil else { return false }
        var r = ByteReader(buffer: buffer, offset: offset, end: end)
        for _ in 0..<Self.lookAhead {
            if r.isAtEnd { return true }
            let keyAt = r.offset
            if keyEnd(field, at: keyAt) != nil { return false }
            guard let raw = try? r.varint() else { return false }
            if case .string(let byteCount) = V3Framing.key(raw), (try? r.keyBytes(byteCount, keyAt: keyAt)) == nil {
                return false
            }
            guard !r.isAtEnd, (try? r.v3Element()) != nil else { return false }
        }
        return r.isAtEnd
    }

    /// The bit of `field` when it is one of the type's fields and not found yet.
    @inline(__always)
    private func unfound(_ field: Int) -> UInt64? {
        guard field >= 0, field < keys._withUnsafeGuaranteedRef({ $0.count }) else { return nil }
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: field)
        return found & bit == 0 ? bit : nil
    }

    /// Where the value after field `field`'s key starts, when the entry at `at` has that key and
    /// a byte after it.
    @inline(__always)
    private func keyEnd(_ field: Int, at: Int) -> Int? {
        keys._withUnsafeGuaranteedRef { keys in
            let key = keys[field]
            let count = key.count
            guard end &- at > count, let base = buffer.baseAddress, let expected = key.baseAddress else { return nil }
            // A key is a few bytes: compared here, not by a call to `memcmp`.
            var i = 0
            while i < count {
                guard
                    base.load(fromByteOffset: at &+ i, as: UInt8.self)
                        == expected.load(fromByteOffset: i, as: UInt8.self)
                else { return nil }
                i &+= 1
            }
            return at &+ count
        }
    }
}
