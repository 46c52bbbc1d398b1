public import Foundation

/// A type that ``FixedSizeEncoded`` can wrap: it encodes and decodes its fixed-size bytes.
public typealias FixedSizeCodable = FixedSizeEncodable & FixedSizeDecodable

/// A type that can give its value as fixed-size bytes.
///
/// The library's conformers are `Bool`, `Int8`, `UInt8`, `Int16`, `UInt16`, `Int32`, `UInt32`,
/// `Int64`, `UInt64`, `Int`, `UInt`, `Float` and `Double`. A type of your own may conform: wrapped in
/// ``FixedSizeEncoded``, it is encoded with its own `encode(to:)`, as BinaryCodable does.
public protocol FixedSizeEncodable: Encodable {
    /// The value as the fixed-size bytes the wire holds for it: integers little-endian in their
    /// full width (`Int` and `UInt` in 8 bytes), `Float` and `Double` big-endian, `Bool` one byte.
    var fixedSizeEncoded: Data { get }
}

/// A type that can be read back from the bytes of ``FixedSizeEncodable/fixedSizeEncoded``.
public protocol FixedSizeDecodable: Decodable {
    /// Reads the value from exactly its fixed-size bytes.
    /// - Parameter data: The bytes; their count must be the type's size.
    /// - Throws: ``CorruptedDataError`` for a wrong count or bytes no value encodes to.
    init(fromFixedSize data: Data) throws
}

/// An integer that ``VariableLengthEncoded`` can wrap: a plain varint of its bit pattern.
public typealias VariableLengthCodable = VariableLengthEncodable & VariableLengthDecodable

/// An integer that can give its bit pattern as a varint.
public protocol VariableLengthEncodable: FixedWidthInteger {
    /// The varint of the value's bit pattern in its own width (`Int` and `UInt` in 64 bits):
    /// `Int16(-1)` is `ff ff 03`.
    var variableLengthEncoding: Data { get }
}

/// An integer that can be read back from the varint of ``VariableLengthEncodable/variableLengthEncoding``.
public protocol VariableLengthDecodable: FixedWidthInteger {
    /// Reads the value from exactly one varint.
    /// - Parameter data: The varint's bytes, nothing before or after.
    /// - Throws: ``CorruptedDataError`` for a malformed varint, bytes after it, or a value
    ///   out of the type's range.
    init(fromVarint data: Data) throws
}

/// A signed integer that ``ZigZagEncoded`` can wrap: zig-zag mapped, then a varint.
public typealias ZigZagCodable = ZigZagEncodable & ZigZagDecodable

/// A signed integer that can give its value zig-zag mapped as a varint.
public protocol ZigZagEncodable: Encodable {
    /// The varint of the value zig-zag mapped in its own width (0, -1, 1, -2 become 0, 1, 2, 3).
    var zigZagEncoded: Data { get }
}

/// A signed integer that can be read back from the bytes of ``ZigZagEncodable/zigZagEncoded``.
public protocol ZigZagDecodable: Decodable {
    /// Reads the value from exactly one zig-zag varint.
    /// - Parameter data: The varint's bytes, nothing before or after.
    /// - Throws: ``CorruptedDataError`` for a malformed varint, bytes after it, or a value
    ///   out of the type's range.
    init(fromZigZag data: Data) throws
}
