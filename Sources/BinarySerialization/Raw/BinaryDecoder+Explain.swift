public import Foundation

extension BinaryDecoder {
    /// An annotated hex dump of `data` read without a type:
    /// one line per key, element or value, with its offset in hex, its bytes (long runs cut
    /// after seven bytes) and what it can be read as.
    ///
    /// ```
    /// 00                           keyed container (3 fields, 36 bytes)
    /// 00  0d 69 73 52 65 61 64       key "isRead" (string key, 6 bytes)
    /// 07  02 01                      isRead: Bool true | varint 1 (zig-zag -1) | UInt8 1 (2 bytes)
    /// ```
    /// - Throws: `DecodingError.dataCorrupted` when containers nest deeper than the depth limit.
    /// - Complexity: O(n · depth) in the size of the data.
    public func explain(_ data: Data) throws -> String {
        let reader = RawReader(bytes: Array(data), format: format, maximumDepth: limits.maximumDepth)
        var explainer = Explainer(reader: reader)
        explainer.explainRaw(try reader.root())
        return explainer.dump.text
    }

    /// An annotated hex dump of `data` read as `type`: every byte range with the field or
    /// element it belongs to and the value the type reads there. Fields the type does not read
    /// are shown as without a type; parts the labelling cannot follow (v2 unkeyed containers,
    /// which have no framing of their own) are shown as one range with their decoded value.
    ///
    /// - Throws: `DecodingError` if `data` is not a valid encoding of `type`.
    public func explain<T: Decodable>(_ data: Data, as type: T.Type) throws -> String {
        let tree = try decodeTree(T.self, from: data)
        let reader = RawReader(bytes: Array(data), format: format, maximumDepth: limits.maximumDepth)
        var explainer = Explainer(reader: reader)
        explainer.explainTyped(tree, typeName: String(describing: T.self))
        return explainer.dump.text
    }
}
