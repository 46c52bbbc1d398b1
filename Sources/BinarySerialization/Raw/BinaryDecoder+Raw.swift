public import Foundation

extension BinaryDecoder {
    /// Reads `data` without a type, as a tree of containers and byte runs in the decoder's format.
    ///
    /// Neither format records types, so the shape is a best guess: runs of bytes that frame
    /// exactly as containers become containers (v3: keyed or unkeyed; v2: keyed, whose wire types
    /// make the framing exact), everything else stays bytes with its plausible readings. Other
    /// framings that also fit are listed in ``RawNode/alternatives``. Nothing is lost:
    /// `try decoder.decodeRaw(from: data).serialized() == data`.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when containers nest deeper than
    ///   ``DecodingLimits/maximumDepth``. Any other input gives a tree (at worst a single byte run).
    /// - Complexity: O(n · depth) in the size of the data.
    public func decodeRaw(from data: Data) throws -> RawNode {
        try RawReader(bytes: Array(data), format: format, maximumDepth: limits.maximumDepth).root()
    }

    /// Reads `bytes` without a type, like the `Data` overload.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when containers nest deeper than the depth limit.
    public func decodeRaw(from bytes: [UInt8]) throws -> RawNode {
        try RawReader(bytes: bytes, format: format, maximumDepth: limits.maximumDepth).root()
    }
}
