import Foundation
import TreeCoding

/// `decodeTree`'s unknown fields: the stored fields of each message that its type does not know,
/// put into the value's tree as `.unknown` nodes (the field's bytes, tag included) under their
/// field numbers, so that writing the tree gives every stored field back.
///
/// The value's tree and the input are walked together: a message of the tree is the stored
/// message (or messages, merged) at the same place. A stored field is known when the tree has its
/// number or the type read it as a member of a oneof (``ProtobufReadLog``).
enum ProtobufUnknownFields {
    static func insert(from input: UnsafeRawBufferPointer, log: ProtobufReadLog, into tree: inout BinaryValue) {
        insert(input, [0..<input.count], .input(input.count), log, into: &tree)
    }

    /// The unknown fields of the message stored in `ranges` of `input` (whose bytes lie in the
    /// decoder's input as `origin` says) into `node`, its tree. A message stored in several
    /// occurrences is their contents one after the other, as the decoder read it: a field may
    /// begin in one and end in the next. Its fields are found in such a copy.
    private static func insert(
        _ input: UnsafeRawBufferPointer, _ ranges: [Range<Int>], _ origin: ProtobufOrigin, _ log: ProtobufReadLog,
        into node: inout BinaryValue
    ) {
        if case .optional(var wrapped?) = node {
            insert(input, ranges, origin, log, into: &wrapped)
            node = .optional(wrapped)
            return
        }
        guard case .keyed(let message) = node else { return }
        if ranges.count > 1 {
            var merged = Data()
            for range in ranges { merged.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[range])) }
            let joined = origin.joined(ranges)
            merged.withUnsafeBytes { insert($0, [0..<$0.count], joined, log, into: &node) }
            return
        }
        let entries = fields(input, ranges)
        var fields = message.fields
        for i in fields.indices {
            guard let number = fields[i].key.intValue else { continue }
            descend(input, entries.filter { $0.number == number }, entries, origin, log, into: &fields[i].value)
        }
        // Where each field occurs last: the occurrence that decides its value.
        var lastAt: [Int: Int] = [:]
        for entry in entries { lastAt[entry.number] = entry.tagStart }
        let known = Set(fields.compactMap { $0.key.intValue })
        var unknown: [Int: Data] = [:]
        for entry in entries where !known.contains(entry.number) && log.oneOf(at: entry.tagStart, origin) == nil {
            unknown[entry.number, default: Data()].append(
                contentsOf: UnsafeRawBufferPointer(rebasing: input[entry.whole]))
        }
        for (number, bytes) in unknown.sorted(by: { lastAt[$0.key, default: 0] < lastAt[$1.key, default: 0] }) {
            place(.unknown(bytes), number: number, lastAt: lastAt, in: &fields)
        }
        node = .keyed(KeyedFields(uniqueFields: fields))
    }

    /// The unknown fields below a field of the tree, `value`, whose stored occurrences are
    /// `occurrences` (of the message's `entries`).
    private static func descend(
        _ input: UnsafeRawBufferPointer, _ occurrences: [ProtobufFieldEntry], _ entries: [ProtobufFieldEntry],
        _ origin: ProtobufOrigin, _ log: ProtobufReadLog, into value: inout BinaryValue
    ) {
        switch value {
        case .keyed, .optional(.keyed?):
            insert(input, counted(occurrences, entries, origin, log).compactMap(payload), origin, log, into: &value)
        case .unkeyed(var elements):
            let stored = occurrences.compactMap(payload)
            for i in elements.indices {
                if let entry = mapEntry(elements[i]) {
                    // A map value: its entry is the last stored one with its key (the tree sorts
                    // entries, and keeps one per key).
                    guard case .keyed(var fields) = elements[i],
                        let found = stored.last(where: { hasKey(input, $0, entry.key) }),
                        var mapValue = fields[BinaryKey(intValue: 2)]
                    else { continue }
                    let valueRanges = Self.fields(input, [found]).filter { $0.number == 2 }.compactMap(payload)
                    insert(input, valueRanges, origin, log, into: &mapValue)
                    _ = fields.set(mapValue, for: BinaryKey(intValue: 2))
                    elements[i] = .keyed(fields)
                } else if i < stored.count {
                    insert(input, [stored[i]], origin, log, into: &elements[i])
                }
            }
            value = .unkeyed(elements)
        default:
            return
        }
    }

    /// The occurrences of a field that make its value: for a oneof member, those after the last
    /// occurrence of another member of its oneof (which cleared it).
    private static func counted(
        _ occurrences: [ProtobufFieldEntry], _ entries: [ProtobufFieldEntry], _ origin: ProtobufOrigin,
        _ log: ProtobufReadLog
    ) -> [ProtobufFieldEntry] {
        guard let first = occurrences.first, let oneOf = log.oneOf(at: first.tagStart, origin) else {
            return occurrences
        }
        let cleared =
            entries.filter { $0.number != first.number && log.oneOf(at: $0.tagStart, origin) == oneOf }.map(\.tagStart)
            .max() ?? -1
        return occurrences.filter { $0.tagStart > cleared }
    }

    /// The key of a map entry of the tree, `[1: .optional(key), 2: .optional(value)]`.
    private static func mapEntry(_ node: BinaryValue) -> (key: BinaryValue, Void)? {
        guard case .keyed(let fields) = node, fields.count == 2,
            case .optional(let key?)? = fields[BinaryKey(intValue: 1)],
            case .optional(_?)? = fields[BinaryKey(intValue: 2)]
        else { return nil }
        return (key, ())
    }

    /// Whether the map entry stored in `range` has `key`: its stored key reads as the same
    /// number (however its varint was written) or the same string.
    private static func hasKey(_ input: UnsafeRawBufferPointer, _ range: Range<Int>, _ key: BinaryValue) -> Bool {
        guard let type = ProtobufScalarType(leaf: key), let wire = ProtobufLeafWire(key) else { return false }
        guard let stored = fields(input, [range]).last(where: { $0.number == 1 }) else { return wire.isDefault }
        let bytes = UnsafeRawBufferPointer(rebasing: input[stored.valueStart..<stored.end])
        if case .string(let string) = key { return string.utf8.elementsEqual(bytes) }
        guard let written = try? Output.make(count: wire.payloadSize, { wire.write(to: &$0, delimited: false) }),
            let own = written.withUnsafeBytes({ number(type, $0) }), let found = number(type, bytes)
        else { return false }
        return own == found
    }

    /// The number of `type` in `bytes`, as a map key compares: a 32-bit type's low 32 bits.
    private static func number(_ type: ProtobufScalarType, _ bytes: UnsafeRawBufferPointer) -> UInt64? {
        var r = ByteReader(buffer: bytes, offset: 0, end: bytes.count)
        guard let bits = try? ProtobufFormat.readBits(type, &r) else { return nil }
        switch type {
        case .int32, .uint32, .sint32, .fixed32, .sfixed32: return bits & 0xffff_ffff
        default: return bits
        }
    }

    private static func payload(_ entry: ProtobufFieldEntry) -> Range<Int>? {
        entry.wireType == .lengthDelimited ? entry.value : nil
    }

    /// The fields stored in `ranges`, framed (they framed when the value was decoded).
    private static func fields(_ input: UnsafeRawBufferPointer, _ ranges: [Range<Int>]) -> [ProtobufFieldEntry] {
        (try? ProtobufFraming.fields(input, ranges, maximumDepth: ProtobufFraming.maximumGroupDepth)) ?? []
    }

    /// Puts `node` at field `number`, right after the field whose last occurrence (`lastAt`)
    /// precedes its own most closely, first if none does: which of two fields is written last
    /// decides a value when both are members of one oneof in some version of the type.
    private static func place(
        _ node: BinaryValue, number: Int, lastAt: [Int: Int], in fields: inout [KeyedFields.Field]
    ) {
        guard let at = lastAt[number] else { return }
        var anchor: (last: Int, index: Int)?
        for (i, field) in fields.enumerated() {
            guard let last = field.key.intValue.flatMap({ lastAt[$0] }), last < at else { continue }
            if anchor.map({ last > $0.last }) ?? true { anchor = (last, i) }
        }
        fields.insert(
            KeyedFields.Field(key: BinaryKey(intValue: number), value: node), at: anchor.map { $0.index + 1 } ?? 0)
    }
}
