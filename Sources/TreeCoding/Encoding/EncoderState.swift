/// Everything a tree encoder collects for its value, as one value: each operation of a container
/// is one exclusive access to the encoder's `state` (each access to a class's property is checked
/// at run time, so one access per operation rather than one per property).
struct EncoderState {
    /// Which container the value was given, and what it holds so far.
    enum Storage {
        case empty
        /// A single-value container was handed out and nothing encoded yet.
        case singleRequested
        case value(BinaryValue)
        case keyed
        case unkeyed
    }

    var storage: Storage = .empty
    /// Set once the encoder folded its container into a value; later writes are errors.
    var isFinished = false
    /// The first misuse of the container API (or other problem of the value); thrown by `finish`.
    var misuse: String?
    /// Fields of a keyed container.
    var fields: [KeyedFields.Field] = []
    /// Elements of an unkeyed container.
    var values: [BinaryValue] = []
    /// Nested containers and encoders handed out, folded in when the value is finished.
    var pending: [(position: Int, child: TreeEncoderImpl)] = []
    /// One bit per key hash: a clear bit proves a key is new, so most inserts skip the search.
    var keyFilter: UInt64 = 0
    /// Key -> position, for large keyed containers.
    var keyIndex: [BinaryKey: Int]?

    /// What the encoder had when it was finished.
    enum Collected {
        case misuse(String)
        case empty
        case singleRequested
        case value(BinaryValue)
        case keyed([KeyedFields.Field], pending: [(position: Int, child: TreeEncoderImpl)])
        case unkeyed([BinaryValue], pending: [(position: Int, child: TreeEncoderImpl)])
    }

    /// The state of a container handed out for the value (`storage` `.keyed`, `.unkeyed` or
    /// `.singleRequested`): a request for another kind than the one already given is a misuse,
    /// and the value starts again as the new kind so that containers handed out earlier keep
    /// writing into consistent, empty state.
    mutating func request(_ kind: Storage) {
        switch (storage, kind) {
        case (.keyed, .keyed), (.unkeyed, .unkeyed), (.singleRequested, .singleRequested), (.value, .singleRequested):
            return
        case (.empty, _), (.singleRequested, .keyed), (.singleRequested, .unkeyed):
            storage = kind
            if case .keyed = kind { fields.reserveCapacity(8) }
        case (_, .singleRequested):
            noteMisuse("a single-value container was requested after another kind of container")
        case (_, .keyed):
            noteMisuse("a keyed container was requested after another kind of container")
            reset(to: .keyed)
        default:
            noteMisuse("an unkeyed container was requested after another kind of container")
            reset(to: .unkeyed)
        }
    }

    mutating func noteMisuse(_ message: String) {
        if misuse == nil { misuse = "Container misuse: \(message)." }
    }

    /// Drops everything a container of another kind collected, after a misuse has been noted.
    mutating func reset(to newStorage: Storage) {
        storage = newStorage
        fields = []
        values = []
        pending = []
        keyFilter = 0
        keyIndex = nil
        if case .keyed = newStorage { fields.reserveCapacity(8) }
    }

    /// Stores the value of a single-value container (encoding twice keeps the last value, as
    /// BinaryCodable does: class hierarchies that call `super.encode(to:)` rely on it). Returns
    /// whether the value was already finished.
    mutating func storeSingle(_ value: BinaryValue) -> Bool {
        switch storage {
        case .keyed, .unkeyed:
            // The misuse was noted when the container was handed out; keep the state consistent.
            reset(to: .value(value))
        case .empty, .singleRequested, .value:
            storage = .value(value)
        }
        return isFinished
    }

    /// Stores `value` for `key`, replacing an earlier value in place (and dropping a nested
    /// container handed out for it); returns its position, and whether the value was already
    /// finished.
    @inline(__always)
    mutating func setField(_ value: BinaryValue, for key: BinaryKey) -> (position: Int, wasFinished: Bool) {
        let bit = key.filterBit
        if keyFilter & bit != 0,
            let p = keyIndex?[key] ?? (keyIndex == nil ? fields.firstIndex { $0.key == key } : nil)
        {
            let previous = fields[p].key
            if key.intValue != nil, previous.stringValue != key.stringValue { noteCollision(previous, key) }
            fields[p].value = value
            if !pending.isEmpty { pending.removeAll { $0.position == p } }
            return (p, isFinished)
        }
        keyFilter |= bit
        fields.append(KeyedFields.Field(key: key, value: value))
        let p = fields.count - 1
        if keyIndex != nil {
            keyIndex?[key] = p
        } else if fields.count > KeyLookup.scanLimit {
            var map = [BinaryKey: Int](minimumCapacity: fields.count * 2)
            for (i, f) in fields.enumerated() { map[f.key] = i }
            keyIndex = map
        }
        return (p, isFinished)
    }

    /// Two different keys with the same integer value (`"7"` and `"007"` in a `[String: V]`,
    /// which `Dictionary` gives integer values): the formats store one integer key, so one entry
    /// would be lost. That is an error, not a silent overwrite.
    @inline(never)
    private mutating func noteCollision(_ first: BinaryKey, _ second: BinaryKey) {
        if misuse == nil {
            misuse = """
                The keys "\(first.stringValue)" and "\(second.stringValue)" are both the integer key \
                \(second.intValue ?? 0); the binary formats store integer keys, so one entry would be lost.
                """
        }
    }

    /// Reserves `key` for a nested container or encoder whose content comes later.
    mutating func setPendingField(_ child: TreeEncoderImpl, for key: BinaryKey) -> Bool {
        let (position, wasFinished) = setField(.nil, for: key)
        pending.append((position, child))
        return wasFinished
    }

    /// Appends an element of an unkeyed container; returns whether the value was already finished.
    @inline(__always)
    mutating func append(_ value: BinaryValue) -> Bool {
        values.append(value)
        return isFinished
    }

    /// Reserves the next element for a nested container or encoder whose content comes later.
    mutating func appendPending(_ child: TreeEncoderImpl) -> Bool {
        pending.append((values.count, child))
        return append(.nil)
    }

    /// Marks the value finished and hands over what it collected.
    mutating func finish() -> Collected {
        isFinished = true
        if let misuse { return .misuse(misuse) }
        switch storage {
        case .empty: return .empty
        case .singleRequested: return .singleRequested
        case .value(let v): return .value(v)
        case .keyed:
            // Moved out, so that folding in the nested values does not copy them.
            defer { (fields, pending) = ([], []) }
            return .keyed(fields, pending: pending)
        case .unkeyed:
            defer { (values, pending) = ([], []) }
            return .unkeyed(values, pending: pending)
        }
    }
}
