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
    let keys: [BinaryKey]

    init(_ type: any GeneratedBinaryCodable.Type) {
        keys = type.binaryCodingKeys.map { BinaryKey($0) }
    }

    /// Key `field`, or `nil` when generated code names a field the type does not have.
    @inline(__always)
    subscript(field: Int) -> BinaryKey? {
        field >= 0 && field < keys.count ? keys[field] : nil
    }
}

extension TypeFactCache<GeneratedKeys> {
    /// The keys of `type`, made on first use and remembered when a slot is free.
    mutating func keys(of type: any GeneratedBinaryCodable.Type) -> GeneratedKeys {
        let id = ObjectIdentifier(type)
        if let known = fact(for: id) { return known }
        let keys = GeneratedKeys(type)
        if RetentionLimits.reuses { remember(keys, for: id) }
        return keys
    }
}
