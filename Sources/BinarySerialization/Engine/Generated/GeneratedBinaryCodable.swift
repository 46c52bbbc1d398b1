import Foundation
internal import TreeCoding

/// A `Codable` type whose fields the binary coders write and read through code generated for it
/// (the `@TreeCodable` macro of the `TreeCodableMacros` package), without `Encoder` and `Decoder`
/// existentials: each field is one direct call.
///
/// The generated code does what the type's synthesized `Codable` conformance does, key for key
/// and in the same order, so the bytes and values are those of the `Codable` path in every
/// format. The type keeps its `Codable` conformance: paths that need it (a tree, sorted keys)
/// still use it.
///
/// Write this conformance through the macro; written by hand, it must follow the same rule.
public protocol GeneratedBinaryCodable: Codable {
    /// The type's coding keys in declaration order; the `at:` arguments of
    /// ``BinaryFieldWriter`` and ``BinaryFieldReader`` index into it. Read once per thread.
    static var binaryCodingKeys: [any CodingKey] { get }

    /// Writes the fields `encode(to:)` writes, in its order.
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws

    /// Reads the fields `init(from:)` reads, in its order.
    init(binaryFields fields: inout BinaryFieldReader) throws
}

/// A generated type's keys as the coders use them, made once per type and thread.
final class GeneratedKeys {
    /// The type, as decoding errors name it.
    let type: any GeneratedBinaryCodable.Type
    let keys: [BinaryKey]
    /// The keys as a format writes them (``BinaryKey/init(writtenAs:)``), for primitive fields.
    let written: [BinaryKey]
    /// The keys as the engine's ``DirectFieldSink`` writes them; `nil` without one, for a key it
    /// has no bytes for, or past 64 fields (the writer notes written fields in one word).
    let direct: FieldKeyBytes?
    /// For decoding: the keys as v3 writes them, for ``V3FieldCursor``; `nil` past 64 fields, for
    /// a key v3 cannot write, or when two fields have the same bytes.
    let v3Read: FieldKeyBytes?

    init(_ type: any GeneratedBinaryCodable.Type, directSink: (any DirectFieldSink)?, forDecoding: Bool = false) {
        self.type = type
        let codingKeys = type.binaryCodingKeys
        keys = codingKeys.map { BinaryKey($0) }
        let written = codingKeys.map { BinaryKey(writtenAs: $0) }
        self.written = written
        let fits = codingKeys.count <= 64
        direct = fits ? directSink.flatMap { sink in FieldKeyBytes(written, bytesOf: sink.fieldKeyBytes) } : nil
        let read = fits && forDecoding ? FieldKeyBytes(written, bytesOf: V3Sink.keyBytes) : nil
        v3Read = read?.areDistinct == true ? read : nil
    }

    /// Key `field`, or `nil` when generated code names a field the type does not have.
    @inline(__always)
    subscript(field: Int) -> BinaryKey? {
        field >= 0 && field < keys.count ? keys[field] : nil
    }

    /// Whether `key` is one of these keys, as `CodingKeys(intValue:)` or, for a key without an
    /// integer, `CodingKeys(stringValue:)` would find it.
    func contains(_ key: BinaryKey) -> Bool {
        if let i = key.intValue { return keys.contains { $0.intValue == i } }
        return keys.contains { $0.stringValue == key.stringValue }
    }

    /// Key `field` as written, or `nil` as for ``subscript(_:)``.
    @inline(__always)
    func written(_ field: Int) -> BinaryKey? {
        field >= 0 && field < written.count ? written[field] : nil
    }
}

extension TypeFactCache<GeneratedKeys> {
    /// The keys of `type`, made on first use and remembered when a slot is free.
    mutating func keys(
        of type: any GeneratedBinaryCodable.Type, directSink: (any DirectFieldSink)? = nil, forDecoding: Bool = false
    ) -> GeneratedKeys {
        let id = ObjectIdentifier(type)
        if let known = fact(for: id) { return known }
        let keys = GeneratedKeys(type, directSink: directSink, forDecoding: forDecoding)
        if RetentionLimits.reuses { remember(keys, for: id) }
        return keys
    }
}
