/// Integers that ``FixedSizeEncoded`` can wrap: written little-endian in their full width.
public protocol FixedSizeCodable: FixedWidthInteger, Codable, Sendable {}
/// Integers that ``VariableLengthEncoded`` can wrap: written as a varint of their bit pattern.
public protocol VariableLengthCodable: FixedWidthInteger, Codable, Sendable {}
/// Integers that ``ZigZagEncoded`` can wrap: zig-zag mapped, then written as a varint.
public protocol ZigZagCodable: FixedWidthInteger, SignedInteger, Codable, Sendable {}

extension Int16: FixedSizeCodable {}  // fixed-size already: the wrapper has no effect (deprecated)
extension UInt16: FixedSizeCodable {}  // fixed-size already: the wrapper has no effect (deprecated)
extension Int32: FixedSizeCodable {}
extension Int64: FixedSizeCodable {}
extension Int: FixedSizeCodable {}
extension UInt32: FixedSizeCodable {}
extension UInt64: FixedSizeCodable {}
extension UInt: FixedSizeCodable {}

extension Int16: VariableLengthCodable {}
extension UInt16: VariableLengthCodable {}
extension Int32: VariableLengthCodable {}
extension Int64: VariableLengthCodable {}
extension Int: VariableLengthCodable {}
extension UInt32: VariableLengthCodable {}
extension UInt64: VariableLengthCodable {}
extension UInt: VariableLengthCodable {}

extension Int16: ZigZagCodable {}
extension Int32: ZigZagCodable {}
extension Int64: ZigZagCodable {}
extension Int: ZigZagCodable {}

/// Encodes the wrapped integer little-endian in its full width (4 or 8 bytes), which is smaller
/// than a varint for large values such as hashes or random identifiers.
///
/// With other coders (`JSONEncoder`...), the wrapper is transparent: the plain value is encoded.
@propertyWrapper
public struct FixedSizeEncoded<Value: FixedSizeCodable>: Hashable, Sendable {
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
public struct VariableLengthEncoded<Value: VariableLengthCodable>: Hashable, Sendable {
    /// The integer.
    public var wrappedValue: Value
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps `value` without the deprecation of combinations that change nothing.
    init(unchecked value: Value) { self.wrappedValue = value }
}

/// Encodes the wrapped signed integer zig-zag mapped as a varint (small magnitudes are short).
/// `Int32`, `Int64` and `Int` are zig-zag already; the wrapper matters for `Int16`.
@propertyWrapper
public struct ZigZagEncoded<Value: ZigZagCodable>: Hashable, Sendable {
    /// The integer.
    public var wrappedValue: Value
    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
    /// Wraps `value` without the deprecation of combinations that change nothing.
    init(unchecked value: Value) { self.wrappedValue = value }
}

/// The wrappers share everything but their ``IntegerEncoding``.
protocol IntegerWrapper: Codable, DirectTreeEncodable, DirectTreeDecodable {
    associatedtype Value: FixedWidthInteger & Codable
    static var encoding: IntegerEncoding { get }
    var wrappedValue: Value { get }
    init(wrappedValue: Value)
}

extension FixedSizeEncoded: IntegerWrapper { static var encoding: IntegerEncoding { .fixed } }
extension VariableLengthEncoded: IntegerWrapper { static var encoding: IntegerEncoding { .varint } }
extension ZigZagEncoded: IntegerWrapper { static var encoding: IntegerEncoding { .zigZag } }

extension IntegerWrapper {
    /// Transparent with other coders: the plain value in a single-value container.
    public init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(Value.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    func treeValue(using encoder: TreeEncoderImpl, step: PathStep?) throws -> BinaryValue {
        guard let leaf = wrapperLeaf else {
            throw EncodingError.invalidValue(
                wrappedValue,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "Wrapped integer type \(Value.self) is not supported by this encoder."))
        }
        return leaf
    }

    /// Without a leaf the streaming encoder gives up, and the tree encoder reports the error.
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        guard let leaf = wrapperLeaf else { throw engine.giveUp() }
        engine.send(leaf)
    }

    /// The leaf of the wrapped integer with the wrapper's encoding; `nil` for an integer type the
    /// tree has no leaf for (a conformance added outside this module).
    private var wrapperLeaf: BinaryValue? {
        guard let scalar = Value.self as? any IntegerScalar.Type else { return nil }
        return scalar.leafValue(wrappedValue, Self.encoding)
    }

    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        guard let scalar = Value.self as? any IntegerScalar.Type else {
            throw WireFormatError(.unsupported, "unsupported wrapped integer type \(Value.self)")
        }
        let leaf = try node.decodeScalar(scalar.scalarKind(encoding), impl.format)
        guard let value = leaf.exactInteger(Value.self) else {
            throw WireFormatError(
                .typeMismatch, "expected \(Value.self), found \(leaf.kindName)", offset: node.byteOffset)
        }
        return Self(wrappedValue: value)
    }
}

extension IntegerScalar {
    /// The leaf of `value` (of any integer type) if it is a `Self`.
    static func leafValue(_ value: some FixedWidthInteger, _ encoding: IntegerEncoding) -> BinaryValue? {
        guard let v = value as? Self else { return nil }
        return leaf(v, encoding)
    }
}

extension FixedSizeEncoded: Codable {}
extension VariableLengthEncoded: Codable {}
extension ZigZagEncoded: Codable {}

/// The BinaryCodable 2.x name of ``FixedSizeEncoded``.
@available(*, deprecated, renamed: "FixedSizeEncoded")
public typealias FixedSize<Value: FixedSizeCodable> = FixedSizeEncoded<Value>
