public import Foundation

/// Re-encodes stored data from one format to the other in memory, guided by the Swift type.
///
/// The result is what encoding the decoded value in the target format gives:
/// `transcode(T.self, from: b)` equals `encoder.encode(decoder.decode(T.self, from: b))`, whatever
/// `T`'s `encode(to:)` writes. A type that only decodes has no `encode(to:)` to run: what it read
/// (its `decodeTree`) is written in the target format.
///
/// ```swift
/// var transcoder = BinaryTranscoder(from: .v2, to: .v3)
/// transcoder.encoder.sortKeysDuringEncoding = true
/// let migrated = try transcoder.transcode(Message.self, from: legacyData)
/// ```
public struct BinaryTranscoder: Sendable {
    /// Reads the source bytes.
    public var decoder: BinaryDecoder
    /// Writes the target bytes.
    public var encoder: BinaryEncoder

    /// A transcoder from one format to another.
    public init(from source: BinaryFormat, to target: BinaryFormat) {
        decoder = BinaryDecoder(format: source)
        encoder = BinaryEncoder(format: target)
    }

    /// Re-encodes `data`, which holds a `type` in the source format, in the target format: the
    /// bytes of encoding the decoded value.
    ///
    /// Fields that `type` does not decode are not carried over.
    /// - Throws: `DecodingError` if `data` is not a valid `type`; `EncodingError` if the target
    ///   format cannot hold the value.
    public func transcode<T: Decodable>(_ type: T.Type, from data: Data) throws -> Data {
        // Decoded and encoded: a replay of what the type read cannot know what its `encode(to:)`
        // writes (a generic field's nil, which v2 leaves out and v3 writes).
        if T.self is any Encodable.Type, let value = try decoder.decode(T.self, from: data) as? any Encodable {
            return try encoder.encode(value)
        }
        // A decode-only type has no `encode(to:)`: what it read is written.
        return try encoder.encode(tree: decoder.decodeTree(type, from: data))
    }
}
