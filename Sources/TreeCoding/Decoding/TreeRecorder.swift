/// Builds the tree of stored data as a type reads it: `decodeTree` and transcoding.
///
/// The type's `init(from:)` runs over a recording node that wraps the real node and notes
/// every request (keyed, unkeyed, single value, optional, primitive) with its result. Fields the
/// type never reads are not in the tree.
package enum TreeRecorder {
    package static func record<T: Decodable>(
        _ type: T.Type, from base: DecodingNode, format: (any ByteFormat)?, options: DecodingOptions
    ) throws -> BinaryValue {
        let root = RecordSlot()
        _ = try TreeDecoderImpl.decodeRoot(T.self, from: .recording(base, root), format: format, options: options)
        return root.resolved ?? .emptyKeyed
    }
}

/// What was read at one position of the tree.
package final class RecordSlot {
    enum Content {
        case empty
        case leaf(BinaryValue)
        case keyed(KeyedRecord)
        case unkeyed(UnkeyedRecord)
        case single(RecordSlot)
        case optional(RecordSlot)
    }

    var content: Content = .empty

    /// This slot's keyed record, reused when a type opens the same container twice.
    func keyedRecord(stored: @autoclosure () -> [BinaryKey]) -> KeyedRecord {
        if case .keyed(let existing) = content { return existing }
        let record = KeyedRecord(stored: stored())
        content = .keyed(record)
        return record
    }

    init(_ content: Content = .empty) { self.content = content }

    /// The recorded tree; `nil` when nothing was read here.
    var resolved: BinaryValue? {
        switch content {
        case .empty: return nil
        case .leaf(let v): return v
        case .keyed(let r):
            // Stored order, whatever order the type asked in; keys are distinct by construction.
            var fields: [KeyedFields.Field] = []
            fields.reserveCapacity(r.keys.count)
            for i in r.storedOrder() {
                if let v = r.slots[i].resolved { fields.append(.init(key: r.keys[i], value: v)) }
            }
            return .keyed(KeyedFields(uniqueFields: fields))
        case .unkeyed(let r):
            return .unkeyed(r.slots.map { $0.resolved ?? .emptyKeyed })
        case .single(let s): return .single(s.resolved ?? .emptyKeyed)
        case .optional(let s): return .optional(s.resolved ?? .emptyKeyed)
        }
    }
}

package final class KeyedRecord {
    var keys: [BinaryKey] = []
    var slots: [RecordSlot] = []
    /// Key -> position in `keys`, so recording n fields stays O(n).
    var index: [BinaryKey: Int] = [:]
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
        if let i = index[key] { return slots[i] }
        let s = RecordSlot()
        index[key] = keys.count
        keys.append(key)
        slots.append(s)
        return s
    }
}

package final class UnkeyedRecord {
    var slots: [RecordSlot] = []
}

/// A keyed container whose lookups are recorded.
package struct RecordingKeyedView {
    let base: DecodingNode.KeyedView
    let record: KeyedRecord

    func node(forKey key: some CodingKey, _ format: (any ByteFormat)?) -> DecodingNode? {
        guard let found = base.node(forKey: key, format) else { return nil }
        return recorded(found, forKey: BinaryKey(key), format)
    }

    /// `found`, the value of `key`, wrapped so that what is read from it is recorded.
    func recorded(_ found: DecodingNode, forKey key: BinaryKey, _ format: (any ByteFormat)?) -> DecodingNode {
        let slot = record.slot(for: key)
        if found.isNil(format), case .empty = slot.content { slot.content = .leaf(.nil) }
        return .recording(found, slot)
    }
}

/// An unkeyed container whose elements are recorded.
package struct RecordingUnkeyedView {
    var base: DecodingNode.UnkeyedView
    let record: UnkeyedRecord
}
