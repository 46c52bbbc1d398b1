import Foundation
internal import TreeCoding

/// Reads a generated type's fields (``GeneratedBinaryCodable``): the keyed container the
/// `Codable` path would get, reached without an existential, with the type's keys made once.
///
/// Not copyable: it reads a container state the decoder hands to the next value once
/// ``GeneratedBinaryCodable/init(binaryFields:)`` returns, so it cannot outlive that call.
public struct BinaryFieldReader: ~Copyable {
    let container: TreeKeyedDecodingContainer<BinaryKey>
    let keys: GeneratedKeys

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

    public func decode(_ type: Bool.Type, at field: Int) throws -> Bool {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: String.Type, at field: Int) throws -> String {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Double.Type, at field: Int) throws -> Double {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Float.Type, at field: Int) throws -> Float {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Int.Type, at field: Int) throws -> Int { try container.decode(type, forKey: key(field)) }
    public func decode(_ type: Int8.Type, at field: Int) throws -> Int8 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Int16.Type, at field: Int) throws -> Int16 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Int32.Type, at field: Int) throws -> Int32 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: Int64.Type, at field: Int) throws -> Int64 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: UInt.Type, at field: Int) throws -> UInt {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: UInt8.Type, at field: Int) throws -> UInt8 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: UInt16.Type, at field: Int) throws -> UInt16 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: UInt32.Type, at field: Int) throws -> UInt32 {
        try container.decode(type, forKey: key(field))
    }
    public func decode(_ type: UInt64.Type, at field: Int) throws -> UInt64 {
        try container.decode(type, forKey: key(field))
    }
    public func decode<T: Decodable>(_ type: T.Type, at field: Int) throws -> T {
        try container.decode(type, forKey: key(field))
    }

    public func decodeIfPresent(_ type: Bool.Type, at field: Int) throws -> Bool? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: String.Type, at field: Int) throws -> String? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Double.Type, at field: Int) throws -> Double? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Float.Type, at field: Int) throws -> Float? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Int.Type, at field: Int) throws -> Int? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Int8.Type, at field: Int) throws -> Int8? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Int16.Type, at field: Int) throws -> Int16? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Int32.Type, at field: Int) throws -> Int32? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: Int64.Type, at field: Int) throws -> Int64? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: UInt.Type, at field: Int) throws -> UInt? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: UInt8.Type, at field: Int) throws -> UInt8? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: UInt16.Type, at field: Int) throws -> UInt16? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: UInt32.Type, at field: Int) throws -> UInt32? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent(_ type: UInt64.Type, at field: Int) throws -> UInt64? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
    public func decodeIfPresent<T: Decodable>(_ type: T.Type, at field: Int) throws -> T? {
        try container.decodeIfPresent(type, forKey: key(field))
    }
}
