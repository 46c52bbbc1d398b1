/// The primitives whose arrays and sets v3 stores packed (`Bool`, `Int8`, `UInt8`, `Int16`,
/// `UInt16`, `Int32`, `UInt32`, `Int64`, `UInt64`, `Int`, `UInt`, `Float`, `Double`), with or
/// without ``Packed``.
public protocol PackableElement: Codable, Sendable {}

extension Bool: PackableElement {}
extension Int8: PackableElement {}
extension UInt8: PackableElement {}
extension Int16: PackableElement {}
extension UInt16: PackableElement {}
extension Int32: PackableElement {}
extension UInt32: PackableElement {}
extension Int64: PackableElement {}
extension UInt64: PackableElement {}
extension Int: PackableElement {}
extension UInt: PackableElement {}
extension Float: PackableElement {}
extension Double: PackableElement {}

/// Marks a sequence as packed, for code written for BinaryCodable.
///
/// Arrays and sets of primitives (``PackableElement``) are always packed here (in v3; v2 has one
/// layout), and other sequences (`[String]`, arrays of structs) have one layout, so the wrapper
/// changes nothing: `@Packed var samples: [Double]` gives exactly the bytes of
/// `var samples: [Double]`, with this library's coders and with others (`JSONEncoder`...).
/// It wraps any sequence, and is `Encodable` and `Decodable` as the sequence is.
@propertyWrapper
public struct Packed<Value: Sequence> {
    /// The sequence.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

extension Packed: Encodable where Value: Encodable {
    /// Encodes the sequence itself, as if there were no wrapper.
    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.encode(to: encoder)
    }
}

extension Packed: Decodable where Value: Decodable {
    /// Decodes the sequence itself, as if there were no wrapper.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try Value(from: decoder))
    }
}

extension Packed: Equatable where Value: Equatable {}
extension Packed: Hashable where Value: Hashable {}
extension Packed: Sendable where Value: Sendable {}

extension Packed: DirectTreeEncodable where Value: Encodable {
    /// The node of the sequence, as the tree encoder makes it without the wrapper.
    package func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        try encoder.encodeValue(wrappedValue, step: step)
    }
}
