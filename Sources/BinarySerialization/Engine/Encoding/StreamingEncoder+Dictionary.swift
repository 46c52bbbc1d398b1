extension StreamingEncoder {
    /// Streams `dictionary` as `Dictionary.encode(to:)` does through ``StreamingEncoderHandle``:
    /// an encoder that asks for one keyed container and writes each entry in the dictionary's
    /// order. Distinct strings without an integer form are distinct stored keys, and so are
    /// distinct integers, so only keys that have an integer form are noted for the check for
    /// repeats (`"1"` and `"01"` are both the integer key 1: the run gives up, and the tree
    /// encoder reports them).
    func streamDictionary<K: DictionaryKey, V: Encodable>(_ dictionary: [K: V], step: PathStep?, in parent: Int)
        throws
    {
        let depth = frames[parent].depth
        guard admitsLevel(inside: depth, maximumDepth: maximumDepth) else { throw giveUp() }
        let id = push(.keyed, step: step, in: parent, depth: depth &+ 1)
        sink.begin(.keyed)
        let checksKeys = K.distinctKeysMayRepeat
        for (k, value) in dictionary {
            let key = k.storedKey
            guard let index = activate(id) else { throw giveUp() }
            if checksKeys, key.intValue != nil, !noteKey(key, in: index) { throw giveUp() }
            sink.key(key)
            try encodeValue(value, step: .key(key), in: index)
        }
        guard activate(id) != nil else { throw giveUp() }
        closeTop()
        if gaveUp { throw GaveUp() }
    }
}
