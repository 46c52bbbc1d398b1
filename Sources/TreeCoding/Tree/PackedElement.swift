import Foundation

/// Element types whose arrays and sets the tree coders handle in one step, without
/// `Array.encode(to:)`/`init(from:)` going element by element: primitives (packed) and strings
/// and data (unkeyed containers of leaves).
package protocol ArrayElement: Codable {
    static func encodeArray(_ elements: [Self]) -> BinaryValue
}

/// Element types whose arrays and sets are stored as one ``PackedArray`` node.
package protocol PackedElement: ArrayElement {
    static var packedKind: PackedArray.Kind { get }
    static func pack(_ elements: [Self]) -> PackedArray
    static func unpack(_ packed: PackedArray) -> [Self]?
}

extension PackedElement {
    /// The elements of a packed array read for this type (of ``packedKind``); one of another
    /// kind (which a reader that answers the requested kind never returns) is a type mismatch.
    package static func elements(of packed: PackedArray) throws -> [Self] {
        guard let elements = unpack(packed) else {
            throw TreeRuleViolation(
                .typeMismatch, "expected [\(Self.self)], found [\(packed.elementKind.rawValue)]")
        }
        return elements
    }
}

extension Bool: PackedElement {
    package static var packedKind: PackedArray.Kind { .bool }
    package static func pack(_ e: [Bool]) -> PackedArray { .bool(e) }
    package static func unpack(_ p: PackedArray) -> [Bool]? {
        if case .bool(let a) = p { return a }
        return nil
    }
}
extension Int8: PackedElement {
    package static var packedKind: PackedArray.Kind { .int8 }
    package static func pack(_ e: [Int8]) -> PackedArray { .int8(e) }
    package static func unpack(_ p: PackedArray) -> [Int8]? {
        if case .int8(let a) = p { return a }
        return nil
    }
}
extension UInt8: PackedElement {
    package static var packedKind: PackedArray.Kind { .uint8 }
    package static func pack(_ e: [UInt8]) -> PackedArray { .uint8(e) }
    package static func unpack(_ p: PackedArray) -> [UInt8]? {
        if case .uint8(let a) = p { return a }
        return nil
    }
}
extension Int16: PackedElement {
    package static var packedKind: PackedArray.Kind { .int16 }
    package static func pack(_ e: [Int16]) -> PackedArray { .int16(e) }
    package static func unpack(_ p: PackedArray) -> [Int16]? {
        if case .int16(let a) = p { return a }
        return nil
    }
}
extension UInt16: PackedElement {
    package static var packedKind: PackedArray.Kind { .uint16 }
    package static func pack(_ e: [UInt16]) -> PackedArray { .uint16(e) }
    package static func unpack(_ p: PackedArray) -> [UInt16]? {
        if case .uint16(let a) = p { return a }
        return nil
    }
}
extension Int32: PackedElement {
    package static var packedKind: PackedArray.Kind { .int32 }
    package static func pack(_ e: [Int32]) -> PackedArray { .int32(e) }
    package static func unpack(_ p: PackedArray) -> [Int32]? {
        if case .int32(let a) = p { return a }
        return nil
    }
}
extension UInt32: PackedElement {
    package static var packedKind: PackedArray.Kind { .uint32 }
    package static func pack(_ e: [UInt32]) -> PackedArray { .uint32(e) }
    package static func unpack(_ p: PackedArray) -> [UInt32]? {
        if case .uint32(let a) = p { return a }
        return nil
    }
}
extension Int64: PackedElement {
    package static var packedKind: PackedArray.Kind { .int64 }
    package static func pack(_ e: [Int64]) -> PackedArray { .int64(e) }
    package static func unpack(_ p: PackedArray) -> [Int64]? {
        if case .int64(let a) = p { return a }
        return nil
    }
}
extension UInt64: PackedElement {
    package static var packedKind: PackedArray.Kind { .uint64 }
    package static func pack(_ e: [UInt64]) -> PackedArray { .uint64(e) }
    package static func unpack(_ p: PackedArray) -> [UInt64]? {
        if case .uint64(let a) = p { return a }
        return nil
    }
}
extension Int: PackedElement {
    package static var packedKind: PackedArray.Kind { .int }
    package static func pack(_ e: [Int]) -> PackedArray { .int(e) }
    package static func unpack(_ p: PackedArray) -> [Int]? {
        if case .int(let a) = p { return a }
        return nil
    }
}
extension UInt: PackedElement {
    package static var packedKind: PackedArray.Kind { .uint }
    package static func pack(_ e: [UInt]) -> PackedArray { .uint(e) }
    package static func unpack(_ p: PackedArray) -> [UInt]? {
        if case .uint(let a) = p { return a }
        return nil
    }
}
extension Float: PackedElement {
    package static var packedKind: PackedArray.Kind { .float }
    package static func pack(_ e: [Float]) -> PackedArray { .float(e) }
    package static func unpack(_ p: PackedArray) -> [Float]? {
        if case .float(let a) = p { return a }
        return nil
    }
}
extension Double: PackedElement {
    package static var packedKind: PackedArray.Kind { .double }
    package static func pack(_ e: [Double]) -> PackedArray { .double(e) }
    package static func unpack(_ p: PackedArray) -> [Double]? {
        if case .double(let a) = p { return a }
        return nil
    }
}
