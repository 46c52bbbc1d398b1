extension BinaryValue {
    // Keys and positions never share a subscript: an integer in `tree[...]` is always a key
    // (`CodingKeys: Int` is common, and a position there would silently read another field).
    // Reading and writing agree: both look through `.single` and `.optional(.some)` marks, so
    // `tree[k] = v` followed by `tree[k]` gives `v` back (converted as ``assigning(_:)`` says).

    /// The field for `key` of the keyed container this node is or wraps (looking through
    /// `.single` and `.optional(.some)` marks); `nil` if absent or if there is no keyed container.
    ///
    /// A string literal is a string key and an integer literal an integer key: with
    /// `enum CodingKeys: Int, CodingKey`, `tree[4]` is the field with key 4. Elements of unkeyed
    /// containers and packed arrays are read with ``subscript(position:)``.
    ///
    /// Setting always takes effect, inside the same marks:
    /// - a value replaces the field, keeping its position, or adds it at the end. A value that
    ///   replaces a primitive leaf is converted exactly to that leaf's type and integer encoding
    ///   (see ``assigning(_:)``): `tree["count"] = 5` on a `UInt32` field stores `.uint32(5)`.
    ///   A value that cannot be converted replaces the leaf as it is, which changes the field's
    ///   type: decoding the tree as the old type then throws. ``setValue(_:forKey:)`` refuses
    ///   such a write instead;
    /// - `nil` removes the field (a field that is absent stays absent);
    /// - on a node with no keyed container, a value turns the node inside the marks into a
    ///   keyed container holding just that field (`.optional(nil)` becomes `.optional` of it),
    ///   as assigning a container would. ``setValue(_:forKey:)`` throws there instead.
    public subscript(key: BinaryKey) -> BinaryValue? {
        get {
            if case .keyed(let fields) = unwrappedContainer { return fields[key] }
            return nil
        }
        set {
            if case .optional(.none) = self, let newValue {
                self = .optional(.keyed(KeyedFields([(key, newValue)])))
                return
            }
            editInsideMarks { node in
                guard case .keyed(var fields) = node else {
                    if let newValue { node = .keyed(KeyedFields([(key, newValue)])) }
                    return
                }
                node = .nil
                fields[key] = newValue
                node = .keyed(fields)
            }
        }
    }

    /// The field for a coding key, such as a case of a type's `CodingKeys`: the field
    /// `tree[BinaryKey(key)]` (by `intValue` when the key has one).
    public subscript<Key: CodingKey>(key: Key) -> BinaryValue? {
        get { self[BinaryKey(key)] }
        set { self[BinaryKey(key)] = newValue }
    }

    /// The field for the string key `key`: `tree[BinaryKey(stringValue: key)]`, for a `String`
    /// that is not a literal.
    public subscript(key key: String) -> BinaryValue? {
        get { self[BinaryKey(stringValue: key)] }
        set { self[BinaryKey(stringValue: key)] = newValue }
    }

    /// The field for the integer key `key`: `tree[BinaryKey(intValue: key)]`, for an `Int` that
    /// is not a literal. A position is ``subscript(position:)``.
    public subscript(key key: Int) -> BinaryValue? {
        get { self[BinaryKey(intValue: key)] }
        set { self[BinaryKey(intValue: key)] = newValue }
    }

    /// Unavailable: an `Int` could be a key or a position. Write `tree[key: i]` for the field with
    /// integer key `i`, `tree[position: i]` for the element at position `i`.
    @available(
        *, unavailable,
        message:
            "an Int could be a key or a position: use tree[key: i] for an integer key, tree[position: i] for an element"
    )
    public subscript(index: Int) -> BinaryValue? {
        get { nil }
        set {}
    }

    /// The element at `position` of the unkeyed container or packed array this node is or wraps
    /// (looking through `.single` and `.optional(.some)` marks): an element of a packed array as
    /// a leaf. `nil` if `position` is outside `0..<count` or if there is no such container.
    ///
    /// Read-only, so that no write can miss: a position that does not exist cannot be written.
    /// Edit elements with ``setElement(_:at:)``, ``insert(_:at:)``, ``append(_:)``,
    /// ``removeElement(at:)`` and ``modifyElement(at:_:)``, which throw an ``EditError`` when
    /// the position or the container does not exist.
    public subscript(position position: Int) -> BinaryValue? {
        switch unwrappedContainer {
        case .unkeyed(let values): return values.indices.contains(position) ? values[position] : nil
        case .packed(let p): return (0..<p.count).contains(position) ? p.leaf(at: position) : nil
        default: return nil
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

    /// The node inside any `.single` and `.optional(.some)` marks.
    var unwrappedContainer: BinaryValue {
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
