import TreeCoding

extension BinaryValue {
    /// The tree as v2 stores it: without the fields v2 leaves out of keyed containers (a nil
    /// `Optional` and nil, ``V2Framing/isOmitted(_:)``), at every depth. This is what `decodeTree`
    /// gives back from the v2 bytes, so v2's `encodeTree` gives it, and v2's
    /// `decode(fromTree:)` reads it: a tree then decodes as its bytes do.
    ///
    /// Nodes deeper than `nodeLimit` are left as they are (the decoder and the writer refuse
    /// them), so that a hand-built tree of any depth cannot exhaust the stack here.
    func v2Stored(nodeLimit: Int) -> BinaryValue {
        v2StoredIfChanged(depth: 0, nodeLimit) ?? self
    }

    /// The stored tree, or `nil` if it is this one (no copy of an unchanged tree).
    private func v2StoredIfChanged(depth: Int, _ limit: Int) -> BinaryValue? {
        guard depth < limit else { return nil }
        switch self {
        case .keyed(let fields):
            var changed = false
            var kept: [KeyedFields.Field] = []
            kept.reserveCapacity(fields.count)
            for field in fields.fields {
                if V2Framing.isOmitted(field.value) {
                    changed = true
                } else if let stored = field.value.v2StoredIfChanged(depth: depth + 1, limit) {
                    changed = true
                    kept.append(KeyedFields.Field(key: field.key, value: stored))
                } else {
                    kept.append(field)
                }
            }
            return changed ? .keyed(KeyedFields(uniqueFields: kept)) : nil
        case .unkeyed(let values):
            var changed = false
            let stored = values.map { value -> BinaryValue in
                guard let s = value.v2StoredIfChanged(depth: depth + 1, limit) else { return value }
                changed = true
                return s
            }
            return changed ? .unkeyed(stored) : nil
        case .single(let inner):
            return inner.v2StoredIfChanged(depth: depth + 1, limit).map { .single($0) }
        case .optional(.some(let inner)):
            return inner.v2StoredIfChanged(depth: depth + 1, limit).map { .optional($0) }
        default:
            return nil
        }
    }
}
