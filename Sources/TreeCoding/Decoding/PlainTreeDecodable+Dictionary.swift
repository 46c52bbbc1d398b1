/// `[String: V]` and `[Int: V]` (``DictionaryKey``) are keyed containers, read entry by entry in
/// stored order; other dictionaries go through `Dictionary.init(from:)`.
extension Dictionary: PlainTreeDecodable where Key: Decodable, Value: Decodable {
    static func decodePlainTree(
        from node: BinaryValue, parent: TreePath, step: PathStep?, in context: PlainTreeContext
    ) throws -> [Key: Value] {
        guard let keyType = Key.self as? any DictionaryKey.Type else {
            return try context.decodeWithInit([Key: Value].self, from: node, parent: parent, step: step)
        }
        return try decodeEntries(keyedBy: keyType, from: node, parent: parent, step: step, in: context)
    }

    private static func decodeEntries<K: DictionaryKey>(
        keyedBy keyType: K.Type, from node: BinaryValue, parent: TreePath, step: PathStep?,
        in context: PlainTreeContext
    ) throws -> [Key: Value] {
        // A level (DepthGuard), as the encoders count it.
        try context.checkDepth(parent: parent, step: step)
        let view = try node.treeKeyedView()
        let path = parent.appending(step)
        let inner = context.deeper
        var entries: [Key: Value] = [:]
        entries.reserveCapacity(view.fields.count)
        for field in view.fields.fields {
            guard let stored = K.fromStored(field.key), let key = stored as? Key else {
                throw DecodingError.notADictionaryKey(
                    Key.self, field.key, at: path.codingPath(appending: .key(field.key)))
            }
            let value = try inner.decode(Value.self, from: field.value, parent: path, step: .key(field.key))
            // Distinct stored keys can be one Swift key (integer key 3 and string key "3").
            if entries.updateValue(value, forKey: key) != nil {
                throw DecodingError.repeatedDictionaryKey(field.key, at: path.codingPath(appending: .key(field.key)))
            }
        }
        return entries
    }
}
