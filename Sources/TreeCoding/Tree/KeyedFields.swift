/// The fields of a keyed container: ordered by insertion, one value per key (last write wins).
///
/// Two parallel arrays, so that a keyed node stays as small as a string node; lookups scan the
/// keys (the encoder and the tree decoder keep their own hash indices for large containers).
public struct KeyedFields: Hashable, Sendable, RandomAccessCollection {
    public private(set) var keys: [BinaryKey]
    public private(set) var values: [BinaryValue]

    /// An empty container.
    public init() {
        keys = []
        values = []
    }

    /// Fields from key-value pairs, in order; a repeated key keeps its last value at its first position.
    public init(_ pairs: some Sequence<(BinaryKey, BinaryValue)>) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    /// Fields from keys that the caller guarantees are distinct.
    package init(uniqueKeys keys: [BinaryKey], values: [BinaryValue]) {
        self.keys = keys
        self.values = values
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }

    public subscript(position: Int) -> (key: BinaryKey, value: BinaryValue) {
        (keys[position], values[position])
    }

    /// The position of `key`, if present.
    public func position(of key: BinaryKey) -> Int? {
        keys.firstIndex(of: key)
    }

    /// The value stored for `key`; setting `nil` removes the field.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let newValue {
                set(newValue, for: key)
            } else if let p = position(of: key) {
                keys.remove(at: p)
                values.remove(at: p)
            }
        }
    }

    /// Stores `value` for `key` (replacing an earlier value in place) and returns its position.
    @discardableResult
    public mutating func set(_ value: BinaryValue, for key: BinaryKey) -> Int {
        if let p = position(of: key) {
            values[p] = value
            return p
        }
        keys.append(key)
        values.append(value)
        return keys.count - 1
    }

    /// Reserves room for `n` fields.
    public mutating func reserveCapacity(_ n: Int) {
        keys.reserveCapacity(n)
        values.reserveCapacity(n)
    }

    /// The same fields in the order `sortKeysDuringEncoding` writes.
    ///
    /// BinaryCodable compares two keys by integer value when both have one, else by string value.
    /// That rule alone is not a consistent order when integer and string keys mix (2 < 10 by value,
    /// "10" < "1a" < "2" by string), so the order is made total this way: integer keys sorted by value,
    /// string keys sorted by string, and the two lists merged by string value (an integer key first
    /// on a tie). Every pair of keys the rule can order consistently comes out as the rule says,
    /// e.g. a field "b" before the `super` key (0, "super") before a field "value".
    public func sortedByKey() -> KeyedFields {
        if keys.count < 2 { return self }
        let order = Self.sortedOrder(keys)
        if order.elementsEqual(keys.indices) { return self }
        return KeyedFields(uniqueKeys: order.map { keys[$0] }, values: order.map { values[$0] })
    }

    static func sortedOrder(_ keys: [BinaryKey]) -> [Int] {
        var ints: [Int] = []
        var strings: [Int] = []
        for i in keys.indices {
            if keys[i].intValue != nil { ints.append(i) } else { strings.append(i) }
        }
        ints.sort { (keys[$0].intValue ?? 0, $0) < (keys[$1].intValue ?? 0, $1) }
        strings.sort { (keys[$0].stringValue, $0) < (keys[$1].stringValue, $1) }
        if ints.isEmpty { return strings }
        if strings.isEmpty { return ints }
        var merged: [Int] = []
        merged.reserveCapacity(keys.count)
        var i = 0
        var s = 0
        while i < ints.count, s < strings.count {
            if keys[strings[s]].stringValue < keys[ints[i]].stringValue {
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
