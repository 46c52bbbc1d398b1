/// Decodes `Decodable` values from a ``BinaryValue`` tree.
///
/// `BinaryDecoder` (module BinarySerialization) runs the same decoder over views of bytes.
public struct TreeDecoder: DecodesFromTree, Sendable {
    /// Context for `init(from:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// The deepest nesting of containers accepted; deeper input throws `DecodingError.dataCorrupted`.
    public var maximumDepth: Int = 512

    /// A tree decoder with empty `userInfo` and the default depth limit.
    public init() {}

    /// Decodes a value of `type` from `tree`, exactly as strictly as from the tree's bytes: a leaf
    /// reads as another primitive type only where both formats would read its bytes as the same
    /// value, and `.single` and `.optional` marks only where the type asks for them (see
    /// ``BinaryValue``). A binary decoder of one format also reads the tree as that format stores
    /// it (v2: without nil fields in keyed containers).
    ///
    /// - Throws: `DecodingError` with the coding path of the first node that does not fit the type.
    public func decode<T: Decodable>(_ type: T.Type, fromTree tree: BinaryValue) throws -> T {
        try TreeDecoderImpl.decodeRoot(
            T.self, from: .tree(tree), format: nil,
            options: DecodingOptions(userInfo: userInfo, maximumDepth: maximumDepth))
    }
}
