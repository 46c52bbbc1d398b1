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
        _ type: T.Type, from base: ByteNode, format: any ByteFormat, options: DecodingOptions
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

    // One decoding run, one thread, and no access stays open across a call: like the decoder's
    // own state, the slots skip the run-time exclusivity checks.
    @exclusivity(unchecked) var content: Content = .empty

    /// This slot's keyed record, reused when a type opens the same container twice.
    func keyedRecord(view: ByteKeyedView, format: any ByteFormat) -> KeyedRecord {
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
        case .keyed(let r): return .keyed(r.resolved)
        case .unkeyed(let r):
            return .unkeyed(r.slots.map { $0.resolved ?? .emptyKeyed })
        case .single(let s): return .single(s.resolved ?? .emptyKeyed)
        case .optional(let s): return .optional(s.resolved ?? .emptyKeyed)
        }
    }
}

/// A field the type asked for: the key as the type named it, and what was read.
struct RecordedField {
    let key: BinaryKey
    let slot: RecordSlot
}

package final class KeyedRecord {
    /// The field recorded at each stored position; `nil` where the type asked for nothing. A
    /// key is found once, by the view, so recording n fields needs no table of its own.
    @exclusivity(unchecked) var fields: [RecordedField?]
    /// The container as stored: its order, and the fields the type does not read.
    let view: ByteKeyedView
    let format: any ByteFormat

    init(view: ByteKeyedView, format: any ByteFormat) {
        self.view = view
        self.format = format
        fields = Array(repeating: nil, count: view.entries.count)
    }

    /// The slot of the field stored at `position`, made on the first request.
    func slot(at position: Int, forKey key: @autoclosure () -> BinaryKey) -> RecordSlot {
        if let field = fields[position] { return field.slot }
        let s = RecordSlot()
        fields[position] = RecordedField(key: key(), slot: s)
        return s
    }

    /// The fields in stored order, whatever order the type asked in (keys are distinct: the
    /// views reject repeated keys). A field fetched but not decoded counts as unread.
    var resolved: KeyedFields {
        let entries = view.entries
        var out: [KeyedFields.Field] = []
        out.reserveCapacity(entries.count)
        for position in entries.indices {
            if let field = fields[position], let value = field.slot.resolved {
                out.append(.init(key: field.key, value: value))
            } else if let value = format.unreadValue(entries[position].value) {
                out.append(.init(key: ByteKeyedView.key(of: entries[position], view.buffer), value: value))
            }
        }
        return KeyedFields(uniqueFields: out)
    }
}

package final class UnkeyedRecord {
    @exclusivity(unchecked) var slots: [RecordSlot] = []
}

/// A keyed container whose lookups are recorded.
package struct RecordingKeyedView {
    let base: ByteKeyedView
    let record: KeyedRecord

    func node(forKey key: some CodingKey) -> DecodingNode? {
        guard let position = base.position(key) else { return nil }
        return recorded(base.entries[position].value, at: position, forKey: BinaryKey(key))
    }

    /// `found`, the value stored at `position`, wrapped so that what is read from it is recorded.
    func recorded(_ found: ByteNode, at position: Int, forKey key: @autoclosure () -> BinaryKey) -> DecodingNode {
        let slot = record.slot(at: position, forKey: key())
        if case .empty = slot.content, record.format.isNil(found) { slot.content = .leaf(.nil) }
        return .recording(found, slot)
    }
}

/// An unkeyed container whose elements are recorded.
package struct RecordingUnkeyedView {
    var base: ByteUnkeyedView
    let record: UnkeyedRecord
}
