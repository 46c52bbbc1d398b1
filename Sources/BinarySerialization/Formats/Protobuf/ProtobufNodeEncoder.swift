import Foundation
import TreeCoding

/// The `Encoder` handed to `encode(to:)` by ``ProtobufTreeBuilder``: one per value that is not a
/// scalar, array, set, dictionary or optional (those the builder makes without it).
///
/// Keys are kept as written; the writer checks that every field number is an integer in range, so
/// that a tree made by hand is held to the same rules.
final class ProtobufNodeEncoder: Encoder {
    let builder: ProtobufTreeBuilder
    let codingPath: [any CodingKey]
    /// The nesting depth of the containers this encoder makes.
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { builder.userInfo }

    private enum Storage {
        case none
        case keyed(ProtobufKeyedStorage)
        case unkeyed(ProtobufUnkeyedStorage)
        case single(ProtobufSingleStorage)
    }
    private var storage = Storage.none
    /// A second kind of container was asked for: reported by ``finish(_:)``.
    private var misuse = false

    init(builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) {
        self.builder = builder
        self.codingPath = path
        self.depth = depth
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyed: ProtobufKeyedStorage
        switch storage {
        case .keyed(let existing): keyed = existing
        case .none:
            keyed = ProtobufKeyedStorage(path: codingPath)
            storage = .keyed(keyed)
        default:
            misuse = true
            keyed = ProtobufKeyedStorage(path: codingPath)
        }
        return KeyedEncodingContainer(ProtobufKeyedEncoder<Key>(storage: keyed, encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let unkeyed: ProtobufUnkeyedStorage
        switch storage {
        case .unkeyed(let existing): unkeyed = existing
        case .none:
            unkeyed = ProtobufUnkeyedStorage(path: codingPath)
            storage = .unkeyed(unkeyed)
        default:
            misuse = true
            unkeyed = ProtobufUnkeyedStorage(path: codingPath)
        }
        return ProtobufUnkeyedEncoder(storage: unkeyed, encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        let single: ProtobufSingleStorage
        switch storage {
        case .single(let existing): single = existing
        case .none:
            single = ProtobufSingleStorage()
            storage = .single(single)
        default:
            misuse = true
            single = ProtobufSingleStorage()
        }
        return ProtobufSingleValueEncoder(storage: single, encoder: self)
    }

    /// The node the value's `encode(to:)` made.
    func finish(_ value: Any) throws -> BinaryValue {
        if misuse {
            throw ProtobufTreeBuilder.error(
                value, codingPath, .multipleContainersAccessed, "a value asked for two kinds of container")
        }
        switch storage {
        case .none:
            throw ProtobufTreeBuilder.error(value, codingPath, .noContainersAccessed, "a value encoded nothing")
        case .keyed(let keyed): return try keyed.resolve()
        case .unkeyed(let unkeyed): return try unkeyed.resolve()
        case .single(let single):
            if let error = single.error { throw error }
            guard let node = single.node else {
                throw ProtobufTreeBuilder.error(
                    value, codingPath, .noValueInSingleValueContainer, "a single-value container was left empty")
            }
            return node
        }
    }

    static func superError(_ path: [any CodingKey]) -> EncodingError {
        ProtobufTreeBuilder.error(
            "super", path, .superNotSupported, "protocol buffers have no inheritance: superEncoder() is unsupported")
    }
}

/// A value of a container, finished when the container's encoder finishes.
private enum Pending {
    case node(BinaryValue)
    case keyed(ProtobufKeyedStorage)
    case unkeyed(ProtobufUnkeyedStorage)

    func resolve() throws -> BinaryValue {
        switch self {
        case .node(let node): return node
        case .keyed(let keyed): return try keyed.resolve()
        case .unkeyed(let unkeyed): return try unkeyed.resolve()
        }
    }
}

/// The fields of a keyed container under construction: last write wins, in first-write order.
final class ProtobufKeyedStorage {
    let path: [any CodingKey]
    private var keys: [BinaryKey] = []
    private var values: [BinaryKey: Pending] = [:]
    /// The first error of a call that cannot throw (`superEncoder`), thrown when resolved.
    var error: EncodingError?

    init(path: [any CodingKey]) { self.path = path }

    /// The field numbers of oneof members set here: no other field may take one, before or after.
    private var oneOfMembers: Set<Int> = []

    fileprivate func set(_ key: BinaryKey, _ value: Pending) {
        if let number = key.intValue, oneOfMembers.contains(number) {
            noteClash(number)
            return
        }
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    /// Sets a oneof member; an error (when resolved) if another field has its number.
    fileprivate func setOneOfMember(_ key: BinaryKey, _ value: Pending) {
        if let number = key.intValue {
            if oneOfMembers.contains(number) || keys.contains(where: { $0.intValue == number }) {
                noteClash(number)
                return
            }
            oneOfMembers.insert(number)
        }
        if values.updateValue(value, forKey: key) == nil { keys.append(key) }
    }

    private func noteClash(_ number: Int) {
        guard error == nil else { return }
        error = ProtobufTreeBuilder.error(
            number, path + [BinaryKey(intValue: number)], .unsupportedType("oneof"),
            "field number \(number) is both a oneof member and another field of the message")
    }

    func resolve() throws -> BinaryValue {
        if let error { throw error }
        var fields = KeyedFields()
        fields.reserveCapacity(keys.count)
        for key in keys {
            guard let value = values[key] else { continue }
            _ = fields.set(try value.resolve(), for: key)
        }
        return .keyed(fields)
    }
}

/// The elements of an unkeyed container under construction.
final class ProtobufUnkeyedStorage {
    let path: [any CodingKey]
    fileprivate var elements: [Pending] = []
    var error: EncodingError?

    init(path: [any CodingKey]) { self.path = path }

    var count: Int { elements.count }

    func resolve() throws -> BinaryValue {
        if let error { throw error }
        return .unkeyed(try elements.map { try $0.resolve() })
    }
}

/// The value of a single-value container.
final class ProtobufSingleStorage {
    var node: BinaryValue?
    var error: EncodingError?
}

struct ProtobufKeyedEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let storage: ProtobufKeyedStorage
    let encoder: ProtobufNodeEncoder
    var codingPath: [any CodingKey] { storage.path }

    init(storage: ProtobufKeyedStorage, encoder: ProtobufNodeEncoder) {
        self.storage = storage
        self.encoder = encoder
    }

    mutating func encodeNil(forKey key: Key) throws {
        storage.set(BinaryKey(key), .node(.optional(nil)))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if value is any ProtobufOneOf { return try encodeOneOf(value, forKey: key) }
        let node = try encoder.builder.node(of: value, path: codingPath + [key], depth: encoder.depth)
        storage.set(BinaryKey(key), .node(node))
    }

    /// A field with presence: set (even to the default value) or absent.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return }
        if value is any ProtobufOneOf { return try encodeOneOf(value, forKey: key) }
        storage.set(
            BinaryKey(key),
            .node(try encoder.builder.node(of: Optional(value), path: codingPath + [key], depth: encoder.depth)))
    }

    /// The member of a oneof: a field of this message, under the case's key; the enum's own key is
    /// not written.
    private mutating func encodeOneOf<T: Encodable>(_ value: T, forKey key: Key) throws {
        let path = codingPath + [key]
        let node = try encoder.builder.node(of: value, path: path, depth: encoder.depth)
        guard case .keyed(let cases) = node, cases.count == 1 else {
            throw ProtobufTreeBuilder.error(
                value, path, .unsupportedType("\(T.self)"), "a oneof value must encode exactly one case")
        }
        let caseKey = cases.fields[0].key
        let caseNode = cases.fields[0].value
        var member = caseNode
        // Synthesized `Codable` puts the associated value in a keyed container of its own
        // (key `_0`, or the value's label): the member is that value.
        if case .keyed(let inner) = caseNode, inner.count == 1, inner.fields[0].key.intValue == nil {
            member = inner.fields[0].value
        }
        guard ProtobufTreeBuilder.isElement(member) else {
            throw ProtobufTreeBuilder.notAnElement(value, member, path + [caseKey], in: "a oneof member")
        }
        storage.setOneOfMember(caseKey, .node(.optional(member)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = ProtobufKeyedStorage(path: codingPath + [key])
        storage.set(BinaryKey(key), .keyed(nested))
        let child = ProtobufNodeEncoder(builder: encoder.builder, path: codingPath + [key], depth: encoder.depth + 1)
        return KeyedEncodingContainer(ProtobufKeyedEncoder<NestedKey>(storage: nested, encoder: child))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ProtobufUnkeyedStorage(path: codingPath + [key])
        storage.set(BinaryKey(key), .unkeyed(nested))
        let child = ProtobufNodeEncoder(builder: encoder.builder, path: codingPath + [key], depth: encoder.depth + 1)
        return ProtobufUnkeyedEncoder(storage: nested, encoder: child)
    }

    mutating func superEncoder() -> any Encoder {
        if storage.error == nil { storage.error = ProtobufNodeEncoder.superError(codingPath) }
        return ProtobufNodeEncoder(builder: encoder.builder, path: codingPath, depth: encoder.depth + 1)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        if storage.error == nil { storage.error = ProtobufNodeEncoder.superError(codingPath + [key]) }
        return ProtobufNodeEncoder(builder: encoder.builder, path: codingPath + [key], depth: encoder.depth + 1)
    }

    // The primitives go through the generic path, which knows their protobuf type.
    mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(Box(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(Box(value), forKey: key) }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    private mutating func present<T: Encodable & ProtobufEncodingHook>(_ value: T?, _ key: Key) throws {
        guard let value else { return }
        try encodeIfPresent(Box(value), forKey: key)
    }
}

/// A primitive passed through the generic path: transparent, its node is the primitive's.
private struct Box<Value: Encodable & ProtobufEncodingHook>: Encodable, ProtobufEncodingHook {
    let value: Value
    init(_ value: Value) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        try value.protobufNode(builder, path: path, depth: depth)
    }
}

struct ProtobufUnkeyedEncoder: UnkeyedEncodingContainer {
    let storage: ProtobufUnkeyedStorage
    let encoder: ProtobufNodeEncoder
    var codingPath: [any CodingKey] { storage.path }
    var count: Int { storage.count }

    private var nextKey: BinaryKey { BinaryKey.index(count) }

    mutating func encodeNil() throws {
        throw ProtobufTreeBuilder.error(
            "nil", codingPath + [nextKey], .nilValuesNotSupported, "a repeated field cannot hold nil")
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [nextKey]
        let node = try encoder.builder.node(of: value, path: path, depth: encoder.depth)
        guard ProtobufTreeBuilder.isElement(node) else {
            throw ProtobufTreeBuilder.notAnElement(value, node, path, in: "a repeated field")
        }
        if let first = storage.elements.first, case .node(let firstNode) = first,
            !ProtobufTreeBuilder.sameElementType(firstNode, node)
        {
            throw ProtobufTreeBuilder.error(
                value, path, .multipleTypesInUnkeyedContainer,
                "the elements of a repeated field must have one protobuf type")
        }
        storage.elements.append(.node(node))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let path = codingPath + [nextKey]
        let nested = ProtobufKeyedStorage(path: path)
        storage.elements.append(.keyed(nested))
        let child = ProtobufNodeEncoder(builder: encoder.builder, path: path, depth: encoder.depth + 1)
        return KeyedEncodingContainer(ProtobufKeyedEncoder<NestedKey>(storage: nested, encoder: child))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [nextKey]
        if storage.error == nil {
            storage.error = ProtobufTreeBuilder.error(
                "unkeyed", path, .unsupportedType("unkeyed"), "a repeated field cannot hold arrays")
        }
        let nested = ProtobufUnkeyedStorage(path: path)
        let child = ProtobufNodeEncoder(builder: encoder.builder, path: path, depth: encoder.depth + 1)
        return ProtobufUnkeyedEncoder(storage: nested, encoder: child)
    }

    mutating func superEncoder() -> any Encoder {
        if storage.error == nil { storage.error = ProtobufNodeEncoder.superError(codingPath) }
        return ProtobufNodeEncoder(builder: encoder.builder, path: codingPath, depth: encoder.depth + 1)
    }
}

struct ProtobufSingleValueEncoder: SingleValueEncodingContainer {
    let storage: ProtobufSingleStorage
    let encoder: ProtobufNodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { try set(.nil, "nil") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try set(try encoder.builder.node(of: value, path: codingPath, depth: encoder.depth), value)
    }

    private func set(_ node: BinaryValue, _ value: Any) throws {
        guard storage.node == nil else {
            throw ProtobufTreeBuilder.error(
                value, codingPath, .multipleContainersAccessed, "a single-value container was written twice")
        }
        storage.node = node
    }
}
