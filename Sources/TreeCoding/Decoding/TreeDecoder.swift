/// Decodes `Decodable` values from a ``BinaryValue`` tree.
///
/// It gives the values and errors (case, coding path, description) that
/// `BinaryDecoder.decode(_:fromTree:)` (module BinarySerialization) gives in format v3. Errors
/// carry no `underlyingError`: a tree holds no bytes, so nothing about it is a wire error.
public struct TreeDecoder: DecodesFromTree, Sendable {
    /// Context for `init(from:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// The deepest nesting of values accepted, counted as ``TreeEncoder/maximumDepth`` counts it;
    /// deeper input throws `DecodingError.dataCorrupted`.
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
        try PlainTreeDecoder.decodeRoot(T.self, from: tree, userInfo: userInfo, maximumDepth: maximumDepth)
    }
}
