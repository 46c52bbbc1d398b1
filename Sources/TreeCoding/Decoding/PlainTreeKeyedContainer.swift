/// The keyed container of ``PlainTreeDecoder`` over a tree's keyed view. A class: the search for
/// the next key starts after the last one found (types read fields in the order they wrote
/// them), which the non-mutating requirements could not note in a struct.
final class PlainTreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let view: TreeKeyedView
    private let path: TreePath
    /// The context of the values the container holds.
    private let context: PlainTreeContext
    /// Where the next search of the fields starts (it does not change what a search finds).
    private var hint = 0

    init(view: TreeKeyedView, path: TreePath, context: PlainTreeContext) {
        self.view = view
        self.path = path
        self.context = context
    }

    var codingPath: [any CodingKey] { path.codingPath }

    /// The stored keys that are keys of `Key`, in stored order: an integer key by its integer,
    /// else by its string.
    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(view.fields.count)
        for field in view.fields.fields {
            if let i = field.key.intValue, let key = Key(intValue: i) {
                keys.append(key)
            } else if let key = Key(stringValue: field.key.stringValue) {
                keys.append(key)
            }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { view.contains(BinaryKey(key)) }

    /// The node of `key`, or `nil` when absent.
    private func lookup(_ key: Key) -> BinaryValue? { view.node(forKey: BinaryKey(key), hint: &hint) }

    /// The node of `key`; `keyNotFound` when absent.
    private func node(_ key: Key) throws -> BinaryValue {
        guard let found = lookup(key) else { throw missing(key) }
        return found
    }

    /// The error for a key the container lacks, naming the keys it has: computed only here.
    private func missing(_ key: Key) -> DecodingError {
        DecodingError.noValue(forKey: key, at: codingPath, present: view.fields.fields.map(\.key))
    }

    private func step(_ key: Key) -> PathStep { .key(BinaryKey(key)) }

    /// An error of the tree rules in reading `key`'s value, as a `DecodingError` at its path.
    private func failure(_ error: any Error, _ type: Any.Type, _ key: Key) -> any Error {
        plainTreeDecodingError(error, type, path.codingPath(appending: step(key)))
    }

    private func scalar<S: TreeScalar>(_ type: S.Type, _ key: Key) throws -> S {
        let found = try node(key)
        do { return try S.plainTreeValue(of: found) } catch { throw failure(error, type, key) }
    }

    /// A primitive, `nil` for an absent key or a nil value.
    private func scalarIfPresent<S: TreeScalar>(_ type: S.Type, _ key: Key) throws -> S? {
        guard let found = lookup(key), !found.isNil else { return nil }
        do { return try S.plainTreeValue(of: found) } catch { throw failure(error, type, key) }
    }

    /// `true` for a nil value and for an absent key: `encodeNil(forKey:)` writes nothing.
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let found = lookup(key) else { return true }
        return found.isNil
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try scalarIfPresent(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try scalarIfPresent(type, key) }

    /// An absent key decodes as nil when `T` is optional (BinaryCodable 2.x leaves nil optionals
    /// out of keyed containers), and throws `keyNotFound` otherwise.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let found = lookup(key) else {
            if let optional = T.self as? any PlainTreeOptional.Type, let none = optional.plainTreeNone as? T {
                return none
            }
            throw missing(key)
        }
        return try context.decode(T.self, from: found, parent: path, step: step(key))
    }

    /// Only an absent key is `nil`: a present key's value, nil included, is `T`'s to read (a
    /// type may write nil itself), except for a primitive, which has no nil of its own.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let found = lookup(key) else { return nil }
        if found.isNil, T.self is any TreeScalar.Type { return nil }
        return try context.decode(T.self, from: found, parent: path, step: step(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let found = try node(key)
        let nested: TreeKeyedView
        do { nested = try found.treeKeyedView() } catch { throw failure(error, type, key) }
        return KeyedDecodingContainer(
            PlainTreeKeyedContainer<NestedKey>(view: nested, path: path.appending(step(key)), context: context))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let found = try node(key)
        let nested: TreeUnkeyedView
        do { nested = try found.treeUnkeyedView() } catch { throw failure(error, [Any].self, key) }
        return PlainTreeUnkeyedContainer(view: nested, path: path.appending(step(key)), context: context)
    }

    func superDecoder() throws -> any Decoder {
        try superDecoder(for: .super, lookup: BinaryKey.super)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try superDecoder(for: BinaryKey(key), lookup: key)
    }

    /// A decoder for the value of `lookup`, at `key` below this container, one level deeper.
    private func superDecoder(for key: BinaryKey, lookup: some CodingKey) throws -> any Decoder {
        var start = 0
        guard let found = view.node(forKey: BinaryKey(lookup), hint: &start) else {
            throw DecodingError.noSuperValue(forKey: key, at: codingPath)
        }
        return PlainTreeDecoder(node: found, path: path.appending(.key(key)), context: context.deeper)
    }
}
