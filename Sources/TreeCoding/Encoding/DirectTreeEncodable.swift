import Foundation

/// Values the tree encoder turns into a node itself, without calling `encode(to:)`:
/// primitives, `Data`, packed arrays and sets, optionals and the integer wrappers.
protocol DirectTreeEncodable {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue
    /// Sends the same node to a streaming encoder; frame `parent` is its innermost open frame.
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws
}

/// A value that is a single leaf of the tree.
protocol LeafTreeEncodable: DirectTreeEncodable {
    var leaf: BinaryValue { get }
}

extension LeafTreeEncodable {
    @inline(__always)
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue { leaf }
    @inline(__always)
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws { engine.send(leaf) }
}

extension Bool: LeafTreeEncodable { var leaf: BinaryValue { .bool(self) } }
extension String: LeafTreeEncodable { var leaf: BinaryValue { .string(self) } }
extension Double: LeafTreeEncodable { var leaf: BinaryValue { .double(self) } }
extension Float: LeafTreeEncodable { var leaf: BinaryValue { .float(self) } }
extension Int: LeafTreeEncodable { var leaf: BinaryValue { .int(self) } }
extension Int8: LeafTreeEncodable { var leaf: BinaryValue { .int8(self) } }
extension Int16: LeafTreeEncodable { var leaf: BinaryValue { .int16(self) } }
extension Int32: LeafTreeEncodable { var leaf: BinaryValue { .int32(self) } }
extension Int64: LeafTreeEncodable { var leaf: BinaryValue { .int64(self) } }
extension UInt: LeafTreeEncodable { var leaf: BinaryValue { .uint(self) } }
extension UInt8: LeafTreeEncodable { var leaf: BinaryValue { .uint8(self) } }
extension UInt16: LeafTreeEncodable { var leaf: BinaryValue { .uint16(self) } }
extension UInt32: LeafTreeEncodable { var leaf: BinaryValue { .uint32(self) } }
extension UInt64: LeafTreeEncodable { var leaf: BinaryValue { .uint64(self) } }
extension Data: LeafTreeEncodable { var leaf: BinaryValue { .data(self) } }

extension Array: DirectTreeEncodable where Element: ArrayElement {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        Element.encodeArray(self)
    }

    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        Element.streamArray(self, into: engine)
    }
}

extension Set: DirectTreeEncodable where Element: ArrayElement {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        Element.encodeArray(Array(self))
    }

    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        Element.streamArray(Array(self), into: engine)
    }
}

extension PackedElement {
    static func encodeArray(_ elements: [Self]) -> BinaryValue { .packed(pack(elements)) }
    static func streamArray(_ elements: [Self], into engine: StreamingEncoder) {
        engine.send(.packed(pack(elements)))
    }
}

extension String {
    static func encodeArray(_ elements: [String]) -> BinaryValue { .unkeyed(elements.map { .string($0) }) }
    /// No array of nodes: the elements go to the sink as they are.
    static func streamArray(_ elements: [String], into engine: StreamingEncoder) {
        engine.sink.begin(.unkeyed)
        engine.sink.strings(elements)
        engine.sink.end()
    }
}

extension Data {
    static func encodeArray(_ elements: [Data]) -> BinaryValue { .unkeyed(elements.map { .data($0) }) }
    static func streamArray(_ elements: [Data], into engine: StreamingEncoder) {
        engine.sink.begin(.unkeyed)
        for element in elements { engine.sink.value(.data(element)) }
        engine.sink.end()
    }
}

extension Optional: DirectTreeEncodable where Wrapped: Encodable {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        switch self {
        case .none: return BinaryValue.optionalNone
        case .some(let wrapped): return .optional(try encoder.encodeValue(wrapped, step: step))
        }
    }

    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        switch self {
        case .none: engine.send(BinaryValue.optionalNone)
        case .some(let wrapped): try engine.sendWrapped(.optional, wrapped, step: step, in: parent)
        }
    }
}

/// `[String: V]` and `[Int: V]`: written entry by entry as `Dictionary.encode(to:)` would write
/// them, without the standard library's container box and key per entry, and without a search
/// for repeated keys where none can repeat; the tree encoder builds the node the same way.
extension Dictionary: DirectTreeEncodable where Key: DictionaryKey, Value: Encodable {
    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        try encoder.encodeDictionary(self, step: step)
    }

    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        try engine.streamDictionary(self, step: step, in: parent)
    }
}
