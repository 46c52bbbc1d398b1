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
        if let direct = streamed(type, from: data) { return direct }
        return try decoder.withRecording(type, from: data) { recording in
            try transcoded(recording) ?? encoder.encode(tree: recording.tree)
        }
    }

    /// The target bytes written while `type` reads the source, without a recording
    /// (``RecordingStream``): the bytes of the recording path when `type` reads each container's
    /// fields in stored order. `nil` where it does not, where the options need the tree, or where
    /// decoding fails: the recording path then writes the bytes or reports the error.
    package func streamed<T: Decodable>(_ type: T.Type, from data: Data) -> Data? {
        var complete = false
        let bytes = encoder.written { sink in
            // An error is not lost: the recording path that follows reports it.
            complete = (try? decoder.stream(type, from: data, to: sink)) ?? false
        }
        return complete ? bytes : nil
    }

    /// The target bytes of `recording` written without building its tree (the bytes
    /// `encoder.encode(tree: recording.tree)` gives); `nil` where the options need the tree
    /// (sorted keys) or the target format cannot write it (the tree path reports the error).
    package func transcoded(_ recording: TreeRecording) -> Data? {
        encoder.written(by: recording.send(to:))
    }
}
