import Foundation
internal import TreeCoding

/// Values the streaming encoder sends itself, without calling `encode(to:)`: the types the tree
/// encoder turns into a node itself (`DirectTreeEncodable`), sending the node that type makes.
protocol DirectStreamEncodable {
    /// Sends the value's node to `engine`; frame `parent` is its innermost open frame.
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws
}

extension LeafTreeEncodable {
    @inline(__always)
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws { engine.send(leaf) }
}

extension Bool: DirectStreamEncodable {}
extension String: DirectStreamEncodable {}
extension Double: DirectStreamEncodable {}
extension Float: DirectStreamEncodable {}
extension Int: DirectStreamEncodable {}
extension Int8: DirectStreamEncodable {}
extension Int16: DirectStreamEncodable {}
extension Int32: DirectStreamEncodable {}
extension Int64: DirectStreamEncodable {}
extension UInt: DirectStreamEncodable {}
extension UInt8: DirectStreamEncodable {}
extension UInt16: DirectStreamEncodable {}
extension UInt32: DirectStreamEncodable {}
extension UInt64: DirectStreamEncodable {}
extension Data: DirectStreamEncodable {}

/// The element types whose arrays and sets the fused coders handle in one step: the tree's
/// `ArrayElement`s, with how each is sent to a sink and read from a node.
protocol FusedArrayElement: ArrayElement {
    /// Sends the node of `encodeArray(_:)` to a streaming encoder.
    static func streamArray(_ elements: [Self], into engine: StreamingEncoder)
    static func decodeArray(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Self]
}

extension Bool: FusedArrayElement {}
extension Int8: FusedArrayElement {}
extension UInt8: FusedArrayElement {}
extension Int16: FusedArrayElement {}
extension UInt16: FusedArrayElement {}
extension Int32: FusedArrayElement {}
extension UInt32: FusedArrayElement {}
extension Int64: FusedArrayElement {}
extension UInt64: FusedArrayElement {}
extension Int: FusedArrayElement {}
extension UInt: FusedArrayElement {}
extension Float: FusedArrayElement {}
extension Double: FusedArrayElement {}
extension String: FusedArrayElement {}
extension Data: FusedArrayElement {}

extension Array: DirectStreamEncodable where Element: FusedArrayElement {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        Element.streamArray(self, into: engine)
    }
}

extension Set: DirectStreamEncodable where Element: FusedArrayElement {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        // A format that needs type facts gets equal sets as equal bytes: the elements sorted.
        Element.streamArray(engine.needsTypeFacts ? ProtobufOrder.sorted(Array(self)) : Array(self), into: engine)
    }
}

/// The markers of a type's facts in the engine's cache of stream facts (`streamFactOfType`):
/// their `stream` is never called.
enum OneOfFact: DirectStreamEncodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {}
}

enum UnorderedFact: DirectStreamEncodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {}
}

enum MapEntryFact: DirectStreamEncodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {}
}

/// Collections whose `encode(to:)` writes their elements in no fixed order, and the form a sink
/// that needs type facts gets them in (equal values, equal bytes): a set's elements sorted, a
/// dictionary as its map entries sorted by key.
protocol UnorderedCollection {
    var orderedForm: any Encodable { get }
}

extension Set: UnorderedCollection where Element: Encodable {
    var orderedForm: any Encodable { ProtobufOrder.sorted(Array(self)) }
}

extension Dictionary: UnorderedCollection where Key: Encodable, Value: Encodable {
    var orderedForm: any Encodable { ProtobufMapEntries(self) }
}

extension PackedElement {
    static func streamArray(_ elements: [Self], into engine: StreamingEncoder) {
        engine.send(.packed(pack(elements)))
    }
}

extension String {
    /// No array of nodes: the elements go to the sink as they are.
    static func streamArray(_ elements: [String], into engine: StreamingEncoder) {
        engine.sink.begin(.unkeyed)
        engine.sink.strings(elements)
        engine.sink.end()
    }
}

extension Data {
    static func streamArray(_ elements: [Data], into engine: StreamingEncoder) {
        engine.sink.begin(.unkeyed)
        for element in elements { engine.sink.value(.data(element)) }
        engine.sink.end()
    }
}

extension Optional: DirectStreamEncodable where Wrapped: Encodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        switch self {
        case .none: engine.send(BinaryValue.optionalNone)
        case .some(let wrapped): try engine.sendWrapped(.optional, wrapped, step: step, in: parent)
        }
    }
}

extension Dictionary: DirectStreamEncodable where Key: DictionaryKey, Value: Encodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        if engine.needsTypeFacts {
            return try engine.encodeWithChild(ProtobufMapEntries(self), step: step, in: parent)
        }
        try engine.streamDictionary(self, step: step, in: parent)
    }
}

extension Packed: DirectStreamEncodable where Value: Encodable {
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        try engine.encodeValue(wrappedValue, step: step, in: parent)
    }
}
