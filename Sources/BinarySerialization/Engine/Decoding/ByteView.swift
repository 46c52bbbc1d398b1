import Foundation

/// The format-independent plumbing of decoding from bytes: a node is a range of the input plus
/// a few format-defined fields; a ``ByteFormat`` (v3 or v2, in BinarySerialization) interprets it.
///
/// The decoder works on these concrete types rather than on generic nodes, so that none of its
/// code runs unspecialized: every request is one call into the format.

/// A position in the input shared by an unkeyed container and the element being read from it,
/// for a format whose elements carry no lengths (only reading one tells where the next starts).
final class ByteCursor {
    /// The read position. (Accessors rather than the stored property itself: the formats read
    /// and move it from another module, where `@exclusivity(unchecked)` is not seen and every
    /// access paid the run-time exclusivity check, about 140 instructions.)
    var offset: Int {
        get { storedOffset }
        set { storedOffset = newValue }
    }
    @exclusivity(unchecked) private var storedOffset: Int
    /// Where the container's bytes end.
    var end: Int { storedEnd }
    @exclusivity(unchecked) private var storedEnd: Int
    /// Whether `end` is only where the bytes received so far end (a stream decoder's element),
    /// rather than a length-delimited value's end.
    let isOpenEnded: Bool

    /// Format-defined state of the unkeyed container the cursor reads (kept here rather than in
    /// ``ByteUnkeyedView``, which must stay under 64 bytes: a larger view is copied, with a
    /// retain and release of each reference, whenever it is made):
    /// indices of elements stored without bytes of their own, ascending (a format may list its
    /// nil elements before the container), and the next one not yet reached.
    var absentIndices: [Int] { storedAbsentIndices }
    @exclusivity(unchecked) private var storedAbsentIndices: [Int] = []
    var nextAbsent: Int {
        get { storedNextAbsent }
        set { storedNextAbsent = newValue }
    }
    @exclusivity(unchecked) private var storedNextAbsent = 0
    /// The element type, when the decoder knows it in advance (SIMD vectors).
    var elementHint: ScalarKind? { storedElementHint }
    @exclusivity(unchecked) private var storedElementHint: ScalarKind?

    init(
        offset: Int, end: Int, isOpenEnded: Bool = false, absentIndices: [Int] = [], elementHint: ScalarKind? = nil
    ) {
        self.storedOffset = offset
        self.storedEnd = end
        self.isOpenEnded = isOpenEnded
        self.storedAbsentIndices = absentIndices
        self.storedElementHint = elementHint
    }

    /// Lets go of the run's list of absent indices (its size follows the input).
    func forget() {
        if !storedAbsentIndices.isEmpty { storedAbsentIndices = [] }
    }

    /// Makes a cursor no one else refers to (``ByteCursorPool``) serve another container.
    func reset(offset: Int, end: Int, absentIndices: [Int], elementHint: ScalarKind?) {
        storedOffset = offset
        storedEnd = end
        // Usually both empty: then no release and retain.
        if !absentIndices.isEmpty || !storedAbsentIndices.isEmpty { storedAbsentIndices = absentIndices }
        storedNextAbsent = 0
        storedElementHint = elementHint
    }
}

/// One value inside the input bytes.
struct ByteNode {
    let buffer: UnsafeRawBufferPointer
    var start: Int
    var end: Int
    /// Format-defined: how to read the range (a context such as raw or element).
    var tag: UInt8
    /// Format-defined: a second byte of state (a format that types its keys keeps the key's type
    /// here), `0xff` when unused.
    var extra: UInt8
    /// A shared read position, for a format whose elements carry no lengths.
    var cursor: ByteCursor?

    @inline(__always)
    init(
        buffer: UnsafeRawBufferPointer, start: Int, end: Int, tag: UInt8, extra: UInt8 = 0xff,
        cursor: ByteCursor? = nil
    ) {
        self.buffer = buffer
        self.start = start
        self.end = end
        self.tag = tag
        self.extra = extra
        self.cursor = cursor
    }
}

/// A keyed container framed from bytes: each entry's key and value node.
struct ByteKeyedView {
    /// A framed field: plain values, no reference (a framed value never shares a cursor), so
    /// entries are copied, stored and dropped without reference counting.
    ///
    /// Visible to the formats as SPI, with an inlinable initializer: the formats frame one entry
    /// per field, and a `package` initializer is a call from another module.
    struct Entry {
        /// The `intKey` of a string key (no format writes `Int.min` as an integer key).
        static let stringKey = Int.min
        /// The integer key, or ``stringKey`` for a string key.
        var intKey: Int
        var keyStart: Int
        var keyLength: Int
        var valueStart: Int
        var valueEnd: Int
        let buffer: UnsafeRawBufferPointer
        var valueTag: UInt8
        var valueExtra: UInt8

        /// The field's value.
        var value: ByteNode {
            @inline(__always) get {
                ByteNode(buffer: buffer, start: valueStart, end: valueEnd, tag: valueTag, extra: valueExtra)
            }
        }

        /// Whether the key is a string key of the `count` bytes at `name` (its own bytes are in
        /// `buffer`).
        @inline(__always)
        func hasName(_ name: UnsafeRawPointer?, count: Int, in buffer: UnsafeRawBufferPointer) -> Bool {
            intKey == Self.stringKey && keyLength == count && bytesEqual(buffer, keyStart, name, count)
        }

        /// The entry of a field whose value the format framed at `start..<end` of `buffer`.
        @inline(__always)
        public init(
            intKey: Int, keyStart: Int, keyLength: Int, buffer: UnsafeRawBufferPointer, start: Int, end: Int,
            tag: UInt8, extra: UInt8 = 0xff
        ) {
            self.intKey = intKey
            self.keyStart = keyStart
            self.keyLength = keyLength
            self.valueStart = start
            self.valueEnd = end
            self.buffer = buffer
            self.valueTag = tag
            self.valueExtra = extra
        }
    }

    let buffer: UnsafeRawBufferPointer
    let entries: KeyedEntries
    /// Key -> entry, for large containers.
    let index: EntryIndex?

    /// Checks the entries for invalid UTF-8 and repeated keys (both corrupt data) and indexes
    /// large containers.
    init(buffer: UnsafeRawBufferPointer, entries: KeyedEntries) throws {
        self.buffer = buffer
        self.entries = entries
        self.index = try Self.checkedIndex(entries.elements, buffer)
    }

    /// The view of entries checked by ``checkedIndex(_:_:)``, which made `index` (`nil` for a
    /// small container).
    init(checked buffer: UnsafeRawBufferPointer, entries: KeyedEntries, index: EntryIndex? = nil) {
        self.buffer = buffer
        self.entries = entries
        self.index = index
    }

    /// Checks the entries `e` framed from `buffer` for invalid UTF-8 and repeated keys (both
    /// corrupt data); returns an index of a large container's, `nil` for a small one's.
    static func checkedIndex(_ e: UnsafeBufferPointer<Entry>, _ buffer: UnsafeRawBufferPointer) throws
        -> EntryIndex?
    {
        // Common case: integer keys written in ascending order (synthesized `CodingKeys`
        // numbered in declaration order): no string key to check, and none can repeat.
        if e.count <= KeyLookup.scanLimit, Self.strictlyAscendingIntKeys(e) { return nil }
        for entry in e where entry.intKey == Entry.stringKey && entry.keyLength > 0 {
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[entry.keyStart..<entry.keyStart + entry.keyLength])
            if !isASCII(bytes), !isValidUTF8(bytes) {
                throw WireFormatError(.invalidBytes, "invalid UTF-8 in a string key", offset: entry.keyStart)
            }
        }
        if e.count > KeyLookup.scanLimit {
            let (made, repeated) = EntryIndex.make(e, buffer)
            if let repeated {
                throw WireFormatError(
                    .duplicateKey, "the key \(Self.key(of: e[repeated], buffer)) appears twice",
                    offset: e[repeated].keyStart)
            }
            return made
        }
        guard e.count > 1 else { return nil }
        for i in 1..<e.count {
            for j in 0..<i where Self.sameKey(e[i], e[j], buffer) {
                throw WireFormatError(
                    .duplicateKey, "the key \(Self.key(of: e[i], buffer)) appears twice", offset: e[i].keyStart)
            }
        }
        return nil
    }

    /// Whether every key is an integer key, each greater than the one before (`true` for no keys).
    @inline(__always)
    private static func strictlyAscendingIntKeys(_ e: UnsafeBufferPointer<Entry>) -> Bool {
        guard !e.isEmpty else { return true }
        var previous = e[0].intKey
        if previous == Entry.stringKey { return false }
        var i = 1
        while i < e.count {
            let key = e[i].intKey
            // `stringKey` is `Int.min`, so a string key is never greater than its predecessor.
            if key <= previous { return false }
            previous = key
            i += 1
        }
        return true
    }

    /// Whether two entries have the same key: the same integer, or the same UTF-8 bytes.
    @inline(__always)
    static func sameKey(_ a: Entry, _ b: Entry, _ buffer: UnsafeRawBufferPointer) -> Bool {
        if a.intKey != Entry.stringKey || b.intKey != Entry.stringKey { return a.intKey == b.intKey }
        guard a.keyLength == b.keyLength else { return false }
        return bytesEqual(buffer, a.keyStart, buffer.baseAddress.map { $0 + b.keyStart }, a.keyLength)
    }

    static func key(of e: Entry, _ buffer: UnsafeRawBufferPointer) -> BinaryKey {
        if e.intKey != Entry.stringKey { return BinaryKey(intValue: e.intKey) }
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[e.keyStart..<e.keyStart + e.keyLength])
        return BinaryKey(stringValue: String(decoding: bytes, as: UTF8.self))
    }

    /// The entry of a key (see ``position(_:in:_:hint:)``), through the index when there is one.
    func position(_ key: some CodingKey, hint: Int = 0) -> Int? {
        if let index {
            if let i = key.intValue { return index.position(intKey: i, in: entries.elements) }
            return index.position(name: key.stringValue, in: entries.elements, buffer)
        }
        return Self.position(key, in: entries.elements, buffer, hint: hint)
    }

    /// The entry of a key among `entries` (keys in `buffer`): by integer when the key has one,
    /// else by its UTF-8 bytes.
    ///
    /// Types read their fields in the order they wrote them, almost always, so the search starts
    /// at `hint` (the entry after the last one found) and wraps around.
    @inline(__always)
    static func position(
        _ key: some CodingKey, in entries: UnsafeBufferPointer<Entry>, _ buffer: UnsafeRawBufferPointer, hint: Int
    ) -> Int? {
        if let i = key.intValue { return position(intKey: i, in: entries, hint: hint) }
        return position(name: key.stringValue, in: entries, buffer, hint: hint)
    }

    static func position(intKey: Int, in e: UnsafeBufferPointer<Entry>, hint: Int) -> Int? {
        firstPosition(from: hint, count: e.count) { e[$0].intKey == intKey }
    }

    static func position(name: String, in e: UnsafeBufferPointer<Entry>, _ buffer: UnsafeRawBufferPointer, hint: Int)
        -> Int?
    {
        var name = name
        return name.withUTF8 { utf8 -> Int? in
            let bytes = utf8.baseAddress.map { UnsafeRawPointer($0) }
            return firstPosition(from: hint, count: e.count) { e[$0].hasName(bytes, count: utf8.count, in: buffer) }
        }
    }
}

/// Whether `length` bytes of `buffer` at `offset` equal the bytes at `other`.
@inline(__always)
func bytesEqual(_ buffer: UnsafeRawBufferPointer, _ offset: Int, _ other: UnsafeRawPointer?, _ length: Int) -> Bool {
    if length == 0 { return true }
    guard let base = buffer.baseAddress, let other else { return false }
    return memcmp(base + offset, other, length) == 0
}

/// The state of an unkeyed container read from bytes; the format moves it along.
struct ByteUnkeyedView {
    let buffer: UnsafeRawBufferPointer
    /// The container's first byte: with ``end``, what identifies it in ``UnkeyedCounts``.
    let start: Int
    /// Next unread byte, for a format whose elements carry lengths; the others read through
    /// ``cursor`` and may keep a position of their own here.
    var offset: Int
    let end: Int
    var currentIndex = 0
    /// The shared read position of a format whose elements carry no lengths, with the
    /// container's format-defined state.
    var cursor: ByteCursor?

    /// A view whose elements are read at `cursor` (formats whose elements carry no lengths).
    init(buffer: UnsafeRawBufferPointer, offset: Int, end: Int, cursor: ByteCursor?) {
        self.buffer = buffer
        self.start = offset
        self.offset = offset
        self.end = end
        self.cursor = cursor
    }

    /// A view whose elements carry their lengths (v3).
    init(buffer: UnsafeRawBufferPointer, offset: Int, end: Int) {
        self.init(buffer: buffer, offset: offset, end: end, cursor: nil)
    }
}

/// The element counts of unkeyed containers already counted in one decoding run, so that a type
/// asking `count` once per element does not make the format count the rest of the container
/// each time (O(n²)). A container is known by its byte range, which fixes its count for a format
/// whose count depends on the bytes alone (v3). The format decides what to record: the count, or
/// `nil` when the bytes do not frame.
final class UnkeyedCounts {
    private struct Range: Hashable {
        var base: UnsafeRawPointer?
        var start: Int
        var end: Int
    }

    private var known: [Range: Int?] = [:]

    init() {}

    /// The count recorded for the container of `view`; `.none` if it was never counted, `.some(nil)`
    /// if its bytes did not frame.
    func count(of view: ByteUnkeyedView) -> Int?? {
        known[Range(base: view.buffer.baseAddress.map(UnsafeRawPointer.init), start: view.start, end: view.end)]
    }

    /// How many containers have a recorded count (tests check that a long container is
    /// counted once per run, not once per request).
    var recordedCount: Int { known.count }

    /// Records the count of the container of `view`.
    func record(_ count: Int?, of view: ByteUnkeyedView) {
        known[Range(base: view.buffer.baseAddress.map(UnsafeRawPointer.init), start: view.start, end: view.end)] = count
    }
}

/// A wire format's reading of byte nodes.
protocol ByteFormat: Sendable {
    /// Whether the format's bytes depend on Swift type facts the requests do not carry (protobuf:
    /// a plain `Int32` is `int32`, a wrapper's zig-zag `sint32`; a missing field is its default).
    static var needsTypeFacts: Bool { get }
    /// The node a keyed container reads for a key it does not hold, where the format gives a
    /// missing field its default (protobuf); `nil` where a missing key is missing.
    static func absentField() -> ByteNode?
    /// A primitive whose integer encoding a wrapper chose (``decodeScalar(_:_:)`` elsewhere).
    static func decodeChosenScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue
    static func isNil(_ node: ByteNode) -> Bool
    /// Frames the entries of a keyed container, appending them to `entries` (empty on entry; its
    /// capacity is kept from earlier containers). ``ByteKeyedView`` checks them.
    static func keyedEntries(_ node: inout ByteNode, into entries: KeyedEntries) throws
    /// The view of an unkeyed container; a format that needs a shared cursor takes it from
    /// `cursors` when there is a pool.
    static func unkeyedView(_ node: inout ByteNode, elementHint: ScalarKind?, cursors: ByteCursorPool?) throws
        -> ByteUnkeyedView
    static func singleValueContent(_ node: inout ByteNode) throws -> ByteNode?
    static func optionalContent(_ node: inout ByteNode) throws -> ByteNode?
    /// Whether the content of a single-value container is the format's spelling of nil.
    static func singleValueHoldsNil(_ content: ByteNode) -> Bool
    /// A type decoded nothing from `node`: consume its stored empty container.
    static func finishUnopened(_ node: inout ByteNode) throws
    /// A field's value as stored, kept in `decodeTree` when the type does not read it; `nil`
    /// when the format cannot write it back without knowing its type.
    static func unreadValue(_ node: ByteNode) -> BinaryValue?
    /// After the content from ``optionalContent(_:)`` was decoded: check nothing is left over.
    static func finishContent(_ node: ByteNode, _ content: ByteNode) throws
    static func decodeScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue
    /// A fixed-size primitive (any kind but a string or data) as its bits
    /// (``ScalarKind/leaf(bits:)``), read as ``decodeScalar(_:_:)`` reads it: typed decoding
    /// takes its primitives without a leaf around them.
    static func decodeBits(_ node: inout ByteNode, _ kind: ScalarKind) throws -> UInt64
    /// A string, read as ``decodeScalar(_:_:)`` reads one.
    static func decodeString(_ node: inout ByteNode) throws -> String
    static func decodePacked(_ node: inout ByteNode, _ kind: PackedArray.Kind) throws -> PackedArray
    /// An unkeyed container of strings read in one loop, or `nil` where the format has no such
    /// path (the caller then reads element by element). An error names the element's index in
    /// its `key`.
    static func decodeStringArray(_ node: inout ByteNode) throws -> [String]?

    /// The number of elements of the container (all of them, read or not), `nil` if unknown.
    /// `counts`, when given, holds the counts of this decoding run for the format to reuse.
    static func count(_ view: ByteUnkeyedView, counts: UnkeyedCounts?) -> Int?
    static func isAtEnd(_ view: ByteUnkeyedView) -> Bool
    static func decodeNil(_ view: inout ByteUnkeyedView) throws -> Bool
    /// The node of the next element. A format whose elements carry no lengths checks here
    /// that the element before it was read (one that read nothing would leave this one where
    /// it started, and a loop to the container's end would never end), naming it in the
    /// error's ``WireFormatError/earlierElement``; so does ``decodeNil(_:)``.
    static func nextElement(_ view: inout ByteUnkeyedView) throws -> ByteNode
}

extension ByteFormat {
    static var needsTypeFacts: Bool { false }
    static func absentField() -> ByteNode? { nil }
    static func decodeChosenScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue {
        try decodeScalar(&node, kind)
    }
}
