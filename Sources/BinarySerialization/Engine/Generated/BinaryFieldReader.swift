import Foundation
internal import TreeCoding

/// Reads a generated type's fields (``GeneratedBinaryCodable``): the keyed container the
/// `Codable` path would get, reached without an existential, with the type's keys made once.
///
/// From v3 bytes, a field that is the next entry is read in place, its key compared as bytes;
/// the first field that is not, and the first error, frame the container, and from then on every
/// field is read from the framed container as the `Codable` path reads it. An error is reported only once
/// the container is framed, so a container the framing rejects gives the framing's error, as it
/// does on the `Codable` path, whatever field was being read.
///
/// Not copyable: it reads a container state the decoder hands to the next value once
/// ``GeneratedBinaryCodable/init(binaryFields:)`` returns, so it cannot outlive that call.
public struct BinaryFieldReader: ~Copyable {
    let container: TreeKeyedDecodingContainer<BinaryKey>
    let keys: GeneratedKeys
    /// Reads the fields in place until the container is framed (then `nil`).
    private var cursor: V3FieldCursor?

    init(container: TreeKeyedDecodingContainer<BinaryKey>, keys: GeneratedKeys, cursor: V3FieldCursor?) {
        self.container = container
        self.keys = keys
        self.cursor = cursor
    }

    @inline(__always)
    private func key(_ field: Int) throws -> BinaryKey {
        guard let key = keys[field] else { throw Self.noSuchField(field, container.codingPath) }
        return key
    }

    @inline(never)
    static func noSuchField(_ field: Int, _ path: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: path, debugDescription: "generated code read field \(field), which the type's keys lack"))
    }

    /// Frames the container, if the cursor has not: from now on, fields are read from it.
    @inline(never)
    private mutating func frame() throws {
        guard cursor != nil else { return }
        cursor = nil
        do { try container.state.frameDeferred() } catch {
            throw container.impl.framingError(error, of: keys)
        }
    }

    /// Frames the entries the type did not read (unknown keys, a key twice), which the framing
    /// must accept as on the `Codable` path.
    mutating func finish() throws {
        if let cursor, !cursor.isAtEnd { try frame() }
    }

    /// A primitive read in place by `read` when it is the next entry; else (or when `read` finds
    /// none) read from the framed container by `framed`.
    @inline(__always)
    private mutating func primitive<S>(
        _ field: Int, _ read: (V3FieldCursor, V3Element) -> S?,
        framed: (TreeKeyedDecodingContainer<BinaryKey>, BinaryKey) throws -> S
    ) throws -> S {
        if let cursor, let element = self.cursor?.next(field), let value = read(cursor, element) { return value }
        try frame()
        return try framed(container, key(field))
    }

    /// As ``primitive(_:_:framed:)``, `nil` for a nil element and for a field the cursor knows is
    /// absent.
    @inline(__always)
    private mutating func primitiveIfPresent<S>(
        _ field: Int, _ read: (V3FieldCursor, V3Element) -> S?,
        framed: (TreeKeyedDecodingContainer<BinaryKey>, BinaryKey) throws -> S?
    ) throws -> S? {
        if let cursor {
            if let element = self.cursor?.next(field) {
                if element.tag == V3Format.nilElement { return nil }
                if let value = read(cursor, element) { return value }
            } else if self.cursor?.isAbsent(field) == true {
                return nil
            }
            try frame()
        }
        return try framed(container, key(field))
    }

    @inline(__always)
    private mutating func fixedSize<S: FixedSizeScalar>(_ type: S.Type, _ field: Int) throws -> S {
        try primitive(
            field, { $0.bits(S.scalarKind, of: $1).map(S.init(bits:)) }, framed: { try $0.fixedSizeScalar(S.self, $1) })
    }

    @inline(__always)
    private mutating func fixedSizeIfPresent<S: FixedSizeScalar>(_ type: S.Type, _ field: Int) throws -> S? {
        try primitiveIfPresent(
            field, { $0.bits(S.scalarKind, of: $1).map(S.init(bits:)) }, framed: { try $0.scalarIfPresent(S.self, $1) })
    }

    /// A value of `T` at `field`'s element, decoded in place; an error frames the container
    /// first, so that the framing's error, if any, is the one reported.
    @inline(__always)
    private mutating func nested<T: Decodable>(_ type: T.Type, _ node: ByteNode, _ field: Int) throws -> T {
        do {
            var value = DecodingNode.bytes(node)
            let step = PathStep.key(try key(field))
            return try container.state.withDecoderAndPath { impl, path in
                try impl.decodeValue(T.self, from: &value, parent: path, step: step)
            }
        } catch {
            try frame()
            throw error
        }
    }

    public mutating func decode(_ type: Bool.Type, at field: Int) throws -> Bool {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: String.Type, at field: Int) throws -> String {
        try primitive(field, { $0.string($1) }, framed: { try $0.decode(type, forKey: $1) })
    }
    public mutating func decode(_ type: Double.Type, at field: Int) throws -> Double {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Float.Type, at field: Int) throws -> Float {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Int.Type, at field: Int) throws -> Int {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Int8.Type, at field: Int) throws -> Int8 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Int16.Type, at field: Int) throws -> Int16 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Int32.Type, at field: Int) throws -> Int32 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: Int64.Type, at field: Int) throws -> Int64 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: UInt.Type, at field: Int) throws -> UInt {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: UInt8.Type, at field: Int) throws -> UInt8 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: UInt16.Type, at field: Int) throws -> UInt16 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: UInt32.Type, at field: Int) throws -> UInt32 {
        try fixedSize(type, field)
    }
    public mutating func decode(_ type: UInt64.Type, at field: Int) throws -> UInt64 {
        try fixedSize(type, field)
    }
    public mutating func decode<T: Decodable>(_ type: T.Type, at field: Int) throws -> T {
        if let cursor, let element = self.cursor?.next(field) { return try nested(type, cursor.node(element), field) }
        try frame()
        return try container.decode(type, forKey: key(field))
    }

    public mutating func decodeIfPresent(_ type: Bool.Type, at field: Int) throws -> Bool? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: String.Type, at field: Int) throws -> String? {
        try primitiveIfPresent(
            field, { $0.string($1) }, framed: { try $0.decodeIfPresent(type, forKey: $1) })
    }
    public mutating func decodeIfPresent(_ type: Double.Type, at field: Int) throws -> Double? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Float.Type, at field: Int) throws -> Float? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Int.Type, at field: Int) throws -> Int? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Int8.Type, at field: Int) throws -> Int8? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Int16.Type, at field: Int) throws -> Int16? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Int32.Type, at field: Int) throws -> Int32? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: Int64.Type, at field: Int) throws -> Int64? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: UInt.Type, at field: Int) throws -> UInt? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: UInt8.Type, at field: Int) throws -> UInt8? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: UInt16.Type, at field: Int) throws -> UInt16? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: UInt32.Type, at field: Int) throws -> UInt32? {
        try fixedSizeIfPresent(type, field)
    }
    public mutating func decodeIfPresent(_ type: UInt64.Type, at field: Int) throws -> UInt64? {
        try fixedSizeIfPresent(type, field)
    }
    /// As `decodeIfPresent(_:forKey:)`: a nil element is nil only for a primitive.
    public mutating func decodeIfPresent<T: Decodable>(_ type: T.Type, at field: Int) throws -> T? {
        if cursor != nil {
            if let cursor, let element = self.cursor?.next(field) {
                if element.tag == V3Format.nilElement, T.self is any ScalarDecodable.Type { return nil }
                return try nested(type, cursor.node(element), field)
            }
            if cursor?.isAbsent(field) == true { return nil }
            try frame()
        }
        return try container.decodeIfPresent(type, forKey: key(field))
    }
}
