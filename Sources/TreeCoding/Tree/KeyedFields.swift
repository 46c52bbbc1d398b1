/// The fields of a keyed container: ordered by insertion, one value per key (last write wins).
///
/// Lookups scan the keys for small containers and use a hash index once the container grows.
public struct KeyedFields: Hashable, Sendable, RandomAccessCollection {
    public private(set) var keys: [BinaryKey]
    public private(set) var values: [BinaryValue]
    /// Key -> position, built only for large containers.
    private var index: [BinaryKey: Int]?

    static let indexThreshold = 12

    /// An empty container.
    public init() {
        keys = []
        values = []
        index = nil
    }

    /// Fields from key-value pairs, in order; a repeated key keeps its last value at its first position.
    public init(_ pairs: some Sequence<(BinaryKey, BinaryValue)>) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { keys.count }

    public subscript(position: Int) -> (key: BinaryKey, value: BinaryValue) {
        (keys[position], values[position])
    }

    /// The position of `key`, if present.
    public func position(of key: BinaryKey) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex(of: key)
    }

    /// The value stored for `key`; setting `nil` removes the field.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get { position(of: key).map { values[$0] } }
        set {
            if let newValue {
                _ = set(newValue, for: key)
            } else if let p = position(of: key) {
                keys.remove(at: p)
                values.remove(at: p)
                rebuildIndex()
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
        let p = keys.count - 1
        if index != nil {
            index?[key] = p
        } else if keys.count > Self.indexThreshold {
            rebuildIndex()
        }
        return p
    }

    /// Replaces the value at a position.
    mutating func replaceValue(at position: Int, with value: BinaryValue) {
        values[position] = value
    }

    /// Reserves room for `n` fields.
    public mutating func reserveCapacity(_ n: Int) {
        keys.reserveCapacity(n)
        values.reserveCapacity(n)
    }

    private mutating func rebuildIndex() {
        guard keys.count > Self.indexThreshold else {
            index = nil
            return
        }
        var map = [BinaryKey: Int](minimumCapacity: keys.count)
        for (i, k) in keys.enumerated() { map[k] = i }
        index = map
    }

    /// The same fields sorted by key (see ``BinaryKey/<(_:_:)``).
    public func sortedByKey() -> KeyedFields {
        if keys.count < 2 { return self }
        var isSorted = true
        for i in 1..<keys.count where !(keys[i - 1] < keys[i]) {
            isSorted = false
            break
        }
        if isSorted { return self }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var out = KeyedFields()
        out.keys = order.map { keys[$0] }
        out.values = order.map { values[$0] }
        out.rebuildIndex()
        return out
    }

    public static func == (lhs: KeyedFields, rhs: KeyedFields) -> Bool {
        lhs.keys == rhs.keys && lhs.values == rhs.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keys)
        hasher.combine(values)
    }
}
