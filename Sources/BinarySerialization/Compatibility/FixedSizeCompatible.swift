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
    /// Reads the value from exactly its fixed-size bytes, found at `path`.
    /// - Throws: `DecodingError.dataCorrupted` with `path` as its coding path (and the
    ///   ``CorruptedDataError`` as its underlying error) for a wrong byte count.
    init(fromFixedSize data: Data, path: [any CodingKey]) throws
}

extension FixedSizeCompatible where Self: FixedSizeDecodable {
    /// Reads the value as ``FixedSizeDecodable/init(fromFixedSize:)`` does; its error becomes a
    /// `DecodingError` at `path`, as BinaryCodable 2.x throws.
    public init(fromFixedSize data: Data, path: [any CodingKey]) throws {
        do {
            try self.init(fromFixedSize: data)
        } catch let error as WireFormatError {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: path, debugDescription: error.message, underlyingError: error))
        }
    }
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
