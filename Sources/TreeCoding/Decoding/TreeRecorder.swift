/// Builds the tree of stored data as a type reads it: `decodeTree` and transcoding.
///
/// The type's `init(from:)` runs over a recording node that wraps the real node and notes
/// every request (keyed, unkeyed, single value, optional, primitive) with its result. Fields the
/// type never reads are kept as the format stores them where it can say (v3:
/// ``BinaryValue/unknown(_:)``), and left out where it cannot (v2, whose values need a type).
///
/// The tree must be resolved while the input bytes are valid (unknown fields are copied then).
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
    func keyedRecord(view: DecodingNode.KeyedView, format: (any ByteFormat)?) -> KeyedRecord {
        if case .keyed(let existing) = content { return existing }
        let record = KeyedRecord(view: view, format: format)
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
            // Stored order, whatever order the type asked in; keys are distinct (the views
            // reject repeated keys). A field fetched but not decoded counts as unread.
            var fields: [KeyedFields.Field] = []
            let stored = r.view.allKeys
            fields.reserveCapacity(stored.count)
            for key in stored {
                if let i = r.index[key], let value = r.slots[i].resolved {
                    fields.append(.init(key: r.keys[i], value: value))
                } else if let value = r.view.node(forKey: key, r.format)?.unreadValue(r.format) {
                    fields.append(.init(key: key, value: value))
                }
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
    /// The container as stored: its order, and the fields the type does not read.
    let view: DecodingNode.KeyedView
    let format: (any ByteFormat)?

    init(view: DecodingNode.KeyedView, format: (any ByteFormat)?) {
        self.view = view
        self.format = format
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
