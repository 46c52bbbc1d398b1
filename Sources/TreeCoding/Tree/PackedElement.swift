import Foundation

/// Element types whose arrays and sets the tree coders handle in one step, without
/// `Array.encode(to:)`/`init(from:)` going element by element: primitives (packed) and strings
/// and data (unkeyed containers of leaves).
protocol ArrayElement: Codable {
    static func encodeArray(_ elements: [Self]) -> BinaryValue
    /// Sends the node of ``encodeArray(_:)`` to a streaming encoder.
    static func streamArray(_ elements: [Self], into engine: StreamingEncoder)
    static func decodeArray(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Self]
}

/// Element types whose arrays and sets are stored as one ``PackedArray`` node.
protocol PackedElement: ArrayElement {
    static var packedKind: PackedArray.Kind { get }
    static func pack(_ elements: [Self]) -> PackedArray
    static func unpack(_ packed: PackedArray) -> [Self]?
}

extension Bool: PackedElement {
    static var packedKind: PackedArray.Kind { .bool }
    static func pack(_ e: [Bool]) -> PackedArray { .bool(e) }
    static func unpack(_ p: PackedArray) -> [Bool]? {
        if case .bool(let a) = p { return a }
        return nil
    }
}
extension Int8: PackedElement {
    static var packedKind: PackedArray.Kind { .int8 }
    static func pack(_ e: [Int8]) -> PackedArray { .int8(e) }
    static func unpack(_ p: PackedArray) -> [Int8]? {
        if case .int8(let a) = p { return a }
        return nil
    }
}
extension UInt8: PackedElement {
    static var packedKind: PackedArray.Kind { .uint8 }
    static func pack(_ e: [UInt8]) -> PackedArray { .uint8(e) }
    static func unpack(_ p: PackedArray) -> [UInt8]? {
        if case .uint8(let a) = p { return a }
        return nil
    }
}
extension Int16: PackedElement {
    static var packedKind: PackedArray.Kind { .int16 }
    static func pack(_ e: [Int16]) -> PackedArray { .int16(e) }
    static func unpack(_ p: PackedArray) -> [Int16]? {
        if case .int16(let a) = p { return a }
        return nil
    }
}
extension UInt16: PackedElement {
    static var packedKind: PackedArray.Kind { .uint16 }
    static func pack(_ e: [UInt16]) -> PackedArray { .uint16(e) }
    static func unpack(_ p: PackedArray) -> [UInt16]? {
        if case .uint16(let a) = p { return a }
        return nil
    }
}
extension Int32: PackedElement {
    static var packedKind: PackedArray.Kind { .int32 }
    static func pack(_ e: [Int32]) -> PackedArray { .int32(e) }
    static func unpack(_ p: PackedArray) -> [Int32]? {
        if case .int32(let a) = p { return a }
        return nil
    }
}
extension UInt32: PackedElement {
    static var packedKind: PackedArray.Kind { .uint32 }
    static func pack(_ e: [UInt32]) -> PackedArray { .uint32(e) }
    static func unpack(_ p: PackedArray) -> [UInt32]? {
        if case .uint32(let a) = p { return a }
        return nil
    }
}
extension Int64: PackedElement {
    static var packedKind: PackedArray.Kind { .int64 }
    static func pack(_ e: [Int64]) -> PackedArray { .int64(e) }
    static func unpack(_ p: PackedArray) -> [Int64]? {
        if case .int64(let a) = p { return a }
        return nil
    }
}
extension UInt64: PackedElement {
    static var packedKind: PackedArray.Kind { .uint64 }
    static func pack(_ e: [UInt64]) -> PackedArray { .uint64(e) }
    static func unpack(_ p: PackedArray) -> [UInt64]? {
        if case .uint64(let a) = p { return a }
        return nil
    }
}
extension Int: PackedElement {
    static var packedKind: PackedArray.Kind { .int }
    static func pack(_ e: [Int]) -> PackedArray { .int(e) }
    static func unpack(_ p: PackedArray) -> [Int]? {
        if case .int(let a) = p { return a }
        return nil
    }
}
extension UInt: PackedElement {
    static var packedKind: PackedArray.Kind { .uint }
    static func pack(_ e: [UInt]) -> PackedArray { .uint(e) }
    static func unpack(_ p: PackedArray) -> [UInt]? {
        if case .uint(let a) = p { return a }
        return nil
    }
}
extension Float: PackedElement {
    static var packedKind: PackedArray.Kind { .float }
    static func pack(_ e: [Float]) -> PackedArray { .float(e) }
    static func unpack(_ p: PackedArray) -> [Float]? {
        if case .float(let a) = p { return a }
        return nil
    }
}
extension Double: PackedElement {
    static var packedKind: PackedArray.Kind { .double }
    static func pack(_ e: [Double]) -> PackedArray { .double(e) }
    static func unpack(_ p: PackedArray) -> [Double]? {
        if case .double(let a) = p { return a }
        return nil
    }
}
