extension TreeEncoderImpl {
    /// The node of `dictionary`, built as `Dictionary.encode(to:)` builds it through a child
    /// encoder's keyed container, but without the standard library's container box and key per
    /// entry, and without indexing keys that cannot repeat (see
    /// ``DictionaryKey/distinctKeysMayRepeat``): those entries are appended, the others go
    /// through ``setField(_:for:)``, which reports two keys with one integer form.
    package func encodeDictionary<K: DictionaryKey, V: Encodable>(_ dictionary: [K: V], step: PathStep?) throws
        -> BinaryValue
    {
        // Too deep: the general path reports it.
        guard admitsLevel(inside: depth, maximumDepth: options.maximumDepth) else {
            return try encodeWithChild(dictionary, step: step)
        }
        let child = TreeEncoderImpl(options: options, parent: self, step: step, depth: depth + 1)
        child.state.request(.keyed)
        child.state.fields.reserveCapacity(dictionary.count)
        let checksKeys = K.distinctKeysMayRepeat
        for (k, value) in dictionary {
            let key = k.storedKey
            let node = try child.encodeValue(value, step: .key(key))
            if checksKeys, key.intValue != nil {
                child.setField(node, for: key)
            } else {
                child.state.fields.append(KeyedFields.Field(key: key, value: node))
            }
        }
        return try child.finish(for: dictionary)
    }
}
