import Foundation

/// Encodes `Encodable` values to a ``BinaryValue`` tree.
///
/// ```swift
/// let tree = try TreeEncoder().encodeTree(message)
/// print(tree)            // an indented view of every field
/// ```
/// `BinaryEncoder` (module BinarySerialization) uses this encoder for its first stage.
public struct TreeEncoder: EncodesToTree, Sendable {
    /// Sort the fields of every keyed container (see ``KeyedFields/sortedByKey()``). Default `false`:
    /// fields stay in the order they were encoded, which is deterministic.
    public var sortKeysDuringEncoding: Bool = false
    /// Context for `encode(to:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// The deepest nesting of values accepted; deeper values throw `EncodingError.invalidValue`.
    ///
    /// A level is a struct, enum or class coded through a container of its own, an array of such
    /// values, or a dictionary; optionals and an enum case's payload container are not levels.
    /// ``TreeDecoder/maximumDepth`` counts the same way, so what one accepts the other does.
    public var maximumDepth: Int = 512

    /// A tree encoder that keeps fields in encoding order, with empty `userInfo` and the default depth limit.
    public init() {}

    /// Encodes `value` to a tree.
    ///
    /// - Throws: `EncodingError` when a value cannot be encoded (too deep, misused containers,
    ///   or an error thrown by the value's own `encode(to:)`).
    /// - Complexity: O(n) in the size of the value.
    public func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue {
        try encodeTree(value, throughEncodable: false)
    }

    /// With `throughEncodable`, the root value is encoded by its own `encode(to:)` even when it is
    /// a primitive, array or optional (a `[Int]` becomes an unkeyed container of `Int`s, an `Int`
    /// a single value), as v3 stream elements are written.
    package func encodeTree<T: Encodable>(_ value: T, throughEncodable: Bool) throws -> BinaryValue {
        let options = EncodingOptions(
            sortKeys: sortKeysDuringEncoding, userInfo: userInfo, maximumDepth: maximumDepth)
        return try TreeEncoderImpl.encodeRoot(value, options: options, throughEncodable: throughEncodable)
    }
}

/// Options shared by every encoder of one encoding run, and the run's late-write report.
///
/// `@unchecked Sendable`: an instance belongs to one run on one thread; the one mutable field
/// is written only from that run's `encode(to:)` calls.
final class EncodingOptions: @unchecked Sendable {
    let sortKeys: Bool
    let userInfo: [CodingUserInfoKey: any Sendable]
    let maximumDepth: Int
    /// The first write into a container after its value was finished, with its path.
    private(set) var lateWrite: ([any CodingKey], String)?

    init(sortKeys: Bool, userInfo: [CodingUserInfoKey: any Sendable], maximumDepth: Int) {
        self.sortKeys = sortKeys
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
    }

    func noteLateWrite(at path: [any CodingKey]) {
        guard lateWrite == nil else { return }
        lateWrite = (
            path,
            """
            A value was encoded into a container after the value it belongs to was finished (a \
            container kept past its encode(to:)); it cannot reach the output.
            """
        )
    }
}
