public import Foundation

/// Decodes `Decodable` values from Protocol Buffers (proto3) messages, with the mapping of
/// ``ProtobufEncoder``.
///
/// A field that is not stored reads as its default (zero, `false`, empty, a message of defaults;
/// an enum reads raw value 0), or `nil` for an `Optional`. Fields the type does not know are
/// skipped by their wire type. A scalar stored more than once keeps its last value, a message
/// stored more than once is merged, and a repeated number field is read packed or not.
///
/// ```swift
/// let message = try ProtobufDecoder().decode(Message.self, from: data)
/// ```
/// Malformed bytes throw `DecodingError.dataCorrupted` with the coding path, and a
/// ``WireFormatError`` with the byte offset as its underlying error; the decoder never traps.
public struct ProtobufDecoder: Sendable {
    /// Context for `init(from:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// The limits of ``BinaryDecoder``'s, with protobuf's own libraries' nesting limit of 100
    /// messages by default; deeper input throws `DecodingError.dataCorrupted`. (A message has no
    /// stream elements: `maximumElementSize` does not apply.)
    public var limits = DecodingLimits(maximumDepth: 100)

    /// The deepest nesting of messages accepted: `limits.maximumDepth`.
    public var maximumDepth: Int {
        get { limits.maximumDepth }
        set { limits.maximumDepth = newValue }
    }

    /// A decoder with empty `userInfo`.
    public init() {}

    /// Decodes a message of type `type` from `data` (any `Data`, slices included).
    ///
    /// - Throws: `DecodingError` for malformed bytes or bytes that do not hold a `T`.
    /// - Complexity: O(n) in the size of the data.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(type, bytes: $0) }
    }

    /// Decodes a message of type `type` from `bytes`.
    ///
    /// - Throws: `DecodingError` for malformed bytes or bytes that do not hold a `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(type, bytes: $0) }
    }

    /// Read by the one decoder (``ProtobufFormat``), with the copies of merged messages freed
    /// when the outermost run on the thread returns.
    private func decode<T: Decodable>(_ type: T.Type, bytes: UnsafeRawBufferPointer) throws -> T {
        try ProtobufMerges.scoped(bytes) {
            try TreeDecoderImpl.decodeRoot(
                T.self, from: .bytes(ProtobufFormat.root(bytes)), format: ProtobufFormat.self,
                options: DecodingOptions(
                    userInfo: userInfo, maximumDepth: ProtobufSink.valueDepth(maximumDepth),
                    maximumMessages: maximumDepth.addingReportingOverflow(1).overflow ? Int.max : maximumDepth + 1))
        }
    }

    /// Decodes a message of type `type` with a default decoder.
    ///
    /// - Throws: `DecodingError` for malformed bytes or bytes that do not hold a `T`.
    public static func decode<T: Decodable>(_ type: T.Type = T.self, from data: Data) throws -> T {
        try ProtobufDecoder().decode(type, from: data)
    }

    /// The protobuf tree of the message in `data`, shaped by `type` (as ``ProtobufEncoder/encodeTree(_:)``
    /// makes it), with the fields `type` does not know kept as `.unknown` nodes under their field
    /// numbers: `ProtobufEncoder().encode(tree:)` of it writes them back.
    ///
    /// - Throws: `DecodingError` as `decode(_:from:)`; `EncodingError` if the value read has no
    ///   protobuf tree.
    public func decodeTree<T: Codable>(_ type: T.Type, from data: Data) throws -> BinaryValue {
        try data.withUnsafeBytes { bytes in
            let (value, log) = try ProtobufReadLog.recording(bytes) { try decode(type, bytes: bytes) }
            var tree = try ProtobufSink.tree(value, userInfo: userInfo, maximumDepth: maximumDepth)
            ProtobufUnknownFields.insert(from: bytes, log: log, into: &tree)
            return tree
        }
    }

    /// Decodes `type` from a protobuf tree: the value its bytes (``ProtobufEncoder/encode(tree:)``)
    /// decode to.
    ///
    /// - Throws: `EncodingError` if the tree breaks a proto3 rule, `DecodingError` as
    ///   `decode(_:from:)`.
    public func decode<T: Decodable>(_ type: T.Type, fromTree tree: BinaryValue) throws -> T {
        var encoder = ProtobufEncoder()
        encoder.maximumDepth = maximumDepth
        return try decode(type, from: encoder.encode(tree: tree))
    }
}
