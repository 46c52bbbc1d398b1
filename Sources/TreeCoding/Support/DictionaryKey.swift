/// Dictionary keys that `Dictionary`'s `Codable` writes in a keyed container (`String` and `Int`;
/// any other key type makes it write an unkeyed list of keys and values).
package protocol DictionaryKey: Hashable, Codable {
    /// The key from a stored key, as `Dictionary.init(from:)` would read it.
    static func fromStored(_ key: BinaryKey) -> Self?

    /// The key `Dictionary.encode(to:)` hands its container for this dictionary key.
    var storedKey: BinaryKey { get }

    /// Whether two distinct dictionary keys can be one stored key, so that writing them needs the
    /// container's check for repeated keys. Only keys with an integer form can (`"1"` and `"01"`).
    static var distinctKeysMayRepeat: Bool { get }
}

extension String: DictionaryKey {
    package static func fromStored(_ key: BinaryKey) -> String? { key.stringValue }

    /// The standard library's key type gives a string key the integer form `Int(self)`, and the
    /// encoders write a key with an integer form as that integer.
    package var storedKey: BinaryKey { BinaryKey(stringValue: self, intValue: Int(self)) }

    package static var distinctKeysMayRepeat: Bool { true }
}

extension Int: DictionaryKey {
    package static func fromStored(_ key: BinaryKey) -> Int? { key.intValue ?? Int(key.stringValue) }

    package var storedKey: BinaryKey { BinaryKey(intValue: self) }

    package static var distinctKeysMayRepeat: Bool { false }
}
