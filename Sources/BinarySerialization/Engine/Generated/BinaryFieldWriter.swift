import Foundation
internal import TreeCoding

/// Writes a generated type's fields (``GeneratedBinaryCodable``): the keyed container the
/// `Codable` path would get, reached without an existential, with the type's keys made once.
///
/// Not copyable, so that it cannot outlive ``GeneratedBinaryCodable/encodeBinaryFields(to:)``.
public struct BinaryFieldWriter: ~Copyable {
    var container: StreamingKeyedContainer<BinaryKey>
    let keys: GeneratedKeys

    @inline(__always)
    private func key(_ field: Int) throws -> BinaryKey {
        guard let key = keys[field] else { throw Self.noSuchField(field, container.codingPath) }
        return key
    }

    @inline(never)
    static func noSuchField(_ field: Int, _ path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            field,
            .init(codingPath: path, debugDescription: "generated code wrote field \(field), which the type's keys lack")
        )
    }

    public mutating func encode(_ value: Bool, at field: Int) throws { try container.encode(value, forKey: key(field)) }
    public mutating func encode(_ value: String, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: Double, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: Float, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: Int, at field: Int) throws { try container.encode(value, forKey: key(field)) }
    public mutating func encode(_ value: Int8, at field: Int) throws { try container.encode(value, forKey: key(field)) }
    public mutating func encode(_ value: Int16, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: Int32, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: Int64, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: UInt, at field: Int) throws { try container.encode(value, forKey: key(field)) }
    public mutating func encode(_ value: UInt8, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: UInt16, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: UInt32, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode(_ value: UInt64, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    public mutating func encode<T: Encodable>(_ value: T, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }

    public mutating func encodeIfPresent(_ value: Bool?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: String?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Double?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Float?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Int?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Int8?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Int16?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Int32?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: Int64?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: UInt?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: UInt8?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: UInt16?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: UInt32?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent(_ value: UInt64?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
}
