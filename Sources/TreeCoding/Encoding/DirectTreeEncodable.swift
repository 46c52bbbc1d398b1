package import Foundation

/// Values the tree encoder turns into a node itself, without calling `encode(to:)`:
/// primitives, `Data`, packed arrays and sets, optionals and the integer wrappers.
///
/// The streaming encoder in BinarySerialization sends the same nodes for the same types
/// (`DirectStreamEncodable`); the node each type makes is decided here.
package protocol DirectTreeEncodable {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue
}

/// A value that is a single leaf of the tree.
package protocol LeafTreeEncodable: DirectTreeEncodable {
    var leaf: BinaryValue { get }
}

extension LeafTreeEncodable {
    @inline(__always)
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue { leaf }
}

extension Bool: LeafTreeEncodable { package var leaf: BinaryValue { .bool(self) } }
extension String: LeafTreeEncodable { package var leaf: BinaryValue { .string(self) } }
extension Double: LeafTreeEncodable { package var leaf: BinaryValue { .double(self) } }
extension Float: LeafTreeEncodable { package var leaf: BinaryValue { .float(self) } }
extension Int: LeafTreeEncodable { package var leaf: BinaryValue { .int(self) } }
extension Int8: LeafTreeEncodable { package var leaf: BinaryValue { .int8(self) } }
extension Int16: LeafTreeEncodable { package var leaf: BinaryValue { .int16(self) } }
extension Int32: LeafTreeEncodable { package var leaf: BinaryValue { .int32(self) } }
extension Int64: LeafTreeEncodable { package var leaf: BinaryValue { .int64(self) } }
extension UInt: LeafTreeEncodable { package var leaf: BinaryValue { .uint(self) } }
extension UInt8: LeafTreeEncodable { package var leaf: BinaryValue { .uint8(self) } }
extension UInt16: LeafTreeEncodable { package var leaf: BinaryValue { .uint16(self) } }
extension UInt32: LeafTreeEncodable { package var leaf: BinaryValue { .uint32(self) } }
extension UInt64: LeafTreeEncodable { package var leaf: BinaryValue { .uint64(self) } }
extension Data: LeafTreeEncodable { package var leaf: BinaryValue { .data(self) } }

extension Array: DirectTreeEncodable where Element: ArrayElement {
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        Element.encodeArray(self)
    }
}

extension Set: DirectTreeEncodable where Element: ArrayElement {
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        Element.encodeArray(Array(self))
    }
}

extension PackedElement {
    package static func encodeArray(_ elements: [Self]) -> BinaryValue { .packed(pack(elements)) }
}

extension String {
    package static func encodeArray(_ elements: [String]) -> BinaryValue { .unkeyed(elements.map { .string($0) }) }
}

extension Data {
    package static func encodeArray(_ elements: [Data]) -> BinaryValue { .unkeyed(elements.map { .data($0) }) }
}

extension Optional: DirectTreeEncodable where Wrapped: Encodable {
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        switch self {
        case .none: return BinaryValue.optionalNone
        case .some(let wrapped): return .optional(try encoder.encodeValue(wrapped, step: step))
        }
    }
}

/// `[String: V]` and `[Int: V]`: written entry by entry as `Dictionary.encode(to:)` would write
/// them, without the standard library's container box and key per entry, and without a search
/// for repeated keys where none can repeat; the tree encoder builds the node the same way.
extension Dictionary: DirectTreeEncodable where Key: DictionaryKey, Value: Encodable {
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        try encoder.encodeDictionary(self, step: step)
    }
}
