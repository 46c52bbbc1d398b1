/// The fields of a keyed container: ordered by insertion, one value per key (last write wins).
///
/// One array of fields (one allocation per container, and a keyed node stays as small as a
/// string node); lookups scan the keys (the encoder and the tree decoder keep their own hash
/// indices for large containers).
public struct KeyedFields: Hashable, Sendable, RandomAccessCollection {
    /// One field: a key and its value.
    public struct Field: Hashable, Sendable {
        /// The field's key.
        public var key: BinaryKey
        /// The field's value.
        public var value: BinaryValue

        /// A field with `key` and `value`.
        public init(key: BinaryKey, value: BinaryValue) {
            self.key = key
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// The keys, in order.
    public var keys: [BinaryKey] { fields.map(\.key) }
    /// The values, in order.
    public var values: [BinaryValue] { fields.map(\.value) }

    /// An empty container.
    public init() {
        fields = []
    }

    /// Fields from key-value pairs, in order; a repeated key keeps its last value at its first position.
    public init(_ pairs: some Sequence<(BinaryKey, BinaryValue)>) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    /// Fields whose keys the caller guarantees are distinct.
    package init(uniqueFields fields: [Field]) {
        self.fields = fields
    }

    /// The position of the first field: always 0.
    public var startIndex: Int { 0 }
    /// The position after the last field: the number of fields.
    public var endIndex: Int { fields.count }

    /// The key and value of the field at `position`, which must be a valid index.
    public subscript(position: Int) -> (key: BinaryKey, value: BinaryValue) {
        (fields[position].key, fields[position].value)
    }

    /// The position of `key`, if present.
    public func position(of key: BinaryKey) -> Int? {
        fields.firstIndex { $0.key == key }
    }

    /// The value stored for `key`; setting `nil` removes the field.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get { position(of: key).map { fields[$0].value } }
        set {
            if let newValue {
                set(newValue, for: key)
            } else if let p = position(of: key) {
                fields.remove(at: p)
            }
        }
    }

    /// Stores `value` for `key` (replacing an earlier value in place) and returns its position.
    @discardableResult
    public mutating func set(_ value: BinaryValue, for key: BinaryKey) -> Int {
        if let p = position(of: key) {
            fields[p].value = value
            return p
        }
        fields.append(Field(key: key, value: value))
        return fields.count - 1
    }

    /// Reserves room for `n` fields.
    public mutating func reserveCapacity(_ n: Int) {
        fields.reserveCapacity(n)
    }

    /// The same fields in the order `sortKeysDuringEncoding` writes: a function of the keys alone.
    ///
    /// Integer keys are sorted by value, string keys by their UTF-8 bytes, and the two lists are
    /// merged by the UTF-8 bytes of their string forms (an integer key first on a tie). Bytes, not
    /// `String`'s `<`: `String` compares canonically equivalent spellings (`"é"` and `"e\u{301}"`)
    /// as Unicode does, which is not a strict order on distinct byte sequences, so the output
    /// would depend on insertion order. BinaryCodable compares two keys by integer value when
    /// both have one, else by `String`; the orders agree except where byte order and `String`
    /// order disagree, and where integer and string keys mix (its rule is not transitive there).
    public func sortedByKey() -> KeyedFields {
        if fields.count < 2 { return self }
        let order = Self.sortedOrder(fields.map(\.key))
        if order.elementsEqual(fields.indices) { return self }
        return KeyedFields(uniqueFields: order.map { fields[$0] })
    }

    static func sortedOrder(_ keys: [BinaryKey]) -> [Int] {
        var ints: [Int] = []
        var strings: [Int] = []
        for i in keys.indices {
            if keys[i].intValue != nil { ints.append(i) } else { strings.append(i) }
        }
        ints.sort { (keys[$0].intValue ?? 0, $0) < (keys[$1].intValue ?? 0, $1) }
        strings.sort { utf8Precedes(keys[$0].stringValue, keys[$1].stringValue) }
        if ints.isEmpty { return strings }
        if strings.isEmpty { return ints }
        var merged: [Int] = []
        merged.reserveCapacity(keys.count)
        var i = 0
        var s = 0
        while i < ints.count, s < strings.count {
            if utf8Precedes(keys[strings[s]].stringValue, keys[ints[i]].stringValue) {
                merged.append(strings[s])
                s += 1
            } else {
                merged.append(ints[i])
                i += 1
            }
        }
        merged += ints[i...]
        merged += strings[s...]
        return merged
    }
}

/// Whether `a`'s UTF-8 bytes sort before `b`'s (a strict total order on distinct strings).
@inline(__always)
func utf8Precedes(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
