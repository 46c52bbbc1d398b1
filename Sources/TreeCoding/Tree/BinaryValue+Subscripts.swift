extension BinaryValue {
    /// The field for `key` of a keyed container (looking through `.single`/`.optional`);
    /// `nil` if absent or not keyed. Setting a value on a keyed container adds or replaces the
    /// field (keeping its position); setting `nil` removes it.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get {
            if case .keyed(let fields) = unwrappedContainer { return fields[key] }
            return nil
        }
        set {
            guard case .keyed(var fields) = self else { return }
            fields[key] = newValue
            self = .keyed(fields)
        }
    }

    /// The element at `index` of an unkeyed container or packed array; `nil` if out of range.
    /// Setting replaces an element of an unkeyed container.
    public subscript(index: Int) -> BinaryValue? {
        get {
            switch unwrappedContainer {
            case .unkeyed(let values): return values.indices.contains(index) ? values[index] : nil
            case .packed(let p): return (0..<p.count).contains(index) ? p.leaf(at: index) : nil
            default: return nil
            }
        }
        set {
            guard case .unkeyed(var values) = self, let newValue, values.indices.contains(index) else { return }
            values[index] = newValue
            self = .unkeyed(values)
        }
    }

    /// The number of fields or elements of a container; `nil` for leaves.
    public var count: Int? {
        switch unwrappedContainer {
        case .keyed(let f): return f.count
        case .unkeyed(let v): return v.count
        case .packed(let p): return p.count
        default: return nil
        }
    }

    private var unwrappedContainer: BinaryValue {
        switch self {
        case .single(let v), .optional(.some(let v)): return v.unwrappedContainer
        default: return self
        }
    }

    /// The string of a `.string` leaf.
    public var stringValue: String? { if case .string(let s) = unwrappedContainer { return s }; return nil }
    /// The value of a `.bool` leaf.
    public var boolValue: Bool? { if case .bool(let b) = unwrappedContainer { return b }; return nil }
    /// The value of any integer leaf, if it fits `Int`.
    public var intValue: Int? { unwrappedContainer.exactInteger(Int.self) }
    /// The value of a `.double` or `.float` leaf.
    public var doubleValue: Double? {
        switch unwrappedContainer {
        case .double(let d): return d
        case .float(let f): return Double(f)
        default: return nil
        }
    }
}
