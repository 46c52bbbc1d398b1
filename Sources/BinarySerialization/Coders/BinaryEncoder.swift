public import Foundation

/// Encodes `Encodable` values to compact bytes.
///
/// The bytes are those of the value's ``BinaryValue`` tree: ``encode(tree:)`` of ``encodeTree(_:)``
/// gives the same bytes as ``encode(_:)-method``. Without sorted keys, that method writes them while the
/// value encodes, without building the tree; a value whose `encode(to:)` uses its containers in an
/// order that cannot be streamed is encoded through the tree instead (its `encode(to:)` then runs
/// twice).
///
/// ```swift
/// var encoder = BinaryEncoder()                  // format .v3
/// encoder.sortKeysDuringEncoding = true
/// let data = try encoder.encode(message)
/// let tree = try encoder.encodeTree(message)     // inspect or edit, then:
/// let same = try encoder.encode(tree: tree)
/// ```
/// Encoding is deterministic: without sorting, fields keep the order in which they were encoded.
public struct BinaryEncoder: EncodesToData, EncodesToTree, Sendable {
    /// The wire format to write.
    public var format: BinaryFormat
    /// Sort the fields of keyed containers as BinaryCodable does: by integer key when both keys
    /// have one, else by `String` order; made one total order of the written keys (see
    /// ``KeyedFields/sortedByKey()``).
    ///
    /// Setting `userInfo[BinaryEncoder.userInfoSortKey] = true` has the same effect.
    public var sortKeysDuringEncoding: Bool = false
    /// Context for `encode(to:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// v2 only: write a "nil index set" before each unkeyed container, so that `encodeNil()` in an
    /// unkeyed container can be stored (the legacy format has no other way to write it).
    /// The decoder must use the same setting.
    public var prependNilIndexSetForUnkeyedContainers: Bool = false
    /// The deepest nesting of values accepted (default 512), counted as
    /// ``DecodingLimits/maximumDepth`` counts it; deeper values throw `EncodingError.invalidValue`.
    /// ``encode(tree:)`` allows a tree four nested nodes per level, as a tree has no types.
    public var maximumDepth: Int = 512

    /// An encoder for `format` (v3 by default).
    public init(format: BinaryFormat = .v3) {
        self.format = format
    }

    /// A `userInfo` key that BinaryCodable users set to `true` to sort keys, as
    /// ``sortKeysDuringEncoding`` does. Any other value, or no value, leaves the property in charge.
    public static let userInfoSortKey: CodingUserInfoKey = {
        // `CodingUserInfoKey.init?(rawValue:)` is failable only in its signature: it never
        // returns nil, so this unwrap cannot fail, whatever the caller or the input does.
        CodingUserInfoKey(rawValue: "sortByKey")!
    }()

    /// Whether keys are sorted: by the property or by ``userInfoSortKey``.
    var sortsKeys: Bool {
        sortKeysDuringEncoding || (userInfo[Self.userInfoSortKey] as? Bool) == true
    }

    var treeEncoder: TreeEncoder {
        var e = TreeEncoder()
        e.sortKeysDuringEncoding = sortsKeys
        e.userInfo = userInfo
        e.maximumDepth = maximumDepth
        return e
    }

    /// Encodes `value` to bytes.
    ///
    /// - Throws: `EncodingError` if the value cannot be represented in the format.
    /// - Complexity: O(n) in the size of the value.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        if let streamed = streamed(value) { return streamed }
        return try serialize(treeEncoder.encodeTree(value), sorted: true)
    }

    /// `value`'s bytes written without building the tree, where the options allow it (keys in
    /// encoding order); `nil` when the value must go through the tree: sorted keys, a run of
    /// container calls only the tree encoder handles (see `StreamingEncoder`), or something the
    /// format cannot write (the tree path reports the error). Equal to the tree path's bytes
    /// whenever it is not `nil`. `asStreamElement`: framed as `BinaryStreamEncoder` frames an
    /// element.
    package func streamed<T: Encodable>(_ value: T, asStreamElement: Bool = false) -> Data? {
        guard !sortsKeys else { return nil }
        switch format {
        case .v3:
            return V3Sink.encode(value, options: treeEncoder, asStreamElement: asStreamElement)
        case .v2:
            return V2Sink.encode(
                value, nilIndexSets: prependNilIndexSetForUnkeyedContainers, options: treeEncoder,
                asStreamElement: asStreamElement)
        }
    }

    /// Encodes `value` to an inspectable tree (the first stage of `encode(_:)`, which skips it
    /// when it can write the bytes directly).
    ///
    /// The tree holds what the format stores, so that `decodeTree` of the bytes gives it back: in
    /// v2, keyed containers have no nil fields (v2 leaves a nil `Optional` out, so a `T??`
    /// holding `.some(nil)` reads back as `nil`, as with BinaryCodable 2.x).
    public func encodeTree<T: Encodable>(_ value: T) throws -> BinaryValue {
        let tree = try treeEncoder.encodeTree(value)
        return format == .v2 ? tree.v2Stored(nodeLimit: DepthGuard.nodeLimit(maximumDepth: maximumDepth)) : tree
    }

    /// Serializes a tree (the second stage): `encode(tree: encodeTree(v))` equals `encode(v)`. With ``sortKeysDuringEncoding``, keyed containers are sorted first.
    public func encode(tree: BinaryValue) throws -> Data {
        try serialize(tree, sorted: false)
    }

    /// Encodes `value` to bytes with a default encoder (format v3, keys in insertion order).
    ///
    /// - Throws: `EncodingError` if the value cannot be represented in the format.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try BinaryEncoder().encode(value)
    }

    /// Encodes each value to bytes.
    public func encode<S: Sequence>(contentsOf values: S) throws -> [Data] where S.Element: Encodable {
        try values.map { try encode($0) }
    }

    private func serialize(_ tree: BinaryValue, sorted: Bool) throws -> Data {
        let tree = (sortsKeys && !sorted) ? tree.sortingKeys() : tree
        switch format {
        case .v3:
            return try V3Sink.write(tree, maximumDepth: maximumDepth)
        case .v2:
            return try V2Sink.write(
                tree, nilIndexSets: prependNilIndexSetForUnkeyedContainers, maximumDepth: maximumDepth)
        }
    }
}
