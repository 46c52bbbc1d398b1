public import Foundation

/// Decodes `Decodable` values from bytes written by ``BinaryEncoder`` (or by BinaryCodable).
///
/// Neither format describes its own types, so the Swift type drives the parse: the bytes are
/// read through zero-copy views, and every length is checked against what remains first.
/// Malformed input throws `DecodingError` (with the coding path and the byte offset), never traps.
public struct BinaryDecoder: DecodesFromData, DecodesFromTree, Sendable {
    /// The wire format to read.
    public var format: BinaryFormat
    /// Context for `init(from:)` implementations.
    public var userInfo: [CodingUserInfoKey: any Sendable] = Dictionary()
    /// Limits that keep hostile input from exhausting the stack or memory.
    public var limits: DecodingLimits = DecodingLimits()
    /// v2 only: expect the "nil index set" that ``BinaryEncoder/prependNilIndexSetForUnkeyedContainers``
    /// writes before each unkeyed container.
    public var prependNilIndexSetForUnkeyedContainers: Bool = false

    /// The BinaryCodable 2.x name of ``prependNilIndexSetForUnkeyedContainers``.
    @available(*, deprecated, renamed: "prependNilIndexSetForUnkeyedContainers")
    public var containsNilIndexSetForUnkeyedContainers: Bool {
        get { prependNilIndexSetForUnkeyedContainers }
        set { prependNilIndexSetForUnkeyedContainers = newValue }
    }

    /// A decoder for `format` (v3 by default).
    public init(format: BinaryFormat = .v3) {
        self.format = format
    }

    var options: DecodingOptions {
        DecodingOptions(userInfo: userInfo, maximumDepth: limits.maximumDepth)
    }

    /// Decodes a value of `type` from `data` (which may be a slice).
    ///
    /// The type can be left out when the context gives it: `let m: Message = try decoder.decode(from: data)`.
    /// - Throws: `DecodingError` if the bytes are not a valid encoding of `type`.
    /// - Complexity: O(n) in the size of the data.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from data: Data) throws -> T {
        try data.withUnsafeBytes { try decode(T.self, fromBuffer: $0) }
    }

    /// Decodes a value of `type` from bytes.
    ///
    /// - Throws: `DecodingError` if the bytes are not a valid encoding of `type`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { try decode(T.self, fromBuffer: $0) }
    }

    /// Decodes a value of `type` from `data` with a default decoder (format v3).
    ///
    /// - Throws: `DecodingError` if the bytes are not a valid encoding of `type`.
    public static func decode<T: Decodable>(_ type: T.Type = T.self, from data: Data) throws -> T {
        try BinaryDecoder().decode(T.self, from: data)
    }

    /// Decodes a value of `type` from bytes with a default decoder (format v3).
    ///
    /// - Throws: `DecodingError` if the bytes are not a valid encoding of `type`.
    public static func decode<T: Decodable>(_ type: T.Type = T.self, from bytes: [UInt8]) throws -> T {
        try BinaryDecoder().decode(T.self, from: bytes)
    }

    /// Decodes a value of `type` from a tree, exactly as strictly as from the tree's bytes: if
    /// this returns a value, `encode(tree:)` in the same format either throws or gives bytes that
    /// decode to that value.
    ///
    /// So a leaf is read only as a type whose bytes it matches (a `UInt32` field does not take an
    /// `.int` leaf, whose zig-zag bytes a `UInt32` would read as another number; a `Double`
    /// field does not take an `.int`), and in v2 a nil field of a keyed container is absent, as
    /// v2 does not store it.
    ///
    /// - Throws: `DecodingError` if the tree does not have the shape of `type`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, fromTree tree: BinaryValue) throws -> T {
        let stored =
            format == .v2 ? tree.v2Stored(nodeLimit: DepthGuard.nodeLimit(maximumDepth: limits.maximumDepth)) : tree
        return try TreeDecoderImpl.decodeRoot(T.self, from: .tree(stored), format: nil, options: options)
    }

    /// The tree of the stored bytes, shaped by `type`: what ``BinaryEncoder/encodeTree(_:)`` gives
    /// for the decoded value. Fields the type does not read are not in the tree.
    public func decodeTree<T: Decodable>(_ type: T.Type, from data: Data) throws -> BinaryValue {
        if readsAsBytes(T.self) { return .data(try decode(Data.self, from: data)) }
        return try withRecording(T.self, from: data) { $0.tree }
    }

    /// Runs `body` with what `type` (not one that ``readsAsBytes(_:)``) reads from `data`, while
    /// the recording's input is valid.
    func withRecording<T: Decodable, R>(
        _ type: T.Type, from data: Data, _ body: (TreeRecording) throws -> R
    ) throws -> R {
        try data.withUnsafeBytes { buffer in
            let (root, byteFormat) = rootNode(buffer)
            return try body(TreeRecorder.recording(T.self, from: root, format: byteFormat, options: options))
        }
    }

    /// Decodes a value of `type` from a raw buffer that stays valid during the call.
    func decode<T: Decodable>(_ type: T.Type, fromBuffer buffer: UnsafeRawBufferPointer) throws -> T {
        let (root, byteFormat) = rootNode(buffer)
        do {
            return try decodeRoot(T.self, from: root, format: byteFormat)
        } catch DecodingError.keyNotFound(let key, _) where buffer.isEmpty {
            throw Self.emptyInput(T.self, missing: key)
        }
    }

    /// The error for an empty input that `type` needs a field from: the input is what is wrong,
    /// not the key.
    @inline(never)
    static func emptyInput(_ type: Any.Type, missing key: any CodingKey) -> DecodingError {
        let wire = WireFormatError(.truncated, "empty input (\(type) needs the key \"\(key.stringValue)\")", offset: 0)
        return .dataCorrupted(wire.context())
    }

    /// Decodes a whole input (or stream element) of `type`; a `Data` that ``readsAsBytes(_:)``
    /// as the `[UInt8]` it is stored as.
    func decodeRoot<T: Decodable>(_ type: T.Type, from root: ByteNode, format: any ByteFormat.Type) throws -> T {
        if readsAsBytes(T.self) { return try decodeBytesRoot(T.self, root, format: format) }
        return try TreeDecoderImpl.decodeRoot(T.self, from: .bytes(root), format: format, options: options)
    }

    /// A root `Data` read as the `[UInt8]` it is stored as. Out of line: the common path must not
    /// ask for the metadata of `[UInt8]` or `T?`.
    @inline(never)
    private func decodeBytesRoot<T: Decodable>(_ type: T.Type, _ root: ByteNode, format: any ByteFormat.Type) throws
        -> T
    {
        let bytes = try TreeDecoderImpl.decodeRoot([UInt8].self, from: .bytes(root), format: format, options: options)
        if let data = Data(bytes) as? T { return data }
        return try TreeDecoderImpl.decodeRoot(T.self, from: .bytes(root), format: format, options: options)
    }

    /// Whether a root of `type` is read as `[UInt8]`: a `Data` in v2 with nil index sets, which
    /// 2.x reads (and writes) at the top level and as a stream element with `Data`'s own
    /// `Codable` conformance, an unkeyed container of bytes after a nil index set. (Everywhere
    /// else 2.x reads `Data` as a primitive.)
    func readsAsBytes<T>(_ type: T.Type) -> Bool {
        format == .v2 && prependNilIndexSetForUnkeyedContainers && T.self == Data.self
    }

    /// The configured format's reader.
    var byteFormat: any ByteFormat.Type {
        switch format {
        case .v3: return V3Format.self
        case .v2: return V2Format.reader(nilIndexSets: prependNilIndexSetForUnkeyedContainers)
        }
    }

    /// The whole input as a node of the configured format.
    private func rootNode(_ buffer: UnsafeRawBufferPointer) -> (ByteNode, any ByteFormat.Type) {
        let root = format == .v3 ? V3Format.root(buffer) : V2Format.root(buffer)
        return (root, byteFormat)
    }
}

/// Limits that keep any input from exhausting the stack or memory.
///
/// Whatever the limits, no allocation is ever sized from a count read off the wire: lengths are
/// checked against the bytes that remain before anything is reserved.
public struct DecodingLimits: Hashable, Sendable {
    /// The deepest nesting of values accepted (default 512); deeper input throws
    /// `DecodingError.dataCorrupted` instead of overflowing the stack.
    ///
    /// A level is a struct, enum or class coded through a container of its own, an array of such
    /// values, or a dictionary; optionals and an enum case's payload container are not levels.
    /// ``BinaryEncoder/maximumDepth`` counts the same way, so a value decoded with a limit is
    /// written back with the same limit, and the other way round. (``ProtobufDecoder`` counts
    /// nested messages instead.)
    public var maximumDepth: Int = 512
    /// The largest element a stream or file decoder waits for (default 256 MiB); a larger
    /// length prefix throws instead of buffering without bound.
    public var maximumElementSize: Int = 256 << 20

    /// Limits with the given maximum nesting depth and maximum stream element size in bytes.
    public init(maximumDepth: Int = 512, maximumElementSize: Int = 256 << 20) {
        self.maximumDepth = maximumDepth
        self.maximumElementSize = maximumElementSize
    }
}
