import Foundation
import TreeCoding

/// A message's fields by coding key: an absent field reads as its default.
struct ProtobufKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: ProtobufDecodingContext
    let message: ProtobufMessage
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }

    var allKeys: [Key] { message.numbers.compactMap { Key(intValue: $0) } }

    func contains(_ key: Key) -> Bool { key.intValue.map(message.contains) ?? false }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if T.self is any ProtobufOneOf.Type {
            return try T(from: oneOfDecoder(key))
        }
        let number = try location.fieldNumber(key)
        return try context.decode(T.self, message.occurrences(number), at: location.field(key, number: number))
    }

    /// A field with presence: `nil` when absent; a oneof is `nil` when none of its members is set.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self is any ProtobufOneOf.Type {
            let decoder = oneOfDecoder(key)
            do {
                return try T(from: decoder)
            } catch {
                if decoder.foundNoMember { return nil }
                throw error
            }
        }
        let number = try location.fieldNumber(key)
        guard message.contains(number) else { return nil }
        return try context.decode(T.self, message.occurrences(number), at: location.field(key, number: number))
    }

    /// The members of a oneof are fields of this message; the oneof's own key is not stored.
    private func oneOfDecoder(_ key: Key) -> ProtobufOneOfDecoder {
        var oneOfLocation = location
        oneOfLocation.codingPath.append(key)
        return ProtobufOneOfDecoder(context: context, message: message, location: oneOfLocation)
    }

    private func field<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        let number = try location.fieldNumber(key)
        return try context.decode(T.self, message.occurrences(number), at: location.field(key, number: number))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let number = try location.fieldNumber(key)
        let decoder = ProtobufValueDecoder(
            context: context, source: .field(message.occurrences(number)),
            location: try location.field(key, number: number).deeper(context.maximumDepth))
        return try decoder.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let number = try location.fieldNumber(key)
        return ProtobufUnkeyedDecoder(
            context: context, occurrences: message.occurrences(number),
            location: try location.field(key, number: number).deeper(context.maximumDepth))
    }

    func superDecoder() throws -> any Decoder { throw location.superError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw location.superError() }
}

/// The elements of a repeated field, read in order: a numeric element from a packed run or an
/// occurrence of its own, anything else one occurrence each.
struct ProtobufUnkeyedDecoder: UnkeyedDecodingContainer {
    let context: ProtobufDecodingContext
    let occurrences: [ProtobufFieldEntry]
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }
    private(set) var currentIndex = 0
    /// The next occurrence not yet read.
    private var position = 0
    /// The packed run being read, and the rest of its bytes.
    private var run: (occurrence: ProtobufFieldEntry, reader: ByteReader)?

    init(context: ProtobufDecodingContext, occurrences: [ProtobufFieldEntry], location: ProtobufLocation) {
        self.context = context
        self.occurrences = occurrences
        self.location = location
    }

    /// Known when no occurrence is length-delimited (a packed run holds an unknown number).
    var count: Int? {
        occurrences.contains { $0.wireType == .lengthDelimited } ? nil : occurrences.count
    }

    var isAtEnd: Bool { (run?.reader.isAtEnd ?? true) && position >= occurrences.count }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw atEnd(Any.self) }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let elementLocation = location.element(currentIndex)
        if let scalar = ProtobufDecodingContext.packedScalarType(of: T.self) {
            while run?.reader.isAtEnd ?? true {
                guard position < occurrences.count else { throw atEnd(T.self) }
                let occurrence = occurrences[position]
                guard occurrence.wireType == .lengthDelimited else { break }
                run = (occurrence, context.input.reader(occurrence.value))
                position += 1
            }
            if var packed = run, !packed.reader.isAtEnd {
                let element = try context.packedElement(scalar, packed.occurrence, &packed.reader, at: elementLocation)
                run = packed
                currentIndex += 1
                return try context.decode(T.self, [element], at: elementLocation)
            }
        }
        guard position < occurrences.count else { throw atEnd(T.self) }
        let occurrence = occurrences[position]
        position += 1
        currentIndex += 1
        return try context.decode(T.self, [occurrence], at: elementLocation)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard position < occurrences.count else { throw atEnd(type) }
        let occurrence = occurrences[position]
        let decoder = ProtobufValueDecoder(
            context: context, source: .field([occurrence]),
            location: try location.element(currentIndex).deeper(context.maximumDepth))
        position += 1
        currentIndex += 1
        return try decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw location.element(currentIndex).invalidAccess(
            [Any].self, .invalidAccess("an array in an array"), "a repeated field cannot hold arrays")
    }

    mutating func superDecoder() throws -> any Decoder { throw location.superError() }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(
            type,
            .init(
                codingPath: location.element(currentIndex).codingPath,
                debugDescription: "Protobuf: the repeated field has no more elements"))
    }
}

/// The value of a field through a single-value container (an enum's raw value, a wrapper...).
struct ProtobufSingleValueDecoder: SingleValueDecodingContainer {
    let context: ProtobufDecodingContext
    let occurrences: [ProtobufFieldEntry]
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }

    func decodeNil() -> Bool { occurrences.isEmpty }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try context.decode(T.self, occurrences, at: location)
    }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        try context.decode(T.self, occurrences, at: location)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
}

/// The decoder of a ``ProtobufOneOf`` enum: its keyed container holds the one member that is
/// set (the last on the wire, as protobuf specifies), under the case's key.
final class ProtobufOneOfDecoder: Decoder {
    let context: ProtobufDecodingContext
    let message: ProtobufMessage
    let location: ProtobufLocation
    /// The keyed container found no member set: an optional oneof is then `nil`.
    private(set) var foundNoMember = false
    var codingPath: [any CodingKey] { location.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    init(context: ProtobufDecodingContext, message: ProtobufMessage, location: ProtobufLocation) {
        self.context = context
        self.message = message
        self.location = location
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let member = message.entries.last { Key(intValue: $0.number) != nil }?.number
        if member == nil { foundNoMember = true }
        // Setting another member clears the oneof: the member's occurrences before the last
        // other member's are not part of its value (a message member is not merged with them).
        let cleared = message.entries.lastIndex { $0.number != member && Key(intValue: $0.number) != nil }
        let since = cleared.map { message.entries[$0].end } ?? 0
        // Every member on the wire is a field of the type, read or replaced: none is unknown
        // (`decodeTree` would keep a replaced member beside the one that replaced it).
        for entry in message.entries where Key(intValue: entry.number) != nil { message.markRead(entry.number) }
        return KeyedDecodingContainer(
            ProtobufOneOfKeyedDecoder<Key>(
                context: context, message: message, member: member, since: since, location: location))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw location.invalidAccess(
            [Any].self, .invalidAccess("a oneof read as an unkeyed container"), "a oneof is read as a keyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw location.invalidAccess(
            Any.self, .invalidAccess("a oneof read as a single value"), "a oneof is read as a keyed container")
    }
}

/// The cases of a oneof: the member that is set, keyed by its field number.
struct ProtobufOneOfKeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: ProtobufDecodingContext
    let message: ProtobufMessage
    let member: Int?
    /// Where the member's occurrences that count start (after the last other member's).
    let since: Int
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }

    var allKeys: [Key] { member.flatMap { Key(intValue: $0) }.map { [$0] } ?? [] }

    func contains(_ key: Key) -> Bool { member != nil && key.intValue == member }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    /// The occurrences of the member under `key`.
    private func occurrences(_ key: Key) throws -> (Int, [ProtobufFieldEntry]) {
        guard let number = key.intValue, number == member else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "Protobuf: the oneof member \(key) is not set"))
        }
        return (number, message.occurrences(number).filter { $0.tagStart >= since })
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (number, occurrences) = try occurrences(key)
        return try context.decode(T.self, occurrences, at: location.field(key, number: number))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (number, occurrences) = try occurrences(key)
        let valueLocation = location.field(key, number: number)
        return KeyedDecodingContainer(
            ProtobufOneOfValueDecoder<NestedKey>(context: context, occurrences: occurrences, location: valueLocation))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let (number, occurrences) = try occurrences(key)
        return ProtobufUnkeyedDecoder(
            context: context, occurrences: occurrences, location: location.field(key, number: number))
    }

    func superDecoder() throws -> any Decoder { throw location.superError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw location.superError() }
}

/// A oneof case's associated value, under whatever key the enum's `Codable` uses (`_0`, a label).
struct ProtobufOneOfValueDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: ProtobufDecodingContext
    let occurrences: [ProtobufFieldEntry]
    let location: ProtobufLocation
    var codingPath: [any CodingKey] { location.codingPath }

    var allKeys: [Key] { Key(stringValue: "_0").map { [$0] } ?? [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        var valueLocation = location
        valueLocation.codingPath.append(key)
        return try context.decode(T.self, occurrences, at: valueLocation)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let decoder = ProtobufValueDecoder(
            context: context, source: .field(occurrences), location: try location.deeper(context.maximumDepth))
        return try decoder.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ProtobufUnkeyedDecoder(context: context, occurrences: occurrences, location: location)
    }

    func superDecoder() throws -> any Decoder { throw location.superError() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw location.superError() }
}
