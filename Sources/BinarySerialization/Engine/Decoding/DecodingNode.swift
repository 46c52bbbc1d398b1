/// What the tree decoder reads: a node of a tree, a node of input bytes, or a node being recorded.
///
/// Neither wire format can be parsed without the Swift type, so the decoder drives the parse:
/// each `Decoder` call becomes one request here ("open as keyed", "read an Int32 zig-zag"...),
/// answered by the tree itself (`BinaryValue`), by the wire format (`ByteFormat`) for bytes, or
/// by the recorder that notes the answers to build the stored tree (`decodeTree`).
enum DecodingNode {
    case tree(BinaryValue)
    case bytes(ByteNode)
    /// A node of input bytes whose reading is recorded (the recorder only reads bytes, so the
    /// case holds the byte node itself: no box per node).
    case recording(RecordingNode)

    /// Whether the node is a `nil` element of a container (for `decodeNil(forKey:)`).
    func isNil(_ format: (any ByteFormat.Type)?) -> Bool {
        switch self {
        case .tree(let v): return v.isNil
        case .bytes(let b): return format?.isNil(b) ?? false
        case .recording(let n): return format?.isNil(n.byteNode) ?? false
        }
    }

    /// The byte offset of the node in the input, for error messages.
    var byteOffset: Int? {
        switch self {
        case .tree: return nil
        case .bytes(let b): return b.cursor?.offset ?? b.start
        case .recording(let n): return n.cursor?.offset ?? n.start
        }
    }

    @inline(__always)
    static func requireFormat(_ format: (any ByteFormat.Type)?) throws -> any ByteFormat.Type {
        guard let format else { throw WireFormatError(.unsupported, "no wire format to read bytes with") }
        return format
    }

    /// The keyed view of the node; a byte node's entries are framed into `storage` (emptied
    /// first), which a caller may keep from one container to the next.
    mutating func keyedView(_ format: (any ByteFormat.Type)?, storage: KeyedEntries) throws -> KeyedView {
        switch self {
        case .tree(let v):
            return .tree(try v.treeKeyedView())
        case .bytes(var b):
            let view = try Self.byteKeyedView(&b, format, storage)
            self = .bytes(b)
            return .bytes(view)
        case .recording(let n):
            var b = n.byteNode
            let slot = n.slot
            let view = try Self.byteKeyedView(&b, format, storage)
            self = .recording(RecordingNode(b, slot))
            return .recording(try slot.recordKeyed(view))
        }
    }

    @inline(__always)
    private static func byteKeyedView(_ node: inout ByteNode, _ format: (any ByteFormat.Type)?, _ storage: KeyedEntries)
        throws -> ByteKeyedView
    {
        storage.removeAll()
        try requireFormat(format).keyedEntries(&node, into: storage)
        return try ByteKeyedView(buffer: node.buffer, entries: storage)
    }

    mutating func unkeyedView(
        _ format: (any ByteFormat.Type)?, elementHint: ScalarKind?, cursors: ByteCursorPool?
    ) throws -> UnkeyedView {
        switch self {
        case .tree(let v):
            return .tree(try v.treeUnkeyedView())
        case .bytes(var b):
            let view = try Self.requireFormat(format).unkeyedView(&b, elementHint: elementHint, cursors: cursors)
            self = .bytes(b)
            return .bytes(view)
        case .recording(let n):
            var b = n.byteNode
            let slot = n.slot
            let view = try Self.requireFormat(format).unkeyedView(&b, elementHint: elementHint, cursors: cursors)
            self = .recording(RecordingNode(b, slot))
            return .recording(slot.recordUnkeyed(view))
        }
    }

    /// The content of a single-value container, or `nil` when it holds nil. `atRoot` says whether
    /// the container is outside any keyed or unkeyed container (asked of tree nodes only).
    mutating func singleValueContent(
        _ format: (any ByteFormat.Type)?, atRoot: @autoclosure () -> Bool = false
    ) throws -> DecodingNode? {
        if case .tree(let v) = self { return try v.treeContent(optional: false, atRoot: atRoot()).map { .tree($0) } }
        return try content(format, optional: false)
    }

    /// The content of an `Optional`, or `nil` for `Optional.none`.
    mutating func optionalContent(_ format: (any ByteFormat.Type)?) throws -> DecodingNode? {
        try content(format, optional: true)
    }

    private mutating func content(_ format: (any ByteFormat.Type)?, optional: Bool) throws -> DecodingNode? {
        switch self {
        case .tree(let v):
            return try v.treeContent(optional: optional, atRoot: false).map { .tree($0) }
        case .bytes(var b):
            let f = try Self.requireFormat(format)
            let content = optional ? try f.optionalContent(&b) : try f.singleValueContent(&b)
            self = .bytes(b)
            return content.map { .bytes($0) }
        case .recording(let n):
            var b = n.byteNode
            let slot = n.slot
            let f = try Self.requireFormat(format)
            let content = optional ? try f.optionalContent(&b) : try f.singleValueContent(&b)
            self = .recording(RecordingNode(b, slot))
            guard let content else {
                slot.record(optional ? .optional(nil) : .single(.nil))
                return nil
            }
            return .recording(RecordingNode(content, try slot.recordContent(optional: optional)))
        }
    }

    /// The node as stored, for a field the decoding type did not read; `nil` where the format
    /// cannot keep it without a type (v2).
    func unreadValue(_ format: (any ByteFormat.Type)?) -> BinaryValue? {
        switch self {
        case .tree(let v): return v
        case .bytes(let b): return format?.unreadValue(b)
        case .recording(let n): return format?.unreadValue(n.byteNode)
        }
    }

    /// Whether the content of a single-value container stands for nil although the container
    /// had no nil marker (v2 writes a single-value `encodeNil()` as the byte `00`).
    func singleValueHoldsNil(_ format: (any ByteFormat.Type)?) -> Bool {
        switch self {
        case .tree(let v): return v.isNil
        case .bytes(let b): return format?.singleValueHoldsNil(b) ?? false
        case .recording(let n):
            let b = n.byteNode
            let slot = n.slot
            guard format?.singleValueHoldsNil(b) ?? false else { return false }
            slot.record(.nil)
            return true
        }
    }

    /// Called when a type's `init(from:)` returned without asking for any container (an empty
    /// struct): its stored value (an empty container) is consumed and recorded as one.
    mutating func finishUnopened(_ format: (any ByteFormat.Type)?) throws {
        switch self {
        case .tree(let v):
            try v.treeEmptyContainer()
        case .bytes(var b):
            try Self.requireFormat(format).finishUnopened(&b)
            self = .bytes(b)
        case .recording(let n):
            var b = n.byteNode
            let slot = n.slot
            try Self.requireFormat(format).finishUnopened(&b)
            self = .recording(RecordingNode(b, slot))
            slot.recordIfEmpty(.emptyKeyed)
        }
    }

    /// Called after the content from ``optionalContent(_:)`` has been decoded.
    func finishContent(_ content: DecodingNode, _ format: (any ByteFormat.Type)?) throws {
        switch (self, content) {
        case (.bytes(let b), .bytes(let c)): try format?.finishContent(b, c)
        case (.recording(let b), .recording(let c)): try format?.finishContent(b.byteNode, c.byteNode)
        default: break
        }
    }

    /// Reads a primitive; the result is a leaf of exactly the requested kind.
    @inline(__always)
    mutating func decodeScalar(_ kind: ScalarKind, _ format: (any ByteFormat.Type)?, chosen: Bool = false) throws
        -> BinaryValue
    {
        switch self {
        case .bytes(var b):
            let f = try Self.requireFormat(format)
            let leaf = try chosen ? f.decodeChosenScalar(&b, kind) : f.decodeScalar(&b, kind)
            self = .bytes(b)
            return leaf
        case .tree(let v):
            return try v.treeScalar(kind)
        case .recording:
            return try recordScalar(kind, format)
        }
    }

    /// ``decodeScalar(_:_:)`` of a recording node, kept out of line so that the inlined byte
    /// and tree paths stay small.
    @inline(never)
    private mutating func recordScalar(_ kind: ScalarKind, _ format: (any ByteFormat.Type)?) throws -> BinaryValue {
        // The node is taken out of `self` and put back, so that its references are moved
        // rather than retained and released once more.
        switch consume self {
        case .recording(let n):
            var b = n.byteNode
            let leaf: BinaryValue
            do { leaf = try Self.requireFormat(format).decodeScalar(&b, kind) } catch {
                self = .recording(n.replacingNode(b))
                throw error
            }
            n.recording.slots[n.slotIndex].content = .leaf(leaf)
            self = .recording(n.replacingNode(b))
            return leaf
        case let other:
            self = other
            throw Self.notRecording()
        }
    }

    @inline(never)
    static func notRecording() -> WireFormatError {
        WireFormatError(.unsupported, "a recording request on a node that is not recorded")
    }

    /// Reads a packed array or set of primitives.
    mutating func decodePacked(_ kind: PackedArray.Kind, _ format: (any ByteFormat.Type)?) throws -> PackedArray {
        switch self {
        case .bytes(var b):
            let packed = try Self.requireFormat(format).decodePacked(&b, kind)
            self = .bytes(b)
            return packed
        case .tree(let v):
            return try v.treePacked(kind)
        case .recording(let n):
            var b = n.byteNode
            let slot = n.slot
            let packed = try Self.requireFormat(format).decodePacked(&b, kind)
            self = .recording(RecordingNode(b, slot))
            slot.record(.packed(packed))
            return packed
        }
    }

    // MARK: Containers

    /// A keyed container opened on a node.
    enum KeyedView {
        case tree(TreeKeyedView)
        case bytes(ByteKeyedView)
        case recording(RecordingKeyedView)

        func contains(_ key: some CodingKey) -> Bool {
            switch self {
            case .tree(let v): return v.contains(BinaryKey(key))
            case .bytes(let v): return v.position(key) != nil
            case .recording(let r): return r.base.position(key) != nil
            }
        }

        /// The value node for `key`, or `nil` when absent; the search of stored entries starts at
        /// `hint` and leaves it after the entry found.
        @inline(__always)
        func node(forKey key: some CodingKey, hint: inout Int) -> DecodingNode? {
            switch self {
            case .bytes(let v):
                guard let p = v.position(key, hint: hint) else { return nil }
                hint = p + 1
                return .bytes(v.entries[p].value)
            case .tree(let v): return v.node(forKey: BinaryKey(key), hint: &hint).map { .tree($0) }
            case .recording(let r):
                guard let p = r.base.position(key, hint: hint) else { return nil }
                hint = p + 1
                return r.node(at: p, forKey: key)
            }
        }

        /// The number of entries.
        var count: Int {
            switch self {
            case .bytes(let v): return v.entries.count
            case .tree(let v): return v.fields.count
            case .recording(let r): return r.base.entries.count
            }
        }

        /// The key of the entry at `position` (below ``count``); nothing is recorded.
        @inline(__always)
        func key(at position: Int) -> BinaryKey {
            switch self {
            case .bytes(let v): return ByteKeyedView.key(of: v.entries[position], v.buffer)
            case .tree(let v): return v.fields.fields[position].key
            case .recording(let r): return ByteKeyedView.key(of: r.base.entries[position], r.base.buffer)
            }
        }

        /// The entry at `position` (below ``count``), without looking its key up: reading every
        /// entry in stored order this way reads them as stored. A loop over positions in the
        /// caller, not a closure per entry: in unspecialized generic code (a dictionary's
        /// decoding), each call of a closure looks the caller's generic types up again.
        @inline(__always)
        func entry(at position: Int) -> (key: BinaryKey, value: DecodingNode) {
            switch self {
            case .bytes(let v):
                let e = v.entries[position]
                return (ByteKeyedView.key(of: e, v.buffer), .bytes(e.value))
            case .tree(let v):
                let f = v.fields.fields[position]
                return (f.key, .tree(f.value))
            case .recording(let r):
                let e = r.base.entries[position]
                let key = ByteKeyedView.key(of: e, r.base.buffer)
                return (key, r.recorded(e.value, at: position, forKey: key))
            }
        }
    }

    /// An unkeyed container opened on a node.
    enum UnkeyedView {
        case tree(TreeUnkeyedView)
        case bytes(ByteUnkeyedView)
        case recording(RecordingUnkeyedView)

        /// The number of elements; `counts` lets the format reuse the counts of this run (pass
        /// one when `count` may be asked once per element).
        func count(_ format: (any ByteFormat.Type)?, counts: UnkeyedCounts? = nil) -> Int? {
            switch self {
            case .tree(let v): return v.count
            case .bytes(let v): return format?.count(v, counts: counts)
            case .recording(let r): return format?.count(r.base, counts: counts)
            }
        }

        @inline(__always)
        func isAtEnd(_ format: (any ByteFormat.Type)?) -> Bool {
            switch self {
            case .tree(let v): return v.isAtEnd
            case .bytes(let v): return format?.isAtEnd(v) ?? true
            case .recording(let r): return format?.isAtEnd(r.base) ?? true
            }
        }

        var currentIndex: Int {
            switch self {
            case .tree(let v): return v.currentIndex
            case .bytes(let v): return v.currentIndex
            case .recording(let r): return r.base.currentIndex
            }
        }

        /// Consumes the next element if it is nil.
        mutating func decodeNil(_ format: (any ByteFormat.Type)?) throws -> Bool {
            switch self {
            case .tree(var v):
                defer { self = .tree(v) }
                return try v.decodeNil()
            case .bytes(var v):
                defer { self = .bytes(v) }
                return try DecodingNode.requireFormat(format).decodeNil(&v)
            case .recording(var r):
                defer { self = .recording(r) }
                guard try DecodingNode.requireFormat(format).decodeNil(&r.base) else { return false }
                _ = try r.appendElement(.leaf(.nil))
                return true
            }
        }

        /// The node of the next element.
        @inline(never)
        mutating func nextElement(_ format: (any ByteFormat.Type)?) throws -> DecodingNode {
            try takeNextElement(format)
        }

        /// The body of ``nextElement(_:)`` and ``advance(to:_:)``.
        @inline(__always)
        private mutating func takeNextElement(_ format: (any ByteFormat.Type)?) throws -> DecodingNode {
            switch self {
            case .bytes(var v):
                defer { self = .bytes(v) }
                return .bytes(try DecodingNode.requireFormat(format).nextElement(&v))
            case .tree(var v):
                defer { self = .tree(v) }
                return .tree(try v.nextElement())
            case .recording(var r):
                defer { self = .recording(r) }
                return try r.nextElement(format)
            }
        }

        /// The next element's node into `node`, or `false` at the view's end. Out of line and
        /// taking both by address, so that the callers' frames, which stay on the stack while
        /// the element decodes, hold no copies of the view.
        @inline(never)
        mutating func advance(to node: inout DecodingNode, _ format: (any ByteFormat.Type)?) throws -> Bool {
            guard !isAtEnd(format) else { return false }
            node = try takeNextElement(format)
            return true
        }
    }
}
