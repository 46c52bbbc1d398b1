extension PackedArray {
    /// The element at `i` as a leaf node.
    public func leaf(at i: Int) -> BinaryValue {
        switch self {
        case .bool(let a): return .bool(a[i])
        case .int8(let a): return .int8(a[i])
        case .uint8(let a): return .uint8(a[i])
        case .int16(let a): return .int16(a[i])
        case .uint16(let a): return .uint16(a[i])
        case .int32(let a): return .int32(a[i])
        case .uint32(let a): return .uint32(a[i])
        case .int64(let a): return .int64(a[i])
        case .uint64(let a): return .uint64(a[i])
        case .int(let a): return .int(a[i])
        case .uint(let a): return .uint(a[i])
        case .float(let a): return .float(a[i])
        case .double(let a): return .double(a[i])
        }
    }

    /// Every element as a leaf node.
    public var leaves: [BinaryValue] { (0..<count).map { leaf(at: $0) } }

    /// A packed array of `kind` from leaves, converting numbers that fit exactly; `nil` if one does not.
    init?(kind: Kind, leaves: [BinaryValue]) {
        func all<T>(_ convert: (BinaryValue) -> T?) -> [T]? {
            var out: [T] = []
            out.reserveCapacity(leaves.count)
            for leaf in leaves {
                guard let v = convert(leaf) else { return nil }
                out.append(v)
            }
            return out
        }
        switch kind {
        case .bool:
            guard
                let a = all({
                    if case .bool(let b) = $0 { return b }
                    return nil
                })
            else { return nil }
            self = .bool(a)
        case .int8:
            guard let a = all({ $0.exactInteger(Int8.self) }) else { return nil }
            self = .int8(a)
        case .uint8:
            guard let a = all({ $0.exactInteger(UInt8.self) }) else { return nil }
            self = .uint8(a)
        case .int16:
            guard let a = all({ $0.exactInteger(Int16.self) }) else { return nil }
            self = .int16(a)
        case .uint16:
            guard let a = all({ $0.exactInteger(UInt16.self) }) else { return nil }
            self = .uint16(a)
        case .int32:
            guard let a = all({ $0.exactInteger(Int32.self) }) else { return nil }
            self = .int32(a)
        case .uint32:
            guard let a = all({ $0.exactInteger(UInt32.self) }) else { return nil }
            self = .uint32(a)
        case .int64:
            guard let a = all({ $0.exactInteger(Int64.self) }) else { return nil }
            self = .int64(a)
        case .uint64:
            guard let a = all({ $0.exactInteger(UInt64.self) }) else { return nil }
            self = .uint64(a)
        case .int:
            guard let a = all({ $0.exactInteger(Int.self) }) else { return nil }
            self = .int(a)
        case .uint:
            guard let a = all({ $0.exactInteger(UInt.self) }) else { return nil }
            self = .uint(a)
        case .float:
            guard
                let a = all({
                    if case .float(let f) = $0.converted(to: .float) { return f }
                    return nil
                })
            else { return nil }
            self = .float(a)
        case .double:
            guard
                let a = all({
                    if case .double(let d) = $0.converted(to: .double) { return d }
                    return nil
                })
            else { return nil }
            self = .double(a)
        }
    }
}
