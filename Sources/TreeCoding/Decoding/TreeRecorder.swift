/// Builds the tree of stored data as a type reads it: `decodeTree` and transcoding.
///
/// The type's `init(from:)` runs over a ``RecordingNode`` that wraps the real node and notes
/// every request (keyed, unkeyed, single value, optional, primitive) with its result. Fields the
/// type never reads are not in the tree.
package enum TreeRecorder {
    package static func record<T: Decodable, Base: DecodingNode>(
        _ type: T.Type, from base: Base, options: DecodingOptions
    ) throws -> BinaryValue {
        let root = RecordSlot()
        _ = try TreeDecoderImpl.decodeRoot(T.self, from: RecordingNode(base: base, slot: root), options: options)
        return root.resolved ?? .emptyKeyed
    }
}

/// What was read at one position of the tree.
final class RecordSlot {
    enum Content {
        case empty
        case leaf(BinaryValue)
        case keyed(KeyedRecord)
        case unkeyed(UnkeyedRecord)
        case single(RecordSlot)
        case optional(RecordSlot)
    }

    var content: Content = .empty

    init(_ content: Content = .empty) { self.content = content }

    /// The recorded tree; `nil` when nothing was read here.
    var resolved: BinaryValue? {
        switch content {
        case .empty: return nil
        case .leaf(let v): return v
        case .keyed(let r):
            // Stored order, whatever order the type asked in.
            var fields = KeyedFields()
            for i in r.storedOrder() {
                if let v = r.slots[i].resolved { fields.set(v, for: r.keys[i]) }
            }
            return .keyed(fields)
        case .unkeyed(let r):
            return .unkeyed(r.slots.map { $0.resolved ?? .emptyKeyed })
        case .single(let s): return .single(s.resolved ?? .emptyKeyed)
        case .optional(let s): return .optional(s.resolved ?? .emptyKeyed)
        }
    }
}

final class KeyedRecord {
    var keys: [BinaryKey] = []
    var slots: [RecordSlot] = []
    /// The keys as stored, to order the recorded fields.
    let stored: [BinaryKey]

    init(stored: [BinaryKey]) { self.stored = stored }

    /// Positions of the recorded keys, sorted by where they are stored.
    func storedOrder() -> [Int] {
        var position: [BinaryKey: Int] = [:]
        for (i, k) in stored.enumerated() where position[k] == nil { position[k] = i }
        return keys.indices.sorted { (position[keys[$0]] ?? Int.max, $0) < (position[keys[$1]] ?? Int.max, $1) }
    }

    func slot(for key: BinaryKey) -> RecordSlot {
        if let i = keys.firstIndex(of: key) { return slots[i] }
        let s = RecordSlot()
        keys.append(key)
        slots.append(s)
        return s
    }
}

final class UnkeyedRecord {
    var slots: [RecordSlot] = []
}

/// A node that records what is read through it.
struct RecordingNode<Base: DecodingNode>: DecodingNode {
    var base: Base
    let slot: RecordSlot

    var isNil: Bool { base.isNil }
    var byteOffset: Int? { base.byteOffset }

    mutating func keyedView() throws -> RecordingKeyedView<Base> {
        let view = try base.keyedView()
        if case .keyed(let existing) = slot.content {
            return RecordingKeyedView(base: view, record: existing)
        }
        let record = KeyedRecord(stored: view.allKeys)
        slot.content = .keyed(record)
        return RecordingKeyedView(base: view, record: record)
    }

    mutating func unkeyedView(elementHint: ScalarKind?) throws -> RecordingUnkeyedView<Base> {
        let view = try base.unkeyedView(elementHint: elementHint)
        let record = UnkeyedRecord()
        slot.content = .unkeyed(record)
        return RecordingUnkeyedView(base: view, record: record)
    }

    mutating func singleValueContent() throws -> RecordingNode<Base>? {
        guard let content = try base.singleValueContent() else {
            slot.content = .leaf(.nil)
            return nil
        }
        let child = RecordSlot()
        slot.content = .single(child)
        return RecordingNode(base: content, slot: child)
    }

    mutating func optionalContent() throws -> RecordingNode<Base>? {
        guard let content = try base.optionalContent() else {
            slot.content = .leaf(.optional(nil))
            return nil
        }
        let child = RecordSlot()
        slot.content = .optional(child)
        return RecordingNode(base: content, slot: child)
    }

    mutating func decodeScalar(_ kind: ScalarKind) throws -> BinaryValue {
        let leaf = try base.decodeScalar(kind)
        slot.content = .leaf(leaf)
        return leaf
    }

    func finishContent(_ content: RecordingNode<Base>) throws {
        try base.finishContent(content.base)
    }

    mutating func decodePacked(_ kind: PackedArray.Kind) throws -> PackedArray {
        let packed = try base.decodePacked(kind)
        slot.content = .leaf(.packed(packed))
        return packed
    }
}

struct RecordingKeyedView<Base: DecodingNode>: KeyedNodeView {
    let base: Base.Keyed
    let record: KeyedRecord

    var allKeys: [BinaryKey] { base.allKeys }
    func contains(_ key: some CodingKey) -> Bool { base.contains(key) }

    func node(forKey key: some CodingKey) throws -> RecordingNode<Base>? {
        guard let found = try base.node(forKey: key) else { return nil }
        let slot = record.slot(for: BinaryKey(key))
        if found.isNil, case .empty = slot.content { slot.content = .leaf(.nil) }
        return RecordingNode(base: found, slot: slot)
    }
}

struct RecordingUnkeyedView<Base: DecodingNode>: UnkeyedNodeView {
    var base: Base.Unkeyed
    let record: UnkeyedRecord

    var count: Int? { base.count }
    var isAtEnd: Bool { base.isAtEnd }
    var currentIndex: Int { base.currentIndex }

    mutating func decodeNil() throws -> Bool {
        guard try base.decodeNil() else { return false }
        record.slots.append(RecordSlot(.leaf(.nil)))
        return true
    }

    mutating func nextElement() throws -> RecordingNode<Base> {
        let node = try base.nextElement()
        let slot = RecordSlot()
        record.slots.append(slot)
        return RecordingNode(base: node, slot: slot)
    }

    mutating func finishElement(_ node: RecordingNode<Base>) throws {
        try base.finishElement(node.base)
    }
}
