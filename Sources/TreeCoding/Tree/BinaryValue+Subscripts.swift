extension BinaryValue {
    // Reading and writing agree: both look through `.single` and `.optional(.some)` marks, so
    // `tree[k] = v` followed by `tree[k]` gives `v` back whenever the write applies.

    /// The field for `key` of the keyed container this node is or wraps (looking through
    /// `.single` and `.optional(.some)` marks); `nil` if absent or if there is no keyed container.
    ///
    /// Setting writes inside the same marks:
    /// - a value adds the field (appended) or replaces it (keeping its position);
    /// - `nil` removes the field (if present).
    ///
    /// A write to a node with no keyed container (a leaf, an unkeyed container, a packed array,
    /// `.nil`, `.optional(nil)`) cannot be applied and leaves the node unchanged. A setter cannot
    /// report that: use ``setValue(_:forKey:)`` and ``removeValue(forKey:)``, which throw an
    /// ``EditError`` instead.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get {
            if case .keyed(let fields) = unwrappedContainer { return fields[key] }
            return nil
        }
        set {
            if let newValue {
                try? setValue(newValue, forKey: key)
            } else {
                _ = try? removeValue(forKey: key)
            }
        }
    }

    /// The element at `index` of the unkeyed container or packed array this node is or wraps
    /// (looking through `.single` and `.optional(.some)` marks); `nil` if out of range or if there
    /// is no such container.
    ///
    /// Setting writes inside the same marks, following `Array` where it can:
    /// - a value at `0..<count` replaces the element;
    /// - a value at `count` appends it;
    /// - `nil` at `0..<count` removes the element (the later ones move up), as `nil` removes a
    ///   field of a keyed container. To store an explicit nil element, assign `.nil`.
    ///
    /// In a packed array, a leaf of exactly the element type (and, for integers, the encoding the
    /// elements have, e.g. `.int32(_, .zigZag)` in a `[Int32]`) is stored in place and the array
    /// stays packed; any other value turns the packed array into an `.unkeyed` container of its
    /// leaves first (written element by element, no longer packed). Removing keeps it packed.
    ///
    /// A write that cannot be applied (an index below 0 or past `count`, `nil` at `count`, or a
    /// node with no unkeyed container or packed array) leaves the node unchanged. A setter cannot
    /// report that: use ``setElement(_:at:)``, ``append(_:)`` and ``removeElement(at:)``, which
    /// throw an ``EditError`` instead.
    public subscript(index: Int) -> BinaryValue? {
        get {
            switch unwrappedContainer {
            case .unkeyed(let values): return values.indices.contains(index) ? values[index] : nil
            case .packed(let p): return (0..<p.count).contains(index) ? p.leaf(at: index) : nil
            default: return nil
            }
        }
        set {
            if let newValue {
                if index == count {
                    try? append(newValue)
                } else {
                    try? setElement(newValue, at: index)
                }
            } else {
                _ = try? removeElement(at: index)
            }
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
    public var stringValue: String? {
        if case .string(let s) = unwrappedContainer { return s }
        return nil
    }
    /// The value of a `.bool` leaf.
    public var boolValue: Bool? {
        if case .bool(let b) = unwrappedContainer { return b }
        return nil
    }
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
