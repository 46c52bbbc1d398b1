import Foundation
internal import TreeCoding

/// Writes a generated type's fields (``GeneratedBinaryCodable``): the keyed container the
/// `Codable` path would get, reached without an existential, with the type's keys made once.
/// Where the sink takes fields in one call (a direct field sink), a primitive field is that call.
///
/// Not copyable, so that it cannot outlive ``GeneratedBinaryCodable/encodeBinaryFields(to:)``.
public struct BinaryFieldWriter: ~Copyable {
    var container: StreamingKeyedContainer<BinaryKey>
    let keys: GeneratedKeys
    /// The sink that takes fields in one call, when the keys have bytes for it (v3's, v2's or protobuf's),
    /// those bytes, and the engine. Unmanaged: the engine holds the sink and `keys` the bytes, and
    /// the engine outlives this writer; a retain and release of each per field measured 130
    /// instructions.
    private let v3: Unmanaged<V3Sink>?
    private let v2: Unmanaged<V2Sink>?
    private let protobuf: Unmanaged<ProtobufSink>?
    private let directKeys: Unmanaged<FieldKeyBytes>?
    private let engine: Unmanaged<StreamingEncoder>
    /// The frame id of the writer's keyed node.
    private let id: Int
    /// With `directKeys`: the fields written so far, one bit each (a field written twice makes the
    /// run give up, as a key written twice does).
    private var written: UInt64 = 0

    init(container: StreamingKeyedContainer<BinaryKey>, keys: GeneratedKeys) {
        self.container = container
        self.keys = keys
        let engine = container.engine
        self.engine = Unmanaged.passUnretained(engine)
        id = container.id
        directKeys = keys.direct.map { Unmanaged.passUnretained($0) }
        v3 = keys.direct != nil ? engine.v3FieldSink.map { Unmanaged.passUnretained($0) } : nil
        v2 = keys.direct != nil ? engine.v2FieldSink.map { Unmanaged.passUnretained($0) } : nil
        protobuf = keys.direct != nil ? engine.protobufFieldSink.map { Unmanaged.passUnretained($0) } : nil
    }

    @inline(__always)
    private mutating func key(_ field: Int) throws -> BinaryKey {
        guard let key = keys[field] else { throw Self.noSuchField(field, container.codingPath) }
        if directKeys != nil { try note(field) }
        return key
    }

    /// Notes field `field` written; with `directKeys` only, where every field comes through here
    /// and `field` is one of at most 64 keys (checked by the caller).
    @inline(__always)
    private mutating func note(_ field: Int) throws {
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: field)
        guard written & bit == 0 else { throw container.engine.giveUp() }
        written |= bit
    }

    /// A primitive field: what the container's `encode(_:forKey:)` does for it, with the key as
    /// written made once, or in one call to the sink.
    @inline(__always)
    private mutating func write(_ leaf: BinaryValue, _ field: Int) throws {
        if let directKeys {
            let active = engine._withUnsafeGuaranteedRef { $0.activate(id) != nil }
            let count = directKeys._withUnsafeGuaranteedRef { $0.count }
            guard active, field >= 0, field < count else { try writeFailed(field) }
            try note(field)
            let key = directKeys._withUnsafeGuaranteedRef { $0[field] }
            if let v3 {
                v3._withUnsafeGuaranteedRef { $0.field(key, leaf) }
            } else if let v2 {
                v2._withUnsafeGuaranteedRef { $0.field(key, leaf) }
            } else if let protobuf {
                protobuf._withUnsafeGuaranteedRef { $0.field(key, leaf) }
            }
            return
        }
        guard let key = keys.written(field) else { throw Self.noSuchField(field, container.codingPath) }
        try container.write(leaf, written: key)
    }

    /// An optional primitive field: in v3 and v2 its value when present (the sink needs no type
    /// facts), else the container's `encodeIfPresent` (protobuf: a field with presence).
    @inline(__always)
    private mutating func writeIfPresent<V: Encodable>(
        _ value: V?, _ field: Int, _ leaf: (V) -> BinaryValue
    ) throws {
        guard v3 != nil || v2 != nil else { return try container.encodeIfPresent(value, forKey: key(field)) }
        if let value { try write(leaf(value), field) }
    }

    /// Why a direct field could not be written: a field the keys lack, or a run that gave up.
    @inline(never)
    private func writeFailed(_ field: Int) throws -> Never {
        guard keys[field] != nil else { throw Self.noSuchField(field, container.codingPath) }
        throw container.engine.giveUp()
    }

    @inline(never)
    static func noSuchField(_ field: Int, _ path: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            field,
            .init(codingPath: path, debugDescription: "generated code wrote field \(field), which the type's keys lack")
        )
    }

    public mutating func encode(_ value: Bool, at field: Int) throws { try write(.bool(value), field) }
    public mutating func encode(_ value: String, at field: Int) throws { try write(.string(value), field) }
    public mutating func encode(_ value: Double, at field: Int) throws { try write(.double(value), field) }
    public mutating func encode(_ value: Float, at field: Int) throws { try write(.float(value), field) }
    public mutating func encode(_ value: Int, at field: Int) throws { try write(.int(value), field) }
    public mutating func encode(_ value: Int8, at field: Int) throws { try write(.int8(value), field) }
    public mutating func encode(_ value: Int16, at field: Int) throws { try write(.int16(value), field) }
    public mutating func encode(_ value: Int32, at field: Int) throws { try write(.int32(value), field) }
    public mutating func encode(_ value: Int64, at field: Int) throws { try write(.int64(value), field) }
    public mutating func encode(_ value: UInt, at field: Int) throws { try write(.uint(value), field) }
    public mutating func encode(_ value: UInt8, at field: Int) throws { try write(.uint8(value), field) }
    public mutating func encode(_ value: UInt16, at field: Int) throws { try write(.uint16(value), field) }
    public mutating func encode(_ value: UInt32, at field: Int) throws { try write(.uint32(value), field) }
    public mutating func encode(_ value: UInt64, at field: Int) throws { try write(.uint64(value), field) }
    public mutating func encode<T: Encodable>(_ value: T, at field: Int) throws {
        try container.encode(value, forKey: key(field))
    }
    /// An array of a type with generated code: its elements are written without `Encoder`
    /// existentials (the bytes are `Array.encode(to:)`'s).
    public mutating func encode<T: GeneratedBinaryCodable>(_ value: [T], at field: Int) throws {
        try container.encodeGeneratedArray(value, forKey: key(field))
    }

    public mutating func encodeIfPresent(_ value: Bool?, at field: Int) throws {
        try writeIfPresent(value, field) { .bool($0) }
    }
    public mutating func encodeIfPresent(_ value: String?, at field: Int) throws {
        try writeIfPresent(value, field) { .string($0) }
    }
    public mutating func encodeIfPresent(_ value: Double?, at field: Int) throws {
        try writeIfPresent(value, field) { .double($0) }
    }
    public mutating func encodeIfPresent(_ value: Float?, at field: Int) throws {
        try writeIfPresent(value, field) { .float($0) }
    }
    public mutating func encodeIfPresent(_ value: Int?, at field: Int) throws {
        try writeIfPresent(value, field) { .int($0) }
    }
    public mutating func encodeIfPresent(_ value: Int8?, at field: Int) throws {
        try writeIfPresent(value, field) { .int8($0) }
    }
    public mutating func encodeIfPresent(_ value: Int16?, at field: Int) throws {
        try writeIfPresent(value, field) { .int16($0) }
    }
    public mutating func encodeIfPresent(_ value: Int32?, at field: Int) throws {
        try writeIfPresent(value, field) { .int32($0) }
    }
    public mutating func encodeIfPresent(_ value: Int64?, at field: Int) throws {
        try writeIfPresent(value, field) { .int64($0) }
    }
    public mutating func encodeIfPresent(_ value: UInt?, at field: Int) throws {
        try writeIfPresent(value, field) { .uint($0) }
    }
    public mutating func encodeIfPresent(_ value: UInt8?, at field: Int) throws {
        try writeIfPresent(value, field) { .uint8($0) }
    }
    public mutating func encodeIfPresent(_ value: UInt16?, at field: Int) throws {
        try writeIfPresent(value, field) { .uint16($0) }
    }
    public mutating func encodeIfPresent(_ value: UInt32?, at field: Int) throws {
        try writeIfPresent(value, field) { .uint32($0) }
    }
    public mutating func encodeIfPresent(_ value: UInt64?, at field: Int) throws {
        try writeIfPresent(value, field) { .uint64($0) }
    }
    public mutating func encodeIfPresent<T: Encodable>(_ value: T?, at field: Int) throws {
        try container.encodeIfPresent(value, forKey: key(field))
    }
}
