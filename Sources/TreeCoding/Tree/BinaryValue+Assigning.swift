import Foundation

/// How a value assigned in place of a leaf keeps that leaf's type: the one conversion rule of
/// the subscript setters and the editing methods.
extension BinaryValue {
    /// The node an assignment stores in place of this one: `value` converted exactly to this
    /// leaf's type and integer encoding (see ``converting(_:)``) where it can be, else `value`
    /// as it is.
    ///
    /// So `tree["count"] = 5` on a `UInt32` field stores `.uint32(5, .varint)`, which the bytes
    /// keep, rather than the literal's zig-zag `.int(5)`, which a `UInt32` would read back as 10.
    public func assigning(_ value: BinaryValue) -> BinaryValue {
        converting(value) ?? value
    }

    /// `value` as a leaf of this leaf's type and integer encoding, inside the same `.single` and
    /// `.optional(.some)` marks; `nil` when this node is not a primitive leaf (a `Bool`, number,
    /// `String` or `Data`), when `value` is not one, or when it does not convert exactly:
    /// - an integer converts to any integer type that holds its value, and to `Float` or
    ///   `Double` when the value is exactly representable;
    /// - a `Float` converts to `Double` (always exact);
    /// - a `Double` converts to `Float` when the `Float` has the same value or reads, in its
    ///   shortest decimal form, as the `Double` (so the literal `0.1` stores `Float(0.1)`, while
    ///   `0.1 + 0.2`, whose shortest form is `0.30000000000000004`, does not convert);
    /// - a `Bool`, `String` or `Data` converts only to its own type;
    /// - in place of a packed array, an unkeyed container or packed array converts when each
    ///   element converts to the packed element type: `tree["ids"] = [1, 2]` keeps `[UInt32]`.
    public func converting(_ value: BinaryValue) -> BinaryValue? {
        switch self {
        case .single(let inner): return inner.converting(value).map { .single($0) }
        case .optional(.some(let inner)): return inner.converting(value).map { .optional($0) }
        case .packed(let packed): return value.packed(as: packed.elementKind).map { .packed($0) }
        default: return leafKind.flatMap { value.exactly(as: $0) }
        }
    }

    /// This unkeyed container or packed array as a packed array of `kind`, each element
    /// converted exactly; `nil` if one does not convert.
    private func packed(as kind: PackedArray.Kind) -> PackedArray? {
        let elements: [BinaryValue]
        switch self {
        case .unkeyed(let values): elements = values
        case .packed(let p): elements = p.leaves
        default: return nil
        }
        let element = kind.elementScalarKind
        var leaves: [BinaryValue] = []
        leaves.reserveCapacity(elements.count)
        for e in elements {
            guard let leaf = e.exactly(as: element) else { return nil }
            leaves.append(leaf)
        }
        return PackedArray(kind: kind, leaves: leaves)
    }

    /// The primitive type and integer encoding of this leaf; `nil` for other nodes.
    var leafKind: ScalarKind? {
        switch self {
        case .bool: return .bool
        case .int8: return .int8
        case .uint8: return .uint8
        case .int16(_, let e): return .int16(e)
        case .uint16(_, let e): return .uint16(e)
        case .int32(_, let e): return .int32(e)
        case .uint32(_, let e): return .uint32(e)
        case .int64(_, let e): return .int64(e)
        case .uint64(_, let e): return .uint64(e)
        case .int(_, let e): return .int(e)
        case .uint(_, let e): return .uint(e)
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .data
        default: return nil
        }
    }

    /// This leaf as a leaf of `kind`, by the rules of ``converting(_:)``.
    func exactly(as kind: ScalarKind) -> BinaryValue? {
        switch kind {
        case .bool:
            if case .bool = self { return self }
            return nil
        case .string:
            if case .string = self { return self }
            return nil
        case .data:
            if case .data = self { return self }
            return nil
        case .float:
            switch self {
            case .float: return self
            case .double(let d): return Self.float(showing: d).map { .float($0) }
            default: return exactFloatingPoint(Float.self).map { .float($0) }
            }
        case .double:
            switch self {
            case .double: return self
            case .float(let f): return .double(Double(f))
            default: return exactFloatingPoint(Double.self).map { .double($0) }
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

    /// The value of an integer leaf as `T`, if `T` represents it exactly.
    private func exactFloatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) -> T? {
        if let v = exactInteger(Int64.self) { return T(exactly: v) }
        if let v = exactInteger(UInt64.self) { return T(exactly: v) }
        return nil
    }

    /// The `Float` for `d`: the same value, or the `Float` whose shortest decimal form reads as
    /// `d` (what a literal of that decimal gives); `nil` otherwise.
    private static func float(showing d: Double) -> Float? {
        if d.isNaN { return .nan }
        let f = Float(d)
        if Double(f) == d { return f }
        guard f.isFinite, Double(f.description) == d else { return nil }
        return f
    }
}

extension PackedArray.Kind {
    /// The primitive type and integer encoding of the elements (as ``PackedArray/leaf(at:)``
    /// gives them).
    var elementScalarKind: ScalarKind {
        switch self {
        case .bool: return .bool
        case .int8: return .int8
        case .uint8: return .uint8
        case .int16: return .int16(.fixed)
        case .uint16: return .uint16(.fixed)
        case .int32: return .int32(.zigZag)
        case .uint32: return .uint32(.varint)
        case .int64: return .int64(.zigZag)
        case .uint64: return .uint64(.varint)
        case .int: return .int(.zigZag)
        case .uint: return .uint(.varint)
        case .float: return .float
        case .double: return .double
        }
    }
}
