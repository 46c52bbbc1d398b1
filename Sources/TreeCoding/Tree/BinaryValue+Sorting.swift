extension BinaryValue {
    /// The same tree with the fields of every keyed container sorted
    /// (see ``KeyedFields/sortedByKey()``), as `sortKeysDuringEncoding` writes them.
    public func sortingKeys() -> BinaryValue {
        switch self {
        case .keyed(let fields):
            var sorted = KeyedFields()
            sorted.reserveCapacity(fields.count)
            for (k, v) in fields.sortedByKey() { sorted.set(v.sortingKeys(), for: k) }
            return .keyed(sorted)
        case .unkeyed(let values):
            return .unkeyed(values.map { $0.sortingKeys() })
        case .single(let inner):
            return .single(inner.sortingKeys())
        case .optional(.some(let inner)):
            return .optional(inner.sortingKeys())
        default:
            return self
        }
    }
}
