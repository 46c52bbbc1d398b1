extension PackedArray {
    /// Replaces the element at `i` with `leaf` if this array holds that leaf exactly (the same
    /// type and, for integers, the encoding ``leaf(at:)`` gives); returns `false` and changes
    /// nothing otherwise. The caller checked that `i` is in range.
    mutating func replace(at i: Int, with leaf: BinaryValue) -> Bool {
        edit(.replace(i), leaf)
    }

    /// Inserts `leaf` at `i` (the caller checked `0...count`) if this array holds that leaf
    /// exactly; returns `false` and changes nothing otherwise.
    @discardableResult
    mutating func insert(_ leaf: BinaryValue, at i: Int) -> Bool {
        edit(.insert(i), leaf)
    }

    /// Removes the element at `i` (the caller checked that it is in range) and returns it as a leaf.
    mutating func remove(at i: Int) -> BinaryValue {
        let removed = leaf(at: i)
        func drop<T>(_ a: inout [T]) { a.remove(at: i) }
        // Each case releases `self` before touching the array, so the removal does not copy it.
        switch self {
        case .bool(var a):
            self = .bool([])
            drop(&a)
            self = .bool(a)
        case .int8(var a):
            self = .bool([])
            drop(&a)
            self = .int8(a)
        case .uint8(var a):
            self = .bool([])
            drop(&a)
            self = .uint8(a)
        case .int16(var a):
            self = .bool([])
            drop(&a)
            self = .int16(a)
        case .uint16(var a):
            self = .bool([])
            drop(&a)
            self = .uint16(a)
        case .int32(var a):
            self = .bool([])
            drop(&a)
            self = .int32(a)
        case .uint32(var a):
            self = .bool([])
            drop(&a)
            self = .uint32(a)
        case .int64(var a):
            self = .bool([])
            drop(&a)
            self = .int64(a)
        case .uint64(var a):
            self = .bool([])
            drop(&a)
            self = .uint64(a)
        case .int(var a):
            self = .bool([])
            drop(&a)
            self = .int(a)
        case .uint(var a):
            self = .bool([])
            drop(&a)
            self = .uint(a)
        case .float(var a):
            self = .bool([])
            drop(&a)
            self = .float(a)
        case .double(var a):
            self = .bool([])
            drop(&a)
            self = .double(a)
        }
        return removed
    }

    private enum Edit {
        case replace(Int)
        case insert(Int)
    }

    /// Applies `edit` with the unboxed value of `leaf` when the leaf is exactly of this array's
    /// element kind (what ``leaf(at:)`` would give back); else returns `false`.
    private mutating func edit(_ edit: Edit, _ leaf: BinaryValue) -> Bool {
        func apply<T>(_ a: inout [T], _ v: T) {
            switch edit {
            case .replace(let i): a[i] = v
            case .insert(let i): a.insert(v, at: i)
            }
        }
        // Each case releases `self` before touching the array, so the edit does not copy it.
        switch self {
        case .bool(var a):
            guard case .bool(let v) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .bool(a)
        case .int8(var a):
            guard case .int8(let v) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .int8(a)
        case .uint8(var a):
            guard case .uint8(let v) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .uint8(a)
        case .int16(var a):
            guard case .int16(let v, .fixed) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .int16(a)
        case .uint16(var a):
            guard case .uint16(let v, .fixed) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .uint16(a)
        case .int32(var a):
            guard case .int32(let v, .zigZag) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .int32(a)
        case .uint32(var a):
            guard case .uint32(let v, .varint) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .uint32(a)
        case .int64(var a):
            guard case .int64(let v, .zigZag) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .int64(a)
        case .uint64(var a):
            guard case .uint64(let v, .varint) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .uint64(a)
        case .int(var a):
            guard case .int(let v, .zigZag) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .int(a)
        case .uint(var a):
            guard case .uint(let v, .varint) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .uint(a)
        case .float(var a):
            guard case .float(let v) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .float(a)
        case .double(var a):
            guard case .double(let v) = leaf else { return false }
            self = .bool([])
            apply(&a, v)
            self = .double(a)
        }
        return true
    }
}
