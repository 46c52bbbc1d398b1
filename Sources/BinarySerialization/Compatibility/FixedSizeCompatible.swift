public import Foundation

/// BinaryCodable 2.x's protocol of the integers that `@FixedSize` (now ``FixedSizeEncoded``)
/// wraps: `Int32`, `UInt32`, `Int64`, `UInt64`, `Int` and `UInt`. New code uses
/// ``FixedSizeCodable``; the bytes are the same.
public protocol FixedSizeCompatible {
    /// The wire type of the fixed-size value: ``DataType/fourBytes`` or ``DataType/eightBytes``.
    static var fixedSizeDataType: DataType { get }
    /// The protobuf scalar type of the same bytes (`"sfixed32"`, `"fixed64"`...).
    var fixedProtoType: String { get }
    /// The value's fixed-size bytes, little-endian (see ``FixedSizeEncodable/fixedSizeEncoded``).
    var fixedSizeEncoded: Data { get }
    /// Reads the value from exactly its fixed-size bytes.
    /// - Throws: ``CorruptedDataError`` for a wrong byte count.
    init(fromFixedSize data: Data) throws
}

extension Int32: FixedSizeCompatible {
    /// Four bytes.
    public static var fixedSizeDataType: DataType { .fourBytes }
    /// `"sfixed32"`.
    public var fixedProtoType: String { "sfixed32" }
}

extension UInt32: FixedSizeCompatible {
    /// Four bytes.
    public static var fixedSizeDataType: DataType { .fourBytes }
    /// `"fixed32"`.
    public var fixedProtoType: String { "fixed32" }
}

extension Int64: FixedSizeCompatible {
    /// Eight bytes.
    public static var fixedSizeDataType: DataType { .eightBytes }
    /// `"sfixed64"`.
    public var fixedProtoType: String { "sfixed64" }
}

extension UInt64: FixedSizeCompatible {
    /// Eight bytes.
    public static var fixedSizeDataType: DataType { .eightBytes }
    /// `"fixed64"`.
    public var fixedProtoType: String { "fixed64" }
}

extension Int: FixedSizeCompatible {
    /// Eight bytes (an `Int` is written as an `Int64`).
    public static var fixedSizeDataType: DataType { .eightBytes }
    /// `"sfixed64"`.
    public var fixedProtoType: String { "sfixed64" }
}

extension UInt: FixedSizeCompatible {
    /// Eight bytes (a `UInt` is written as a `UInt64`).
    public static var fixedSizeDataType: DataType { .eightBytes }
    /// `"fixed64"`.
    public var fixedProtoType: String { "fixed64" }
}
