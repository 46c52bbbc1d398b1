import Foundation

/// Decoding from a tree: the answers ``BinaryValue`` gives to the decoder's requests.
///
/// Tree decoding accepts what the bytes of the tree would give back: a `.single` or `.optional`
/// mark only where a type asks for one, and a leaf read as another primitive type only where
/// both formats would read its bytes as the same value (``converted(to:)``).
extension BinaryValue {
    /// The node a type that asks for a container or a primitive reads: the node itself. A
    /// `.single` or `.optional` mark is read only by a single-value container or an `Optional`
    /// (the formats write them differently: v3 a nil byte at the top level, v2 an optional's flag).
    var unwrapped: BinaryValue { self }

    private func mismatch(_ expected: String) -> TreeRuleViolation {
        TreeRuleViolation(.typeMismatch, "expected \(expected), found \(kindName) node")
    }

    package func treeKeyedView() throws -> TreeKeyedView {
        switch unwrapped {
        case .keyed(let fields): return TreeKeyedView(fields: fields)
        case .nil, .optional(.none): throw TreeRuleViolation(.valueNotFound, "expected a keyed container, found nil")
        default: throw mismatch("a keyed container")
        }
    }

    package func treeUnkeyedView() throws -> TreeUnkeyedView {
        switch unwrapped {
        case .unkeyed(let values): return TreeUnkeyedView(source: .values(values))
        case .packed(let packed): return TreeUnkeyedView(source: .packed(packed))
        case .nil, .optional(.none): throw TreeRuleViolation(.valueNotFound, "expected an unkeyed container, found nil")
        default: throw mismatch("an unkeyed container")
        }
    }

    /// The content of an `Optional` (`optional`) or of a single-value container; `nil` for nil.
    ///
    /// Only where the bytes agree: an `Optional` holds a value only in an `.optional` mark (v2
    /// writes a flag before it); a single-value container takes a `.single` mark, or inside a
    /// keyed or unkeyed container (not `atRoot`, where v3 writes a nil byte first) a node without
    /// one, so that hand-built trees need not spell it out.
    package func treeContent(optional: Bool, atRoot: Bool) throws -> BinaryValue? {
        switch self {
        case .nil, .optional(.none), .single(.nil): return nil
        case .optional(.some(let inner)) where optional: return inner
        case .single(let inner) where !optional: return inner
        case .single, .optional: throw mismatch(optional ? "an optional" : "a single-value container")
        default:
            if optional || atRoot { throw mismatch(optional ? "an optional" : "a single-value container") }
            return self
        }
    }

    /// Checks the node of a type whose `init(from:)` asked for no container (an empty struct):
    /// the bytes of an empty container, which nothing else reads back as.
    package func treeEmptyContainer() throws {
        switch self {
        case .keyed(let f) where f.isEmpty: return
        case .unkeyed(let e) where e.isEmpty: return
        default: throw TreeRuleViolation(.typeMismatch, "expected an empty container, found \(kindName) node")
        }
    }

    package func treeScalar(_ kind: ScalarKind) throws -> BinaryValue {
        let leaf = unwrapped
        if leaf.isNil { throw TreeRuleViolation(.valueNotFound, "expected \(kind), found nil") }
        guard let converted = leaf.converted(to: kind) else { throw mismatch("\(kind)") }
        return converted
    }

    /// A packed array of `kind`: a `.packed` node, of `kind` or of elements that each read as
    /// `kind` (``converted(to:)``). Not an unkeyed container, which v3 writes element by element.
    package func treePacked(_ kind: PackedArray.Kind) throws -> PackedArray {
        switch unwrapped {
        case .packed(let packed):
            if packed.elementKind == kind { return packed }
            let element = kind.elementScalarKind
            var leaves: [BinaryValue] = []
            leaves.reserveCapacity(packed.count)
            for leaf in packed.leaves {
                guard let converted = leaf.converted(to: element) else { throw mismatch("[\(kind.rawValue)]") }
                leaves.append(converted)
            }
            guard let converted = PackedArray(kind: kind, leaves: leaves) else { throw mismatch("[\(kind.rawValue)]") }
            return converted
        case .nil, .optional(.none): throw TreeRuleViolation(.valueNotFound, "expected [\(kind.rawValue)], found nil")
        default: throw mismatch("[\(kind.rawValue)] (a packed array)")
        }
    }

    /// This leaf as exactly `kind`, when the bytes both formats write for the leaf read back as
    /// the same value of `kind`; `nil` otherwise.
    ///
    /// As strict as the bytes, so that a tree that decodes serializes to bytes that decode to the
    /// same value: a `Bool`, `Float`, `Double` or `String` only from its own leaf (`Data` also
    /// from a packed `[UInt8]`, the same bytes); an integer from an integer leaf whose value fits
    /// `kind` and is written the same way, e.g. `.int32(5)` for an `Int64` (both zig-zag varints)
    /// but not `.int(5)` for a `UInt32` (zig-zag 10, which a `UInt32` reads as 10) nor
    /// `.int16(5, .fixed)` for an `Int16` asked as a varint.
    package func converted(to kind: ScalarKind) -> BinaryValue? {
        if leafKind == kind { return self }
        switch kind {
        case .bool, .string, .float, .double:
            return nil
        case .data:
            if case .data = self { return self }
            if case .packed(.uint8(let bytes)) = self { return .data(Data(bytes)) }
            return nil
        default:
            guard let wire = integerWire, let converted = exactly(as: kind), let same = converted.integerWire,
                same == wire
            else {
                return nil
            }
            return converted
        }
    }

    /// How an integer leaf is written: its width for a fixed-size integer, else the unsigned
    /// value of its varint; `nil` for other nodes.
    private var integerWire: (width: Int, bits: UInt64)? {
        func wire(_ bits: UInt64, _ signed: Int64, _ e: IntegerEncoding, _ width: Int) -> (width: Int, bits: UInt64) {
            switch e {
            case .fixed: return (width, bits)
            case .varint: return (0, bits)
            case .zigZag: return (0, zigZag(signed))
            }
        }
        switch self {
        case .int8(let v): return (1, UInt64(UInt8(bitPattern: v)))
        case .uint8(let v): return (1, UInt64(v))
        case .int16(let v, let e): return wire(UInt64(UInt16(bitPattern: v)), Int64(v), e, 2)
        case .uint16(let v, let e): return wire(UInt64(v), 0, e, 2)
        case .int32(let v, let e): return wire(UInt64(UInt32(bitPattern: v)), Int64(v), e, 4)
        case .uint32(let v, let e): return wire(UInt64(v), 0, e, 4)
        case .int64(let v, let e): return wire(UInt64(bitPattern: v), v, e, 8)
        case .uint64(let v, let e): return wire(v, 0, e, 8)
        case .int(let v, let e): return wire(UInt64(bitPattern: Int64(v)), Int64(v), e, 8)
        case .uint(let v, let e): return wire(UInt64(v), 0, e, 8)
        default: return nil
        }
    }

    /// The integer value of an integer leaf, if it fits `T` exactly.
    package func exactInteger<T: FixedWidthInteger>(_ type: T.Type) -> T? {
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
    package let fields: KeyedFields
    /// Key -> position, for large containers.
    let index: [BinaryKey: Int]?

    package init(fields: KeyedFields) {
        self.fields = fields
        if fields.count > KeyLookup.scanLimit {
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

    private func position(_ k: BinaryKey, hint: Int) -> Int? {
        if let p = lookup(k, hint: hint) { return p }
        // A hand-built tree may name an integer key by its string.
        if k.intValue != nil { return lookup(BinaryKey(stringValue: k.stringValue), hint: hint) }
        return nil
    }

    package func contains(_ key: BinaryKey) -> Bool { position(key, hint: 0) != nil }

    /// The value of `key`; the search starts at `hint` and leaves it after the field found.
    package func node(forKey key: BinaryKey, hint: inout Int) -> BinaryValue? {
        guard let p = position(key, hint: hint) else { return nil }
        hint = p + 1
        return fields.fields[p].value
    }
}

/// An unkeyed container of a tree (or a packed array read element by element).
package struct TreeUnkeyedView {
    package enum Source {
        case values([BinaryValue])
        case packed(PackedArray)
    }

    let source: Source
    package private(set) var currentIndex = 0

    package init(source: Source) { self.source = source }

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
        guard !isAtEnd else { throw TreeRuleViolation(.valueNotFound, "the unkeyed container is at its end") }
        if element(currentIndex).isNil {
            currentIndex += 1
            return true
        }
        return false
    }

    package mutating func nextElement() throws -> BinaryValue {
        guard !isAtEnd else { throw TreeRuleViolation(.valueNotFound, "the unkeyed container is at its end") }
        defer { currentIndex += 1 }
        return element(currentIndex)
    }

}
