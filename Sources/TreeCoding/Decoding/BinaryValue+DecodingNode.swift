import Foundation

/// Decoding from a tree: the answers ``BinaryValue`` gives to the decoder's requests.
///
/// Tree decoding is lenient where the tree is unambiguous, so that hand-built trees decode:
/// `.single` and `.optional` wrappers are looked through when a type does not ask for them,
/// integers convert between widths when the value fits exactly, and unkeyed containers of
/// leaves decode as packed arrays (and the other way round).
extension BinaryValue {
    /// The node without `.single`/`.optional` wrappers.
    var unwrapped: BinaryValue {
        var v = self
        while true {
            switch v {
            case .single(let inner), .optional(.some(let inner)): v = inner
            default: return v
            }
        }
    }

    private func mismatch(_ expected: String) -> WireFormatError {
        WireFormatError(.typeMismatch, "expected \(expected), found \(kindName) node")
    }

    func treeKeyedView() throws -> TreeKeyedView {
        switch unwrapped {
        case .keyed(let fields): return TreeKeyedView(fields: fields)
        case .nil, .optional(.none): throw WireFormatError(.valueNotFound, "expected a keyed container, found nil")
        default: throw mismatch("a keyed container")
        }
    }

    func treeUnkeyedView() throws -> TreeUnkeyedView {
        switch unwrapped {
        case .unkeyed(let values): return TreeUnkeyedView(source: .values(values))
        case .packed(let packed): return TreeUnkeyedView(source: .packed(packed))
        case .nil, .optional(.none): throw WireFormatError(.valueNotFound, "expected an unkeyed container, found nil")
        default: throw mismatch("an unkeyed container")
        }
    }

    /// The content of a single-value container or optional; `nil` for nil. A node without a
    /// wrapper is its own content, so that hand-built trees need not spell the wrappers out.
    func treeSingleValueContent() -> BinaryValue? {
        switch self {
        case .nil, .optional(.none), .single(.nil): return nil
        case .single(let inner), .optional(.some(let inner)): return inner
        default: return self
        }
    }

    func treeScalar(_ kind: ScalarKind) throws -> BinaryValue {
        let leaf = unwrapped
        if leaf.isNil { throw WireFormatError(.valueNotFound, "expected \(kind), found nil") }
        guard let converted = leaf.converted(to: kind) else { throw mismatch("\(kind)") }
        return converted
    }

    func treePacked(_ kind: PackedArray.Kind) throws -> PackedArray {
        let node = unwrapped
        if case .packed(let packed) = node, packed.elementKind == kind { return packed }
        let elements: [BinaryValue]
        switch node {
        case .packed(let packed): elements = packed.leaves
        case .unkeyed(let values): elements = values
        case .nil, .optional(.none): throw WireFormatError(.valueNotFound, "expected [\(kind.rawValue)], found nil")
        default: throw mismatch("[\(kind.rawValue)]")
        }
        guard let packed = PackedArray(kind: kind, leaves: elements.map { $0.unwrapped }) else {
            throw mismatch("[\(kind.rawValue)]")
        }
        return packed
    }

    /// This leaf as exactly `kind`, converting numbers that fit exactly.
    func converted(to kind: ScalarKind) -> BinaryValue? {
        switch kind {
        case .bool:
            if case .bool = self { return self }
            return nil
        case .string:
            if case .string = self { return self }
            return nil
        case .data:
            if case .data = self { return self }
            if case .packed(.uint8(let bytes)) = self { return .data(Data(bytes)) }
            return nil
        case .float:
            switch self {
            case .float: return self
            case .double(let d): return Float(exactly: d).map { .float($0) }
            default: return exactInteger(Int64.self).flatMap { Float(exactly: $0) }.map { .float($0) }
            }
        case .double:
            switch self {
            case .double: return self
            case .float(let f): return .double(Double(f))
            default: return exactInteger(Int64.self).flatMap { Double(exactly: $0) }.map { .double($0) }
            }
        case .int8: return exactInteger(Int8.self).map { .int8($0) }
        case .uint8: return exactInteger(UInt8.self).map { .uint8($0) }
        case .int16(let e): return exactInteger(Int16.self).map { .int16($0, e) }
        case .uint16(let e): return exactInteger(UInt16.self).map { .uint16($0, e) }
        case .int32(let e): return exactInteger(Int32.self).map { .int32($0, e) }
        case .uint32(let e): return exactInteger(UInt32.self).map { .uint32($0, e) }
        case .int64(let e): return exactInteger(Int64.self).map { .int64($0, e) }
        case .uint64(let e): return exactInteger(UInt64.self).map { .uint64($0, e) }
        case .int(let e): return exactInteger(Int.self).map { .int($0, e) }
        case .uint(let e): return exactInteger(UInt.self).map { .uint($0, e) }
        }
    }

    /// The integer value of an integer leaf, if it fits `T` exactly.
    func exactInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        switch self {
        case .int8(let v): return T(exactly: v)
        case .uint8(let v): return T(exactly: v)
        case .int16(let v, _): return T(exactly: v)
        case .uint16(let v, _): return T(exactly: v)
        case .int32(let v, _): return T(exactly: v)
        case .uint32(let v, _): return T(exactly: v)
        case .int64(let v, _): return T(exactly: v)
        case .uint64(let v, _): return T(exactly: v)
        case .int(let v, _): return T(exactly: v)
        case .uint(let v, _): return T(exactly: v)
        default: return nil
        }
    }
}

/// A keyed container of a tree.
package struct TreeKeyedView {
    let fields: KeyedFields
    /// Key -> position, for large containers.
    let index: [BinaryKey: Int]?

    init(fields: KeyedFields) {
        self.fields = fields
        if fields.count > 16 {
            var map = [BinaryKey: Int](minimumCapacity: fields.count)
            for (i, f) in fields.fields.enumerated() where map[f.key] == nil { map[f.key] = i }
            index = map
        } else {
            index = nil
        }
    }

    /// The position of `key`: through the index, or by a search that starts at `hint` (the
    /// field after the one found last: types read fields in the order they wrote them) and wraps
    /// around. Keys are distinct, so where the search starts does not change the answer.
    private func lookup(_ key: BinaryKey, hint: Int) -> Int? {
        if let index { return index[key] }
        let f = fields.fields
        return firstPosition(from: hint, count: f.count) { f[$0].key == key }
    }

    private func position(_ key: some CodingKey, hint: Int) -> Int? {
        let k = BinaryKey(key)
        if let p = lookup(k, hint: hint) { return p }
        // A hand-built tree may name an integer key by its string.
        if k.intValue != nil { return lookup(BinaryKey(stringValue: k.stringValue), hint: hint) }
        return nil
    }

    package func contains(_ key: some CodingKey) -> Bool { position(key, hint: 0) != nil }

    /// The value of `key`; the search starts at `hint` and leaves it after the field found.
    package func node(forKey key: some CodingKey, hint: inout Int) -> BinaryValue? {
        guard let p = position(key, hint: hint) else { return nil }
        hint = p + 1
        return fields.fields[p].value
    }
}

/// An unkeyed container of a tree (or a packed array read element by element).
package struct TreeUnkeyedView {
    enum Source {
        case values([BinaryValue])
        case packed(PackedArray)
    }

    let source: Source
    package private(set) var currentIndex = 0

    init(source: Source) { self.source = source }

    package var count: Int? {
        switch source {
        case .values(let v): return v.count
        case .packed(let p): return p.count
        }
    }

    package var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    private func element(_ i: Int) -> BinaryValue {
        switch source {
        case .values(let v): return v[i]
        case .packed(let p): return p.leaf(at: i)
        }
    }

    package mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw WireFormatError(.valueNotFound, "the unkeyed container is at its end") }
        if element(currentIndex).isNil {
            currentIndex += 1
            return true
        }
        return false
    }

    package mutating func nextElement() throws -> BinaryValue {
        guard !isAtEnd else { throw WireFormatError(.valueNotFound, "the unkeyed container is at its end") }
        defer { currentIndex += 1 }
        return element(currentIndex)
    }

}
