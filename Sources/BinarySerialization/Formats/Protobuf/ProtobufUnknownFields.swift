import Foundation
import TreeCoding

/// `decodeTree`'s unknown fields: the fields of each message read that no type asked for, put
/// back into the value's tree as `.unknown` nodes (the field's bytes, tag included) under their
/// field numbers, so that writing the tree gives every stored field back.
enum ProtobufUnknownFields {
    static func insert(_ context: ProtobufDecodingContext, into tree: inout BinaryValue) {
        // A message read twice (a type that decodes a field twice) is one message of the tree: a
        // field is unknown only if no reading asked for it. Another message at the same place (a
        // map key stored twice) replaces it, as its value does.
        var order: [String] = []
        var byPath: [String: (steps: [ProtobufTreeStep], read: Set<Int>, message: ProtobufMessage)] = [:]
        for (steps, message) in context.messages {
            let id = "\(steps)"
            if var known = byPath[id], known.message.ranges == message.ranges {
                known.read.formUnion(message.read)
                byPath[id] = known
            } else {
                if byPath[id] == nil { order.append(id) }
                byPath[id] = (steps, message.read, message)
            }
        }
        let buffer = context.input.buffer
        for id in order {
            guard let (steps, read, message) = byPath[id] else { continue }
            var unknown: [Int: Data] = [:]
            // Where each field occurs last: the occurrence that decides its value.
            var lastAt: [Int: Int] = [:]
            for entry in message.entries {
                lastAt[entry.number] = entry.tagStart
                guard !read.contains(entry.number) else { continue }
                unknown[entry.number, default: Data()].append(
                    contentsOf: UnsafeRawBufferPointer(rebasing: buffer[entry.whole]))
            }
            for (number, bytes) in unknown.sorted(by: { lastAt[$0.key, default: 0] < lastAt[$1.key, default: 0] }) {
                _ = place(.unknown(bytes), number: number, lastAt: lastAt, steps[...], in: &tree)
            }
        }
    }

    /// Puts `node` at field `number` of the message at `steps` below `tree`, unless the field is
    /// there already; whether the message was found.
    ///
    /// The field goes right after the field whose last occurrence (`lastAt`) precedes its own
    /// most closely on the wire, first if none does: which of two fields is written last decides a value
    /// when both are members of one oneof in some version of the type.
    private static func place(
        _ node: BinaryValue, number: Int, lastAt: [Int: Int], _ steps: ArraySlice<ProtobufTreeStep>,
        in tree: inout BinaryValue
    ) -> Bool {
        switch tree {
        case .optional(var wrapped?):
            let placed = place(node, number: number, lastAt: lastAt, steps, in: &wrapped)
            tree = .optional(wrapped)
            return placed
        case .keyed(var fields):
            guard let step = steps.first else {
                let key = BinaryKey(intValue: number)
                guard fields[key] == nil, let at = lastAt[number] else { return false }
                var placed = fields.fields
                let before = placed.indices.compactMap { i -> (Int, Int)? in
                    guard let last = placed[i].key.intValue.flatMap({ lastAt[$0] }), last < at else { return nil }
                    return (last, i)
                }
                let anchor = before.max { $0.0 < $1.0 }?.1
                placed.insert(KeyedFields.Field(key: key, value: node), at: anchor.map { $0 + 1 } ?? 0)
                tree = .keyed(KeyedFields(placed.map { ($0.key, $0.value) }))
                return true
            }
            guard case .field(let field) = step, var child = fields[BinaryKey(intValue: field)] else { return false }
            let placed = place(node, number: number, lastAt: lastAt, steps.dropFirst(), in: &child)
            _ = fields.set(child, for: BinaryKey(intValue: field))
            tree = .keyed(fields)
            return placed
        case .unkeyed(var elements):
            guard let step = steps.first else { return false }
            switch step {
            case .element(let i):
                guard elements.indices.contains(i) else { return false }
                let placed = place(node, number: number, lastAt: lastAt, steps.dropFirst(), in: &elements[i])
                tree = .unkeyed(elements)
                return placed
            case .mapValue(let key):
                for i in elements.indices {
                    guard case .keyed(var entry) = elements[i], let stored = entry[BinaryKey(intValue: 1)],
                        unwrapped(stored) == key, var value = entry[BinaryKey(intValue: 2)]
                    else { continue }
                    let placed = place(node, number: number, lastAt: lastAt, steps.dropFirst(), in: &value)
                    _ = entry.set(value, for: BinaryKey(intValue: 2))
                    elements[i] = .keyed(entry)
                    tree = .unkeyed(elements)
                    return placed
                }
                return false
            case .field:
                return false
            }
        default:
            return false
        }
    }

    private static func unwrapped(_ node: BinaryValue) -> BinaryValue {
        if case .optional(let wrapped?) = node { return wrapped }
        return node
    }
}
