/// BinaryCodable 2.x's protocol of the signed integers that are zig-zag encoded by default
/// (`Int32`, `Int64` and `Int`), with the protobuf type of their plain varint. New code uses
/// ``ZigZagCodable``.
public protocol SignedValueCompatible {
    /// The protobuf scalar type of the value as a plain varint (`"int32"` or `"int64"`).
    var positiveProtoType: String { get }
}

extension Int32: SignedValueCompatible {
    /// `"int32"`.
    public var positiveProtoType: String { "int32" }
}

extension Int64: SignedValueCompatible {
    /// `"int64"`.
    public var positiveProtoType: String { "int64" }
}

extension Int: SignedValueCompatible {
    /// `"int64"` (an `Int` is written as an `Int64`).
    public var positiveProtoType: String { "int64" }
}
