public import Foundation

/// Encodes `Encodable` values as Protocol Buffers (proto3) messages, without generated code.
///
/// A type's `CodingKeys` give the field numbers (`enum CodingKeys: Int, CodingKey`, 1...2^29 − 1).
/// The mapping (see `Docs/FormatProtobuf.md`): `Int32`/`Int64`/`UInt32`/`UInt64` are
/// `int32`/`int64`/`uint32`/`uint64` (`Int` and `UInt` the 64-bit ones), ``SignedValue`` (or
/// ``ZigZagEncoded``) makes `sint32`/`sint64`, ``FixedSizeEncoded`` `fixed32`/`fixed64`/`sfixed32`/
/// `sfixed64`; `Bool`, `Float`, `Double`, `String` and `Data` are `bool`, `float`, `double`, `string`
/// and `bytes`; a nested `Codable` struct is a message, an array or set a repeated field (numbers
/// packed), a dictionary a map, a ``ProtobufOneOf`` enum a `oneof`, an `Optional` a field with
/// presence. A field at its default value (zero, empty) is not written.
///
/// ```swift
/// let data = try ProtobufEncoder().encode(message)
/// ```
/// What proto3 cannot express throws an `EncodingError` naming the coding path and the rule, with
/// a ``ProtobufEncodingError`` as its underlying error.
public struct ProtobufEncoder: Sendable {
    /// Context for `encode(to:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// The deepest nesting of messages accepted (default 100, as protobuf's own libraries).
    public var maximumDepth: Int = 100

    /// An encoder with empty `userInfo`.
    public init() {}

    /// Encodes `value`, which must be a message (a keyed container with integer keys).
    ///
    /// - Throws: `EncodingError` if the value has no proto3 form.
    /// - Complexity: O(n) in the size of the value.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try ProtobufSink.encode(value, userInfo: userInfo, maximumDepth: maximumDepth)
    }

    /// Encodes `value` with a default encoder.
    ///
    /// - Throws: `EncodingError` if the value has no proto3 form.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try ProtobufEncoder().encode(value)
    }

    /// The protobuf tree of `value`: messages are keyed nodes with field numbers as keys, an
    /// integer leaf's encoding names its proto type (`.varint`: `int32`..., `.zigZag`: `sint32`...,
    /// `.fixed`: `fixed32`...), `.optional` marks a field with presence, maps are repeated
    /// `[1: key, 2: value]` entries sorted by key, oneof members are fields of their message.
    ///
    /// - Throws: `EncodingError` if the value has no proto3 form (the tree is checked as
    ///   ``encode(tree:)`` checks it).
    public func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue {
        try ProtobufSink.tree(value, userInfo: userInfo, maximumDepth: maximumDepth)
    }

    /// Writes a protobuf tree: `encode(tree: encodeTree(v))` equals `encode(v)`. `.unknown` nodes
    /// (fields kept by ``ProtobufDecoder/decodeTree(_:from:)``) are written as stored.
    ///
    /// - Throws: `EncodingError` if the tree breaks a proto3 rule (a key that is not a field number,
    ///   `nil` in a repeated field, an 8- or 16-bit integer...).
    public func encode(tree: BinaryValue) throws -> Data {
        try ProtobufSink.write(tree, maximumDepth: maximumDepth)
    }
}
