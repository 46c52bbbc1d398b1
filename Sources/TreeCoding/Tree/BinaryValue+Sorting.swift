extension BinaryValue {
    /// The same tree with the fields of every keyed container sorted
    /// (see ``KeyedFields/sortedByKey()``), as `sortKeysDuringEncoding` writes them.
    public func sortingKeys() -> BinaryValue {
        switch self {
        case .keyed(let fields):
            let sorted = fields.sortedByKey().fields.map {
                KeyedFields.Field(key: $0.key, value: $0.value.sortingKeys())
            }
            return .keyed(KeyedFields(uniqueFields: sorted))
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
