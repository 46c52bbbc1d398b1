public import Foundation

/// Encodes a sequence of values as a stream: each element framed so that a
/// ``BinaryStreamDecoder`` can split the bytes again, however they arrive.
///
/// - v3: each element is `varint(length << 1)` and the element's own encoding (`01` for nil),
///   as in an unkeyed container; the element is encoded by its own `encode(to:)`, so an `[Int]`
///   element is an unkeyed container of `Int`s, as BinaryCodable writes it.
/// - v2: each element as in an unkeyed container: varint and fixed-size values as they are,
///   length-delimited values with their length, optionals with their flag.
public struct BinaryStreamEncoder<Element: Encodable>: Sendable {
    /// The encoder (and so the format and options) used for each element.
    public var encoder: BinaryEncoder

    /// A stream encoder that encodes elements with `encoder`.
    public init(encoder: BinaryEncoder = BinaryEncoder()) {
        self.encoder = encoder
    }

    /// The framed bytes of one element.
    public func encode(_ element: Element) throws -> Data {
        if let streamed = encoder.streamed(element, asStreamElement: true) { return streamed }
        return try encodeThroughTree(element)
    }

    /// The framed bytes of one element, written from its tree (what ``encode(_:)`` falls back to
    /// when the element cannot be streamed; the tests compare the two).
    package func encodeThroughTree(_ element: Element) throws -> Data {
        switch encoder.format {
        case .v3:
            let tree = try encoder.treeEncoder.encodeTree(element, throughEncodable: true)
            return try V3Sink.write(tree, maximumDepth: encoder.maximumDepth, asElement: true)
        case .v2:
            let tree = try encoder.treeEncoder.encodeTree(element)
            return try V2Sink.write(
                tree, nilIndexSets: encoder.prependNilIndexSetForUnkeyedContainers, maximumDepth: encoder.maximumDepth,
                asElement: true)
        }
    }

    /// The framed bytes of several elements, concatenated.
    public func encode<S: Sequence>(contentsOf elements: S) throws -> Data where S.Element == Element {
        var out = Data()
        for e in elements { out.append(try encode(e)) }
        return out
    }
}
