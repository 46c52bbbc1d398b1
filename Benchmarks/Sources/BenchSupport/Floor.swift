// The floor: the least a `Codable` coder can cost.
//
// `FloorEncoder`/`FloorDecoder` go through the same `Encodable`/`Decodable` calls as any coder
// (keyed containers and their boxes, `encode(to:)`, `init(from:)`), but do nothing a real format
// must do beyond that: keys are ignored, fields are written in the order they come, there is no
// tree, no framing of keyed containers, no depth limit and no coding path. What remains is the
// cost of `Codable` itself plus one growing `[UInt8]`, which is what TreeCodable is compared with.
//
// Bytes (not compatible with anything else):
// - unsigned integers: LEB128 varints; signed integers: zig-zag, then a varint;
// - `Float`/`Double`: the bit pattern, little endian; `Bool`: one byte, 0 or 1;
// - `String`/`Data`: varint byte count, then the bytes (UTF-8 for strings);
// - optionals (`Optional` values and `encodeIfPresent`): a presence byte 0 or 1, then the value;
// - arrays of primitives and `[String: V]`: varint element count, then the elements
//   (a key, then its value, for dictionaries);
// - any other unkeyed container (arrays of structs): a 4-byte little-endian element count,
//   patched when the value that opened the container returns, then the elements.
//
// Like TreeCodable, primitives, optionals, arrays of primitives and `[String: V]` are recognised
// by a metatype check and read or written directly, without `encode(to:)`/`init(from:)`.
// Unsupported (the benchmark payloads need none of it): dictionaries with other keys than
// `String` (`Dictionary` lists its keys through `allKeys`, which needs stored keys), and
// `encodeNil()` in unkeyed and single-value containers.
import Foundation

public struct FloorError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

public enum Floor {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = FloorEncoder()
        try encoder.encodeValue(value)
        return encoder.bytes
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try bytes.withUnsafeBytes { raw in
            let decoder = FloorDecoder(raw)
            let value = try decoder.decodeValue(T.self)
            guard decoder.position == raw.count else { throw FloorError("trailing bytes") }
            return value
        }
    }
}

// MARK: - Direct coding

/// Values written without `encode(to:)`.
protocol FloorEncodableDirect {
    func floorEncode(to encoder: FloorEncoder) throws
}

/// Values read without `init(from:)`.
protocol FloorDecodableDirect {
    static func floorDecode(from decoder: FloorDecoder) throws -> Self
}

/// Primitives, and the arrays of them, read and written in one specialized loop.
protocol FloorScalar: Codable, FloorEncodableDirect, FloorDecodableDirect {
    static func floorEncodeArray(_ elements: [Self], to encoder: FloorEncoder)
    static func floorDecodeArray(from decoder: FloorDecoder) throws -> [Self]
}

extension FloorScalar {
    // Each conformance's witness calls these with a concrete `Self`, so they are specialized.
    @inline(__always)
    static func floorEncodeArray(_ elements: [Self], to encoder: FloorEncoder) {
        encoder.writeVarint(UInt64(elements.count))
        encoder.bytes.reserveCapacity(encoder.bytes.count + elements.count * MemoryLayout<Self>.size)
        for element in elements { try! element.floorEncode(to: encoder) }
    }

    @inline(__always)
    static func floorDecodeArray(from decoder: FloorDecoder) throws -> [Self] {
        let count = try decoder.readCount()
        var out: [Self] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(try floorDecode(from: decoder)) }
        return out
    }
}

protocol FloorSigned: FloorScalar, FixedWidthInteger, SignedInteger {}
protocol FloorUnsigned: FloorScalar, FixedWidthInteger, UnsignedInteger {}

extension FloorSigned {
    @inline(__always)
    func floorEncode(to encoder: FloorEncoder) { encoder.writeSigned(Int64(self)) }
    @inline(__always)
    static func floorDecode(from decoder: FloorDecoder) throws -> Self {
        guard let value = Self(exactly: try decoder.readSigned()) else { throw FloorError("\(Self.self) out of range") }
        return value
    }
}

extension FloorUnsigned {
    @inline(__always)
    func floorEncode(to encoder: FloorEncoder) { encoder.writeVarint(UInt64(self)) }
    @inline(__always)
    static func floorDecode(from decoder: FloorDecoder) throws -> Self {
        guard let value = Self(exactly: try decoder.readVarint()) else { throw FloorError("\(Self.self) out of range") }
        return value
    }
}

extension Int: FloorSigned {}
extension Int8: FloorSigned {}
extension Int16: FloorSigned {}
extension Int32: FloorSigned {}
extension Int64: FloorSigned {}
extension UInt: FloorUnsigned {}
extension UInt8: FloorUnsigned {}
extension UInt16: FloorUnsigned {}
extension UInt32: FloorUnsigned {}
extension UInt64: FloorUnsigned {}

extension Bool: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) { encoder.bytes.append(self ? 1 : 0) }
    static func floorDecode(from decoder: FloorDecoder) throws -> Bool {
        switch try decoder.readByte() {
        case 0: return false
        case 1: return true
        default: throw FloorError("invalid Bool")
        }
    }
}

extension Double: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) { encoder.writeFixed(bitPattern) }
    static func floorDecode(from decoder: FloorDecoder) throws -> Double { Double(bitPattern: try decoder.readFixed()) }
}

extension Float: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) { encoder.writeFixed(bitPattern) }
    static func floorDecode(from decoder: FloorDecoder) throws -> Float { Float(bitPattern: try decoder.readFixed()) }
}

extension String: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) { encoder.writeString(self) }
    static func floorDecode(from decoder: FloorDecoder) throws -> String { try decoder.readString() }
}

extension Data: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) {
        encoder.writeVarint(UInt64(count))
        encoder.bytes.append(contentsOf: self)
    }
    static func floorDecode(from decoder: FloorDecoder) throws -> Data {
        let count = try decoder.readCount()
        let data = Data(decoder.bytes(count))
        return data
    }
}

extension Array: FloorEncodableDirect where Element: FloorScalar {
    func floorEncode(to encoder: FloorEncoder) { Element.floorEncodeArray(self, to: encoder) }
}

extension Array: FloorDecodableDirect where Element: FloorScalar {
    static func floorDecode(from decoder: FloorDecoder) throws -> [Element] { try Element.floorDecodeArray(from: decoder) }
}

extension Optional: FloorEncodableDirect where Wrapped: Encodable {
    func floorEncode(to encoder: FloorEncoder) throws {
        switch self {
        case .none:
            encoder.bytes.append(0)
        case .some(let wrapped):
            encoder.bytes.append(1)
            try encoder.encodeValue(wrapped)
        }
    }
}

extension Optional: FloorDecodableDirect where Wrapped: Decodable {
    static func floorDecode(from decoder: FloorDecoder) throws -> Wrapped? {
        guard try decoder.readPresence() else { return nil }
        return try decoder.decodeValue(Wrapped.self)
    }
}

extension Dictionary: FloorEncodableDirect where Key == String, Value: Encodable {
    func floorEncode(to encoder: FloorEncoder) throws {
        encoder.writeVarint(UInt64(count))
        for (key, value) in self {
            encoder.writeString(key)
            try encoder.encodeValue(value)
        }
    }
}

extension Dictionary: FloorDecodableDirect where Key == String, Value: Decodable {
    static func floorDecode(from decoder: FloorDecoder) throws -> [String: Value] {
        let count = try decoder.readCount()
        var out: [String: Value] = [:]
        out.reserveCapacity(count)
        for _ in 0..<count {
            let key = try decoder.readString()
            out[key] = try decoder.decodeValue(Value.self)
        }
        return out
    }
}

// MARK: - Encoder

final class FloorEncoder: Encoder {
    // Unchecked exclusivity: one encoder per call, used by one thread (as TreeCodable's state).
    @exclusivity(unchecked) var bytes: [UInt8] = []
    /// The count fields of the unkeyed containers still open: byte offset and elements so far.
    @exclusivity(unchecked) var openCounts: [(offset: Int, count: UInt32)] = []

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init() { bytes.reserveCapacity(64) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FloorKeyedEncoding<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let slot = openCounts.count
        openCounts.append((bytes.count, 0))
        bytes.append(0); bytes.append(0); bytes.append(0); bytes.append(0)
        return FloorUnkeyedEncoding(encoder: self, slot: slot)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { FloorSingleEncoding(encoder: self) }

    /// Writes `value`: directly when its type allows, else through `encode(to:)`.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T) throws {
        if let direct = T.self as? any FloorEncodableDirect.Type {
            return try encodeDirect(direct, value)
        }
        let mark = openCounts.count
        try value.encode(to: self)
        // Patch the counts of the unkeyed containers this value opened.
        while openCounts.count > mark {
            let (offset, count) = openCounts.removeLast()
            withUnsafeBytes(of: count.littleEndian) { count in
                for i in 0..<4 { bytes[offset + i] = count[i] }
            }
        }
    }

    private func encodeDirect<D: FloorEncodableDirect, T>(_ type: D.Type, _ value: T) throws {
        precondition(T.self == D.self)
        try unsafeBitCast(value, to: D.self).floorEncode(to: self)
    }

    @inline(__always)
    func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    func writeSigned(_ value: Int64) {
        writeVarint(UInt64(bitPattern: (value &<< 1) ^ (value >> 63)))
    }

    @inline(__always)
    func writeFixed<I: FixedWidthInteger>(_ value: I) {
        for shift in stride(from: 0, to: I.bitWidth, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    @inline(__always)
    func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    @inline(__always)
    func writeScalar<S: FloorScalar>(_ value: S) { try! value.floorEncode(to: self) }

    @inline(__always)
    func writeOptionalScalar<S: FloorScalar>(_ value: S?) {
        if let value {
            bytes.append(1)
            try! value.floorEncode(to: self)
        } else {
            bytes.append(0)
        }
    }
}

struct FloorKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FloorEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { encoder.bytes.append(0) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.writeScalar(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder.encodeValue(value) }

    // The defaults skip nil fields; the floor writes a presence byte instead.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { encoder.writeOptionalScalar(value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encoder.encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { encoder.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
}

struct FloorUnkeyedEncoding: UnkeyedEncodingContainer {
    let encoder: FloorEncoder
    let slot: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int { Int(encoder.openCounts[slot].count) }

    mutating func encodeNil() throws { throw FloorError("encodeNil() in an unkeyed container") }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.openCounts[slot].count += 1
        try encoder.encodeValue(value)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        encoder.openCounts[slot].count += 1
        return encoder.container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        encoder.openCounts[slot].count += 1
        return encoder.unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { encoder }
}

struct FloorSingleEncoding: SingleValueEncodingContainer {
    let encoder: FloorEncoder
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { throw FloorError("encodeNil() in a single-value container") }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

// MARK: - Decoder

final class FloorDecoder: Decoder {
    let base: UnsafePointer<UInt8>
    let end: Int
    @exclusivity(unchecked) var position = 0

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ raw: UnsafeRawBufferPointer) {
        // An empty buffer may have no address; any valid pointer does, nothing is read from it.
        base = raw.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? UnsafePointer(bitPattern: 1)!
        end = raw.count
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FloorKeyedDecoding<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let count = Int(try readFixed() as UInt32)
        guard count <= end - position else { throw FloorError("count \(count) exceeds the input") }
        return FloorUnkeyedDecoding(decoder: self, count: count)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer { FloorSingleDecoding(decoder: self) }

    /// Reads a `T`: directly when its type allows, else through `init(from:)`.
    @inline(__always)
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let direct = T.self as? any FloorDecodableDirect.Type {
            return try decodeDirect(direct, T.self)
        }
        return try T(from: self)
    }

    private func decodeDirect<D: FloorDecodableDirect, T>(_ direct: D.Type, _ type: T.Type) throws -> T {
        precondition(T.self == D.self)
        return unsafeBitCast(try D.floorDecode(from: self), to: T.self)
    }

    @inline(__always)
    func readByte() throws -> UInt8 {
        guard position < end else { throw FloorError("unexpected end") }
        defer { position += 1 }
        return base[position]
    }

    @inline(__always)
    func readPresence() throws -> Bool {
        switch try readByte() {
        case 0: return false
        case 1: return true
        default: throw FloorError("invalid presence byte")
        }
    }

    @inline(__always)
    func readVarint() throws -> UInt64 {
        let first = try readByte()
        if first < 0x80 { return UInt64(first) }
        var value = UInt64(first & 0x7F)
        var shift: UInt64 = 7
        while true {
            let byte = try readByte()
            guard shift < 64 else { throw FloorError("varint too long") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    @inline(__always)
    func readSigned() throws -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// An element or byte count, checked against what remains (each element takes a byte at least).
    @inline(__always)
    func readCount() throws -> Int {
        let count = try readVarint()
        guard count <= UInt64(end - position) else { throw FloorError("count \(count) exceeds the input") }
        return Int(count)
    }

    @inline(__always)
    func readFixed<I: FixedWidthInteger>() throws -> I {
        let size = MemoryLayout<I>.size
        guard size <= end - position else { throw FloorError("unexpected end") }
        defer { position += size }
        return I(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: I.self))
    }

    /// The next `count` bytes (checked by the caller).
    @inline(__always)
    func bytes(_ count: Int) -> UnsafeBufferPointer<UInt8> {
        defer { position += count }
        return UnsafeBufferPointer(start: base + position, count: count)
    }

    @inline(__always)
    func readString() throws -> String {
        let count = try readCount()
        return String(decoding: bytes(count), as: UTF8.self)
    }

    @inline(__always)
    func readScalar<S: FloorScalar>(_ type: S.Type) throws -> S { try S.floorDecode(from: self) }
}

struct FloorKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FloorDecoder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    /// The presence byte of an `encodeIfPresent` field; the default `decodeIfPresent` calls this
    /// first, then `decode` when it returns false.
    func decodeNil(forKey key: Key) throws -> Bool { !(try decoder.readPresence()) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.readScalar(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.readScalar(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.readScalar(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.readScalar(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.readScalar(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.readScalar(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.readScalar(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.readScalar(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.readScalar(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.readScalar(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.readScalar(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.readScalar(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.readScalar(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.readScalar(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) -> KeyedDecodingContainer<NestedKey> {
        decoder.container(keyedBy: NestedKey.self)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try decoder.unkeyedContainer() }
    func superDecoder() -> any Decoder { decoder }
    func superDecoder(forKey key: Key) -> any Decoder { decoder }
}

struct FloorUnkeyedDecoding: UnkeyedDecodingContainer {
    let decoder: FloorDecoder
    let storedCount: Int
    var currentIndex = 0

    init(decoder: FloorDecoder, count: Int) {
        self.decoder = decoder
        self.storedCount = count
    }

    var codingPath: [any CodingKey] { [] }
    var count: Int? { storedCount }
    var isAtEnd: Bool { currentIndex >= storedCount }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw FloorError("past the end of an unkeyed container") }
        currentIndex += 1
        return try decoder.decodeValue(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        return decoder.container(keyedBy: NestedKey.self)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try decoder.unkeyedContainer()
    }
    mutating func superDecoder() -> any Decoder { decoder }
}

struct FloorSingleDecoding: SingleValueDecodingContainer {
    let decoder: FloorDecoder
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
