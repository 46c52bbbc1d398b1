/// Encodes the wrapped integer little-endian in its full width (4 or 8 bytes), which is smaller
/// than a varint for large values such as hashes or random identifiers.
///
/// With other coders (`JSONEncoder`...), the wrapper is transparent: the plain value is encoded.
/// `Bool`, `Int8`, `UInt8`, `Int16`, `UInt16`, `Float` and `Double` are fixed-size already (the
/// wrapper has no effect and is deprecated on them); a ``FixedSizeCodable`` type of your own is
/// encoded with its own `encode(to:)`. Wrapping an integer, the wrapper is itself a
/// `FixedWidthInteger` (see ``EncodedInteger``).
@propertyWrapper
public struct FixedSizeEncoded<Value: FixedSizeCodable> {
    /// The integer.
    public var wrappedValue: Value
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps `value` without the deprecation of combinations that change nothing.
    init(unchecked value: Value) { self.wrappedValue = value }
}

/// Encodes the wrapped integer as a plain varint of its bit pattern (small non-negative values
/// are short; negative values take the full varint length).
@propertyWrapper
public struct VariableLengthEncoded<Value: VariableLengthCodable> {
    /// The integer.
    public var wrappedValue: Value
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps `value` without the deprecation of combinations that change nothing.
    init(unchecked value: Value) { self.wrappedValue = value }
}

/// Encodes the wrapped signed integer zig-zag mapped as a varint (small magnitudes are short).
/// `Int32`, `Int64` and `Int` are zig-zag already; the wrapper matters for `Int16`. A
/// ``ZigZagCodable`` type of your own is encoded with its own `encode(to:)`.
@propertyWrapper
public struct ZigZagEncoded<Value: ZigZagCodable> {
    /// The integer.
    public var wrappedValue: Value
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps `value` without the deprecation of combinations that change nothing.
    init(unchecked value: Value) { self.wrappedValue = value }
}

extension FixedSizeEncoded: Equatable where Value: Equatable {}
extension FixedSizeEncoded: Hashable where Value: Hashable {}
extension FixedSizeEncoded: Sendable where Value: Sendable {}
extension VariableLengthEncoded: Equatable {}
extension VariableLengthEncoded: Hashable {}
extension VariableLengthEncoded: Sendable where Value: Sendable {}
extension ZigZagEncoded: Equatable where Value: Equatable {}
extension ZigZagEncoded: Hashable where Value: Hashable {}
extension ZigZagEncoded: Sendable where Value: Sendable {}

/// The wrappers share everything but their ``IntegerEncoding``.
protocol IntegerWrapper: Codable, IntegerWrapping, DirectTreeEncodable, DirectStreamEncodable, DirectTreeDecodable {}

extension FixedSizeEncoded: IntegerWrapper { package static var encoding: IntegerEncoding { .fixed } }
extension VariableLengthEncoded: IntegerWrapping, DirectTreeEncodable, DirectStreamEncodable, DirectTreeDecodable,
    IntegerWrapper
where Value: Codable {
    package static var encoding: IntegerEncoding { .varint }
}
extension ZigZagEncoded: IntegerWrapper { package static var encoding: IntegerEncoding { .zigZag } }

extension IntegerWrapper {
    /// Transparent with other coders: the plain value in a single-value container.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    /// The node `IntegerWrapping` makes, sent to the streaming encoder.
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        guard let leaf = wrapperLeaf else { return try engine.encodeValue(wrappedValue, step: step, in: parent) }
        if engine.needsTypeFacts { engine.sink.note(.chosenEncoding) }
        engine.send(leaf)
    }

    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        guard let scalar = Value.self as? any TreeIntegerScalar.Type else {
            return Self(wrappedValue: try impl.decodeValue(Value.self, from: &node, parent: parent, step: step))
        }
        let leaf = try node.decodeScalar(scalar.scalarKind(encoding), impl.format, chosen: true)
        guard let value = scalar.exactValue(leaf, as: Value.self) else {
            throw WireFormatError(
                .typeMismatch, "expected \(Value.self), found \(leaf.kindName)", offset: node.byteOffset)
        }
        return Self(wrappedValue: value)
    }
}

extension TreeIntegerScalar {
    /// The integer of `leaf` (of any integer width) as a `T`, if `T` is `Self` and holds it exactly.
    static func exactValue<T>(_ leaf: BinaryValue, as type: T.Type) -> T? {
        leaf.exactInteger(Self.self) as? T
    }
}

extension FixedSizeEncoded: Codable {}
extension VariableLengthEncoded: Codable where Value: Codable {}
extension ZigZagEncoded: Codable {}

/// The BinaryCodable 2.x name of ``FixedSizeEncoded``.
@available(*, deprecated, renamed: "FixedSizeEncoded")
public typealias FixedSize<Value: FixedSizeCodable> = FixedSizeEncoded<Value>
