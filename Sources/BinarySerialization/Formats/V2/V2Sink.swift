import Foundation
import TreeCoding

/// The v2 writer: writes v2 bytes as the streaming encoder sends a value, and trees sent to it
/// as the same events (``TreeReplay``).
///
/// The approach is ``V3Sink``'s: content goes into a buffer without the length prefixes that
/// only the end of a node gives, a side table records where each prefix goes, and `finish()`
/// copies the content once into the output with the prefixes in place. O(n) whatever the
/// nesting. The rules are ``V2Framing``'s; three need more than one event:
///
/// - A key carries its value's wire type, which the key event does not say. The key is written
///   at once with wire type 0 (the type lives in the low three bits of the key's first byte, so
///   it does not change the key's size), and the first event of the value that is not a `.single`
///   bracket (v2 writes nothing for those) sets the bits. A field v2 leaves out (a nil optional
///   or a bare nil straight after its key) takes its key back off the buffer.
/// - An unkeyed container's `encodeNil()` elements go into a nil index set written before the
///   elements, known only when the container ends: the side table holds it too, at the start of
///   the container's content, and the container's length counts it.
/// - What v2 cannot write (a nil element without nil index sets, an integer key outside
///   -2^59..<2^59, unknown v3 bytes) marks the sink failed (``SinkFailure``): a streamed run
///   starts again through the tree, whose replay reports the error with its coding path.
///
/// Mutable state is `@exclusivity(unchecked)`, as in ``V3Sink``: a sink belongs to one run on
/// one thread, and no method keeps a property accessed while calling out.
final class V2Sink: ByteSink {
    @exclusivity(unchecked) private var buffer = GrowingBuffer()
    /// Length prefixes and nil index sets, in the order of their positions.
    @exclusivity(unchecked) private var insertions: [Insertion] = []
    /// The indices of the nil index sets written so far, each set in one run.
    @exclusivity(unchecked) private var nilIndices: [Int] = []
    /// The nil elements of the open unkeyed containers (each container owns a suffix).
    @exclusivity(unchecked) private var openNils: [Int] = []
    /// The open bracketed nodes, innermost last; the first is the top level.
    @exclusivity(unchecked) private var contexts: [Context] = []
    /// Where the key waiting for its value's wire type starts in `buffer`, or -1.
    @exclusivity(unchecked) private var keyAt = -1
    /// Whether that key has no v2 bytes (an error once its value is written), and the key.
    @exclusivity(unchecked) private var keyIsInvalid = false
    @exclusivity(unchecked) private var invalidKey = 0
    /// Whether a `.single` bracket came between that key and now (its value is then written even
    /// if it is nil).
    @exclusivity(unchecked) private var keyThroughSingle = false
    @exclusivity(unchecked) private var nilIndexSets = false
    @exclusivity(unchecked) private var depthLimit = 0
    @exclusivity(unchecked) private(set) var failure: SinkFailure?

    /// Bytes to insert at `position` of the content: a length prefix `varint(value)` when `nils`
    /// is -1, else a nil index set of `value` indices stored from `nilIndices[nils]` on.
    private struct Insertion {
        let position: Int
        var value = 0
        var nils = -1
    }

    private enum Kind { case top, keyed, unkeyed, single, optional }

    private struct Context {
        let kind: Kind
        /// How the nodes inside are written (a `.single` passes its own context on).
        let children: V2Framing.Context
        /// The index of this node's length prefix in `insertions`, or -1.
        let prefix: Int
        /// The index of this unkeyed container's nil index set in `insertions`, or -1.
        let nilSet: Int
        /// Where this unkeyed container's nil elements start in `openNils`.
        let nilStart: Int
        /// The bytes of insertions nested in this node, which its own length includes.
        var insertedBytes = 0
        /// Elements of an unkeyed container so far; counted only with nil index sets, which need
        /// the indices.
        var elements = 0

        init(_ kind: Kind, children: V2Framing.Context, prefix: Int = -1, nilSet: Int = -1, nilStart: Int = 0) {
            self.kind = kind
            self.children = children
            self.prefix = prefix
            self.nilSet = nilSet
            self.nilStart = nilStart
        }
    }

    init() {
        contexts.reserveCapacity(16)
        contexts.append(Context(.top, children: .raw))  // every event finds a context, even before a reset
    }

    /// Sets the sink up for a run (``endRun()`` emptied it).
    private func reset(maximumDepth: Int, nilIndexSets: Bool, root: V2Framing.Context) {
        // As in V3Sink: four nodes per level of the encoder's depth, as the tree writer allows.
        self.nilIndexSets = nilIndexSets
        depthLimit = DepthGuard.nodeLimit(maximumDepth: maximumDepth)
        failure = nil
        keyAt = -1
        keyIsInvalid = false
        keyThroughSingle = false
        while !contexts.isEmpty { contexts.removeLast() }
        contexts.append(Context(.top, children: root))
    }

    @inline(__always)
    func endRun() {
        buffer.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes)
        insertions.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes / 16)
        nilIndices.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes / 8)
        openNils.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes / 8)
        contexts.releaseStorage(beyond: RetentionLimits.levels)
        if contexts.isEmpty { contexts.append(Context(.top, children: .raw)) }
    }

    /// `value` in v2 bytes, streamed; `nil` if the streaming run gave up or the sink could not
    /// write what it was sent (the caller then encodes through the tree).
    ///
    /// `asStreamElement` writes the value as `BinaryStreamEncoder` frames a v2 element: in the
    /// context of an unkeyed container's element.
    static func encode<T: Encodable>(
        _ value: T, nilIndexSets: Bool, options: TreeEncoder, asStreamElement: Bool = false
    ) -> Data? {
        StreamingScratch.with { scratch in
            let streamer = scratch.v2
            streamer.sink.reset(
                maximumDepth: options.maximumDepth, nilIndexSets: nilIndexSets, root: asStreamElement ? .element : .raw)
            return streamer.run(value, options: options)
        }
    }

    /// `tree`'s v2 bytes, written at the top level or (`asElement`) as a stream element.
    static func write(_ tree: BinaryValue, nilIndexSets: Bool, maximumDepth: Int, asElement: Bool = false) throws
        -> Data
    {
        try StreamingScratch.with { scratch in
            let streamer = scratch.v2
            streamer.sink.reset(
                maximumDepth: maximumDepth, nilIndexSets: nilIndexSets, root: asElement ? .element : .raw)
            return try streamer.write(tree)
        }
    }

    @inline(never)
    private func fail(_ reason: SinkFailure = .unexpectedEvent) { failure = reason }

    // MARK: Keys

    func key(_ key: BinaryKey) {
        guard keyAt < 0, contexts[contexts.count &- 1].kind == .keyed else { return fail() }
        keyAt = buffer.count
        if !Self.append(key, to: &buffer), let i = key.intValue {
            // Not an error yet: a field v2 leaves out writes no key.
            keyIsInvalid = true
            invalidKey = i
        }
    }

    /// Appends a key's bytes with wire type 0; `false` for an integer key v2 has none for.
    @inline(__always)
    private static func append(_ key: BinaryKey, to buffer: inout GrowingBuffer) -> Bool {
        if let i = key.intValue {
            guard let bits = V2Framing.intKeyPrefix(i, .varint) else { return false }
            buffer.append(varintSize(bits)) { w in w.varint(bits) }
        } else {
            buffer.appendStringKey(key.stringValue) { count in V2Framing.stringKeyPrefix(byteCount: count) }
        }
        return true
    }

    /// Completes the waiting key with its value's wire type.
    @inline(__always)
    private func completeKey(_ type: V2WireType) {
        if keyIsInvalid { return fail(.keyOutOfV2Range(invalidKey)) }
        buffer.setBits(type.rawValue, at: keyAt)
        keyAt = -1
        keyThroughSingle = false
    }

    /// Takes the waiting key back: its field is left out.
    private func dropKey() {
        if !keyIsInvalid { buffer.truncate(to: keyAt) }
        keyAt = -1
        keyIsInvalid = false
    }

    // MARK: Values

    func value(_ node: BinaryValue) {
        switch node {
        case .string(let string):
            guard let top = prepare(for: node) else { return }
            write(string, contexts[top].children)
        case .bool, .int8, .uint8, .int16, .uint16, .int32, .uint32, .int64, .uint64, .int, .uint, .float, .double:
            // Numbers and Bools, the same bytes in every context, are written here rather than
            // through `write`: a call and its frame per field.
            guard prepare(for: node) != nil, let size = Scalars.size(of: node) else { return }
            buffer.append(size) { w in Scalars.write(node, to: &w) }
        default:
            writeOther(node)
        }
    }

    /// The key and element bookkeeping before a node sent whole: the index of the innermost
    /// context, or `nil` when nothing is to be written (a field v2 leaves out, an `encodeNil()`
    /// element, which goes to the nil index set, or a failure).
    @inline(__always)
    private func prepare(for node: BinaryValue) -> Int? {
        let top = contexts.count &- 1
        if keyAt >= 0 {
            if !keyThroughSingle, V2Framing.isOmitted(node) {
                dropKey()
                return nil
            }
            completeKey(V2WireType.of(node))
            return top
        }
        switch contexts[top].kind {
        case .keyed:
            fail()  // a value without a key
            return nil
        case .unkeyed:
            if case .nil = node {
                // `encodeNil()`: an index of the nil index set, or no v2 bytes at all.
                guard nilIndexSets else {
                    fail(.nilElementWithoutIndexSet)
                    return nil
                }
                openNils.append(contexts[top].elements)
                contexts[top].elements &+= 1
                return nil
            }
            // Elements are counted only for the indices of a nil index set: updating the
            // count is a uniqueness check of `contexts` per element.
            if nilIndexSets { contexts[top].elements &+= 1 }
        default:
            break
        }
        return top
    }

    /// Nodes other than strings and numbers. (Out of line, so that `value(_:)` stays small
    /// enough for its leaf path to be inlined.) A container sent whole is written as its events,
    /// which do their own bookkeeping.
    @inline(never)
    private func writeOther(_ node: BinaryValue) {
        if TreeReplay.isBracketed(node) {
            _ = TreeReplay.send(node, to: self)
            return
        }
        guard let top = prepare(for: node) else { return }
        write(top == 0 ? V2Framing.root(node, nilIndexSets: nilIndexSets) : node, contexts[top].children)
    }

    func strings(_ strings: [String]) {
        let top = contexts.count &- 1
        guard keyAt < 0, contexts[top].kind == .unkeyed else {
            for string in strings { value(.string(string)) }  // what the events mean anywhere else
            return
        }
        if nilIndexSets { contexts[top].elements &+= strings.count }
        // An unkeyed container's elements are never raw.
        for string in strings { appendDelimited(string) }
    }

    /// Writes a string in `context`: length-delimited but as a raw value.
    @inline(never)
    private func write(_ string: String, _ context: V2Framing.Context) {
        if context == .raw {
            buffer.append(string.utf8.count) { w in w.string(string) }
        } else {
            appendDelimited(string)
        }
    }

    /// A string's length, then its bytes (inlined: `strings(_:)` runs it per element).
    @inline(__always)
    private func appendDelimited(_ string: String) {
        let size = string.utf8.count
        buffer.append(varintSize(UInt64(size)) &+ size) { w in
            w.varint(UInt64(size))
            w.string(string)
        }
    }

    /// Writes a whole node in `context`.
    private func write(_ node: BinaryValue, _ context: V2Framing.Context) {
        if case .string(let string) = node { return write(string, context) }
        if let size = Scalars.size(of: node) {
            switch node {
            case .data:
                if context != .raw {
                    buffer.append(varintSize(UInt64(size)) &+ size) { w in
                        w.varint(UInt64(size))
                        Scalars.write(node, to: &w)
                    }
                    return
                }
            case .unknown:
                return fail(.unknownBytesInV2)
            default:
                break
            }
            buffer.append(size) { w in Scalars.write(node, to: &w) }
            return
        }
        switch node {
        case .single(let inner):
            write(inner, context)  // v2 writes nothing for `.single`
        case .nil, .optional(.none):
            if context == .field { buffer.byte(1) }  // the length of the flag
            buffer.byte(0)
        case .packed(let packed):
            let size = Scalars.size(of: packed) &+ (nilIndexSets ? 1 : 0)
            let prefix = context == .raw ? 0 : varintSize(UInt64(size))
            buffer.append(prefix &+ size) { w in
                if context != .raw { w.varint(UInt64(size)) }
                if nilIndexSets { w.byte(0) }  // packed arrays hold no nil
                Scalars.write(packed, to: &w)
            }
        default:
            fail()  // bracketed nodes are sent as their events (`value(_:)`)
        }
    }

    // MARK: Bracketed nodes

    func begin(_ kind: SinkNodeKind) {
        // `contexts` holds the top level too: `depthLimit` nested nodes are allowed.
        guard contexts.count <= depthLimit else { return fail(.tooDeep(limit: depthLimit)) }
        let top = contexts.count &- 1
        if keyAt >= 0 {
            if case .single = kind {
                // Transparent: the wire type is the one of what the single holds.
                keyThroughSingle = true
                contexts.append(Context(.single, children: .field))
                return
            }
            completeKey(.lengthDelimited)
        } else {
            switch contexts[top].kind {
            case .keyed: return fail()
            case .unkeyed: if nilIndexSets { contexts[top].elements &+= 1 }
            default: break
            }
        }
        let context = contexts[top].children
        switch kind {
        case .single:
            contexts.append(Context(.single, children: context))
        case .optional:
            // A flag byte, then the value as an element; in a field, all of it length-delimited.
            let prefix = context == .field ? newInsertion() : -1
            buffer.byte(1)
            contexts.append(Context(.optional, children: .element, prefix: prefix))
        case .keyed:
            let prefix = context == .raw ? -1 : newInsertion()
            contexts.append(Context(.keyed, children: .field, prefix: prefix))
        case .unkeyed:
            let prefix = context == .raw ? -1 : newInsertion()
            let nilSet = nilIndexSets ? newInsertion() : -1
            contexts.append(
                Context(.unkeyed, children: .element, prefix: prefix, nilSet: nilSet, nilStart: openNils.count))
        }
    }

    /// Adds an insertion at the current end of the content and returns its index.
    private func newInsertion() -> Int {
        insertions.append(Insertion(position: buffer.count))
        return insertions.count &- 1
    }

    func end() {
        guard contexts.count > 1, keyAt < 0, let closed = contexts.popLast() else { return fail() }
        var inserted = closed.insertedBytes
        if closed.nilSet >= 0 {
            let start = min(closed.nilStart, openNils.count)
            let count = openNils.count &- start
            var size = varintSize(UInt64(count))
            insertions[closed.nilSet].value = count
            insertions[closed.nilSet].nils = nilIndices.count
            for i in openNils[start...] {
                nilIndices.append(i)
                size &+= varintSize(UInt64(i))
            }
            while openNils.count > start { openNils.removeLast() }
            inserted &+= size
        }
        if closed.prefix >= 0 {
            let length = buffer.count &- insertions[closed.prefix].position &+ inserted
            insertions[closed.prefix].value = length
            inserted &+= varintSize(UInt64(length))
        }
        contexts[contexts.count &- 1].insertedBytes &+= inserted
    }

    // MARK: Output

    /// A copy of the bytes with every insertion in place; `nil` if anything failed or a node is
    /// still open. (A copy, so that the buffer serves the next run.)
    func finish() -> Data? {
        guard failure == nil, !buffer.failed, contexts.count == 1, keyAt < 0 else { return nil }
        let total = buffer.count &+ contexts[0].insertedBytes
        return try? Output.make(count: total) { w in
            var copied = 0
            for entry in insertions {
                let position = max(copied, entry.position)
                w.bytes(buffer.bytes(copied..<position))
                copied = position
                w.varint(UInt64(entry.value))
                if entry.nils >= 0 {
                    let start = min(entry.nils, nilIndices.count)
                    let end = min(start &+ entry.value, nilIndices.count)
                    for i in nilIndices[start..<end] { w.varint(UInt64(i)) }
                }
            }
            w.bytes(buffer.bytes(copied..<buffer.count))
        }
    }
}

extension V2Sink: DirectFieldSink {
    func fieldKeyBytes(_ key: BinaryKey) -> [UInt8]? {
        Self.bytes { Self.append(key, to: &$0) }
    }

    /// The key with its value's wire type, then the value: `key(_:)` and `value(_:)` inside a keyed
    /// node (a primitive is never left out). Anywhere else the sink fails, and the run starts again
    /// through the tree.
    func field(_ key: UnsafeRawBufferPointer, _ leaf: BinaryValue) {
        let top = contexts.count &- 1
        guard keyAt < 0, contexts[top].kind == .keyed, let first = key.first else { return fail() }
        let wire = V2WireType.of(leaf).rawValue
        if case .string(let string) = leaf {
            buffer.append(key.count) { w in
                w.byte(first | wire)
                for byte in key.dropFirst() { w.byte(byte) }
            }
            return write(string, contexts[top].children)
        }
        guard let size = Scalars.size(of: leaf) else { return fail() }
        buffer.append(key.count &+ size) { w in
            w.byte(first | wire)
            for byte in key.dropFirst() { w.byte(byte) }  // a key is a few bytes: no call to copy them
            Scalars.write(leaf, to: &w)
        }
    }
}
