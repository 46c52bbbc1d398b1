/// The fields of a keyed container: ordered by insertion, one value per key (last write wins).
///
/// One array of fields, so a small container costs one allocation and a keyed node stays as small
/// as a string node. Once a container grows past 16 fields, the first mutation
/// builds a private hash index from key to position, which every later mutation keeps up to date:
/// adding n distinct keys one by one (or with ``init(_:)``) is O(n) overall, not O(n²). The index
/// is a cache: it takes no part in `==` or hashing, and a container made some other way (the
/// encoder, sorting, copies of small containers) has none until it is mutated, so its lookups scan
/// the keys.
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

    /// Key -> position in ``fields``; `nil` until a mutation of a container larger than
    /// ``KeyLookup/scanLimit`` builds it. Not part of equality or hashing. Readable inside the module
    /// (and by its tests, which check that large containers keep it complete).
    private(set) var keyIndex: [BinaryKey: Int]?

    /// The keys, in order.
    public var keys: [BinaryKey] { fields.map(\.key) }
    /// The values, in order.
    public var values: [BinaryValue] { fields.map(\.value) }

    /// An empty container.
    public init() {
        fields = []
    }

    /// Fields from key-value pairs, in order; a repeated key keeps its last value at its first position.
    ///
    /// - Complexity: O(n) for n pairs (expected: past 16 fields lookups go through the hash index).
    public init(_ pairs: some Sequence<(BinaryKey, BinaryValue)>) {
        self.init()
        fields.reserveCapacity(pairs.underestimatedCount)
        for (k, v) in pairs { set(v, for: k) }
    }

    /// Fields whose keys the caller guarantees are distinct.
    package init(uniqueFields fields: [Field]) {
        self.fields = fields
    }

    /// The position of the first field.
    public var startIndex: Index { Index(offset: 0) }
    /// The position after the last field.
    public var endIndex: Index { Index(offset: fields.count) }

    /// The key and value of the field at `position`, which must be a valid index of this
    /// collection. An integer in a subscript is a key, never a position: the field at the integer
    /// position `i` is `container.fields[i]`.
    public subscript(position: Index) -> (key: BinaryKey, value: BinaryValue) {
        let field = fields[position.offset]
        return (field.key, field.value)
    }

    /// Unavailable: an `Int` could be a key or a position. Write `container[BinaryKey(intValue: i)]`
    /// for the field with integer key `i`, `container.fields[i]` for the field at position `i`.
    @available(
        *, unavailable,
        message:
            "an Int could be a key or a position: use [BinaryKey(intValue: i)] for an integer key, .fields[i] for a position"
    )
    public subscript(index: Int) -> (key: BinaryKey, value: BinaryValue) {
        (fields[index].key, fields[index].value)
    }

    /// The position of `key`, if present.
    ///
    /// - Complexity: O(1) expected once the container has its hash index, else O(n).
    public func position(of key: BinaryKey) -> Int? {
        if let keyIndex { return keyIndex[key] }
        return fields.firstIndex { $0.key == key }
    }

    /// The value stored for `key` (an integer literal is an integer key); setting a value
    /// replaces the field, keeping its position, or adds it at the end; setting `nil` removes it.
    ///
    /// A value that replaces a primitive leaf is converted exactly to that leaf's type and integer
    /// encoding where it can be (``BinaryValue/assigning(_:)``), else stored as it is. To store a
    /// value exactly as given, use ``set(_:for:)``.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get { position(of: key).map { fields[$0].value } }
        set {
            if let newValue {
                let stored = position(of: key).map { fields[$0].value.assigning(newValue) } ?? newValue
                set(stored, for: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Stores `value` for `key` exactly as given (replacing an earlier value in place) and returns
    /// its position in ``fields``.
    ///
    /// - Complexity: O(1) amortized expected past 16 fields (the hash index), O(n) up to 16.
    @discardableResult
    public mutating func set(_ value: BinaryValue, for key: BinaryKey) -> Int {
        indexIfLarge()
        if let p = position(of: key) {
            fields[p].value = value
            return p
        }
        fields.append(Field(key: key, value: value))
        let p = fields.count - 1
        if keyIndex != nil {
            keyIndex?[key] = p
        } else {
            indexIfLarge()
        }
        return p
    }

    /// Removes the field for `key` and returns its value; `nil` if there was none.
    ///
    /// - Complexity: O(n): the later fields move up one position.
    @discardableResult
    public mutating func removeValue(forKey key: BinaryKey) -> BinaryValue? {
        indexIfLarge()
        guard let p = position(of: key) else { return nil }
        let removed = fields.remove(at: p)
        if keyIndex != nil {
            keyIndex?[key] = nil
            for q in p..<fields.count { keyIndex?[fields[q].key] = q }
        }
        return removed.value
    }

    /// Builds the hash index when the container is past the threshold and has none yet.
    private mutating func indexIfLarge() {
        guard keyIndex == nil, fields.count > KeyLookup.scanLimit else { return }
        var map = [BinaryKey: Int](minimumCapacity: fields.count)
        // The first position of a key wins, as the linear scan finds it.
        for (p, f) in fields.enumerated() where map[f.key] == nil { map[f.key] = p }
        keyIndex = map
    }

    /// Whether two containers have the same fields in the same order.
    public static func == (lhs: KeyedFields, rhs: KeyedFields) -> Bool {
        lhs.fields == rhs.fields
    }

    /// Hashes the fields in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
    }

    /// Reserves room for `n` fields.
    public mutating func reserveCapacity(_ n: Int) {
        fields.reserveCapacity(n)
        if n > KeyLookup.scanLimit { keyIndex?.reserveCapacity(n) }
    }

    /// The same fields in the order `sortKeysDuringEncoding` writes: BinaryCodable's order, made
    /// a function of the written keys alone (Docs/FormatV3.md, "Sorting").
    ///
    /// BinaryCodable compares two keys by integer value when both have one, else by their
    /// `stringValue`s with `String`'s `<`. Two things keep that from being an order of the bytes:
    /// `String`'s `<` ties canonically equivalent spellings (`"\u{e9}"`, `"e\u{301}"`), and the
    /// integer-against-string comparison is not transitive (`2 < 10`, `"10" < "1a" < "2"`). So:
    /// integer keys are sorted by value, string keys by `sortPrecedes(_:_:)`, and the two lists
    /// are merged by the same comparison of their `sortName`s (an integer key first on a tie).
    /// Where BinaryCodable's comparison is a strict total order on the keys, this is that order.
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
        // Keys are distinct, so no two integer keys share a value and no two string keys share
        // their bytes: both sorts are strict, and the result does not depend on the input order.
        ints.sort { (keys[$0].intValue ?? 0) < (keys[$1].intValue ?? 0) }
        strings.sort { sortPrecedes(keys[$0].stringValue, keys[$1].stringValue) }
        if ints.isEmpty { return strings }
        if strings.isEmpty { return ints }
        var merged: [Int] = []
        merged.reserveCapacity(keys.count)
        var i = 0
        var s = 0
        while i < ints.count, s < strings.count {
            if sortPrecedes(keys[strings[s]].stringValue, keys[ints[i]].sortName) {
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

extension BinaryKey {
    /// The spelling an integer key sorts by against string keys: the decimal form of its value
    /// when its name is itself an integer (a dictionary's `"07"` sorts as `"7"`), else its name
    /// (the `super` key sorts as `"super"`). The bytes keep only the value of such a key, and
    /// every path that reads the bytes spells it in decimal; a name that is not an integer comes
    /// from the type's keys, which every typed path has.
    var sortName: String {
        guard let intValue, Int(stringValue) != nil else { return stringValue }
        return String(intValue)
    }
}

/// The sort order of key names: Swift's `String` order (BinaryCodable's), and between two
/// canonically equivalent spellings, which `<` ties, their UTF-8 bytes. A strict total order on
/// distinct byte sequences, so sorted output is a function of the keys alone.
func sortPrecedes(_ a: String, _ b: String) -> Bool {
    if a < b { return true }
    if b < a { return false }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
}
