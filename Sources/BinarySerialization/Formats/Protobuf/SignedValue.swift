/// Writes the wrapped `Int32`, `Int64` or `Int` as a protobuf `sint32`/`sint64` (zig-zag, then a
/// varint) with ``ProtobufEncoder``; a plain `Int32` or `Int64` there is an `int32`/`int64`, where a
/// negative value takes ten bytes.
///
/// BinaryCodable 2.x's wrapper. With ``BinaryEncoder`` (v3 and v2) these integers are zig-zag
/// encoded already, and the wrapper writes the same bytes as the plain value; with other coders
/// (`JSONEncoder`...) it is transparent.
@propertyWrapper
public struct SignedValue<WrappedValue>: Codable
where WrappedValue: SignedValueCompatible & FixedWidthInteger & SignedInteger & Codable {
    /// The integer.
    public var wrappedValue: WrappedValue

    /// Wraps `wrappedValue`.
    public init(wrappedValue: WrappedValue) {
        self.wrappedValue = wrappedValue
    }

    /// Reads the plain value from a single-value container.
    public init(from decoder: any Decoder) throws {
        self.wrappedValue = try decoder.singleValueContainer().decode(WrappedValue.self)
    }

    /// Writes the plain value to a single-value container.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension SignedValue: Equatable {}
extension SignedValue: Hashable {}
extension SignedValue: Sendable where WrappedValue: Sendable {}

// BinaryCodable 2.x's conveniences: a wrapped integer is written and compared as the integer.

extension SignedValue: ExpressibleByIntegerLiteral {
    /// Wraps the integer `value`.
    public init(integerLiteral value: WrappedValue.IntegerLiteralType) {
        self.init(wrappedValue: WrappedValue(integerLiteral: value))
    }
}

extension SignedValue: Comparable {
    /// Orders by the wrapped integer.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue < rhs.wrappedValue }
}

extension SignedValue {
    /// The wrapped zero.
    public static var zero: Self { Self(wrappedValue: .zero) }
    /// The wrapped type's largest value.
    public static var max: Self { Self(wrappedValue: .max) }
    /// The wrapped type's smallest value.
    public static var min: Self { Self(wrappedValue: .min) }
}

extension SignedValue: DirectStreamEncodable {
    /// Its own `encode(to:)`, told apart from the plain integer: `sint32`/`sint64` in protobuf.
    func stream(into engine: StreamingEncoder, step: PathStep?, in parent: Int) throws {
        if engine.needsTypeFacts { engine.sink.note(.chosenEncoding) }
        try engine.encodeWithChild(self, step: step, in: parent)
    }
}

extension SignedValue: DirectTreeDecodable {
    /// Through `init(from:)`, but where the format tells it apart from the plain integer
    /// (protobuf's `sint32`/`sint64`).
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        guard impl.formatNeedsFacts, let scalar = WrappedValue.self as? any TreeIntegerScalar.Type else {
            return try impl.decodeWithInit(Self.self, from: &node, parent: parent, step: step)
        }
        let leaf = try node.decodeScalar(scalar.scalarKind(.zigZag), impl.format, chosen: true)
        guard let value = scalar.exactValue(leaf, as: WrappedValue.self) else {
            throw WireFormatError(
                .typeMismatch, "expected \(WrappedValue.self), found \(leaf.kindName)", offset: node.byteOffset)
        }
        return Self(wrappedValue: value)
    }
}
