import Foundation
import TreeCoding

/// Builds the protobuf tree of a value: a `Codable` encoder that knows the types, which the
/// format needs (a plain `Int32` is an `int32`, a `Dictionary` is a map, a ``ProtobufOneOf`` enum
/// is fields of its parent) and which `TreeEncoder`'s tree does not keep.
///
/// The tree's shape (what ``ProtobufSink`` writes when it is replayed):
/// - a message is `.keyed`, its keys the field numbers;
/// - a scalar is a leaf (see ``ProtobufScalarType`` for integers);
/// - `.optional(x)` is a field with presence: written when set, even to the default; `nil` omitted;
/// - a repeated field is `.unkeyed` (numeric elements packed when written), or `.packed` for an
///   array of plain numbers (each element the plain proto type of its Swift type);
/// - a map is `.unkeyed` of entry messages `[1: key, 2: value]`, sorted by key, both fields present;
/// - a oneof member is an `.optional` field of the enclosing message;
/// - `.unknown(bytes)` is a whole field (tag and value) that the decoding type did not know.
final class ProtobufTreeBuilder {
    let userInfo: [CodingUserInfoKey: Any]
    let maximumDepth: Int

    init(userInfo: [CodingUserInfoKey: Any], maximumDepth: Int) {
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
    }

    /// The tree of a top-level value, which must be a message.
    func root<T: Encodable>(_ value: T) throws -> BinaryValue {
        let node = try node(of: value, path: [], depth: 0)
        guard case .keyed = node else {
            throw Self.error(
                value, [], .rootIsNotKeyedContainer,
                "the top-level value must be a message (a keyed container), found \(node.kindName)")
        }
        return node
    }

    /// The node of a field value or element at `path`.
    func node<T: Encodable>(of value: T, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        if let hook = value as? any ProtobufEncodingHook {
            return try hook.protobufNode(self, path: path, depth: depth)
        }
        // A bound on the recursion only: a message level is up to three here (a oneof's enum and
        // its case are levels of their own). The rule, `maximumDepth` messages as the decoder
        // counts them, is the writer's (`ProtobufSink`), which every tree goes through.
        guard depth < maximumDepth &* 3 &+ 3 else {
            throw Self.error(
                value, path, .unsupportedType("nesting"), "nesting deeper than the limit of \(maximumDepth)")
        }
        let encoder = ProtobufNodeEncoder(builder: self, path: path, depth: depth + 1)
        try value.encode(to: encoder)
        return try encoder.finish(value)
    }

    static func error(
        _ value: Any, _ path: [any CodingKey], _ code: ProtobufEncodingError, _ rule: String
    ) -> EncodingError {
        .invalidValue(
            value, .init(codingPath: path, debugDescription: "Protobuf: \(rule)", underlyingError: code))
    }

    /// The field number of `key`, which must be an integer in 1...2^29 − 1.
    static func fieldNumber(_ key: some CodingKey, path: [any CodingKey]) throws -> Int {
        guard let number = key.intValue else {
            throw error(
                key.stringValue, path + [key], .missingIntegerKey(key.stringValue),
                "the key \"\(key.stringValue)\" has no integer value: fields need Int coding keys")
        }
        guard ProtobufWire.fieldNumbers.contains(number) else {
            throw error(
                number, path + [key], .integerKeyOutOfRange(number),
                "field number \(number) is outside 1...536870911")
        }
        return number
    }
}

/// Values whose node the builder makes without calling `encode(to:)`.
protocol ProtobufEncodingHook {
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue
}

extension ProtobufLeaf {
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        guard let leaf = protobufLeaf else {
            throw ProtobufTreeBuilder.error(
                self, path, .unsupportedType("\(Self.self)"),
                "proto3 has no scalar type for \(Self.self) (use Int32, UInt32, Int64 or UInt64)")
        }
        return leaf
    }
}

extension Bool: ProtobufEncodingHook {}
extension Float: ProtobufEncodingHook {}
extension Double: ProtobufEncodingHook {}
extension String: ProtobufEncodingHook {}
extension Data: ProtobufEncodingHook {}
extension Int32: ProtobufEncodingHook {}
extension Int64: ProtobufEncodingHook {}
extension Int: ProtobufEncodingHook {}
extension UInt32: ProtobufEncodingHook {}
extension UInt64: ProtobufEncodingHook {}
extension UInt: ProtobufEncodingHook {}
extension Int8: ProtobufEncodingHook {}
extension Int16: ProtobufEncodingHook {}
extension UInt8: ProtobufEncodingHook {}
extension UInt16: ProtobufEncodingHook {}
extension FixedSizeEncoded: ProtobufEncodingHook {}
extension VariableLengthEncoded: ProtobufEncodingHook {}
extension ZigZagEncoded: ProtobufEncodingHook {}
extension SignedValue: ProtobufEncodingHook {}

extension Optional: ProtobufEncodingHook where Wrapped: Encodable {
    /// A field with presence: `.optional(nil)` or `.optional(node)`, the node a scalar or message.
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        guard let wrapped = self else { return .optional(nil) }
        let node = try builder.node(of: wrapped, path: path, depth: depth)
        switch node {
        case .optional:
            throw ProtobufTreeBuilder.error(
                self as Any, path, .nilValuesNotSupported, "an optional of an optional has no proto3 form")
        case .unkeyed, .packed:
            throw ProtobufTreeBuilder.error(
                self as Any, path, .unsupportedType("\(Self.self)"),
                "a repeated field or map has no presence in proto3: it cannot be optional")
        default:
            return .optional(node)
        }
    }
}

/// A repeated field: elements are scalars or messages, never nil, arrays or maps.
private func repeatedNode<S: Sequence>(
    _ elements: S, _ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int
) throws -> BinaryValue where S.Element: Encodable {
    var nodes: [BinaryValue] = []
    nodes.reserveCapacity(elements.underestimatedCount)
    for (i, element) in elements.enumerated() {
        let elementPath = path + [BinaryKey.index(i)]
        let node = try builder.node(of: element, path: elementPath, depth: depth)
        guard ProtobufTreeBuilder.isElement(node) else {
            throw ProtobufTreeBuilder.notAnElement(element, node, elementPath, in: "a repeated field")
        }
        if let first = nodes.first, !ProtobufTreeBuilder.sameElementType(first, node) {
            throw ProtobufTreeBuilder.error(
                element, elementPath, .multipleTypesInUnkeyedContainer,
                "the elements of a repeated field must have one protobuf type")
        }
        nodes.append(node)
    }
    return .unkeyed(nodes)
}

extension ProtobufTreeBuilder {
    /// Whether a node can be an element of a repeated field or a map value: a scalar or a message.
    static func isElement(_ node: BinaryValue) -> Bool {
        if case .keyed = node { return true }
        return ProtobufLeafWire(node) != nil
    }

    /// The error of a node that cannot be an element of a repeated field or a map value.
    static func notAnElement(_ value: Any, _ node: BinaryValue, _ path: [any CodingKey], in place: String)
        -> EncodingError
    {
        switch node {
        case .nil, .optional:
            return error(value, path, .nilValuesNotSupported, "\(place) cannot be nil or optional")
        default:
            return error(
                value, path, .unsupportedType(node.kindName),
                "\(place) must be a scalar or a message, not \(node.kindName) (no arrays of arrays)")
        }
    }

    /// Whether two element nodes have the same protobuf type (both messages, or the same scalar).
    static func sameElementType(_ a: BinaryValue, _ b: BinaryValue) -> Bool {
        switch (a, b) {
        case (.keyed, .keyed): return true
        case (.keyed, _), (_, .keyed): return false
        default: return protobufType(of: a) == protobufType(of: b)
        }
    }

    /// The proto scalar type of a leaf, `nil` for anything else.
    static func protobufType(of leaf: BinaryValue) -> ProtobufScalarType? {
        ProtobufScalarType(leaf: leaf)
    }
}

extension Array: ProtobufEncodingHook where Element: Encodable {
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        if let packed = Self.packed(self) { return .packed(packed) }
        if let leaf = Element.self as? any ProtobufLeaf.Type, let leaves = Self.leaves(self, leaf) {
            return .unkeyed(leaves)
        }
        return try repeatedNode(self, builder, path: path, depth: depth)
    }

    /// An array of plain numbers as one unboxed node (the plain proto type of its element: `int32`,
    /// `int64` for `Int`, `uint64` for `UInt`...); `nil` for other elements.
    private static func packed(_ elements: Self) -> PackedArray? {
        switch elements {
        case let a as [Bool]: return .bool(a)
        case let a as [Int32]: return .int32(a)
        case let a as [Int64]: return .int64(a)
        case let a as [Int]: return .int(a)
        case let a as [UInt32]: return .uint32(a)
        case let a as [UInt64]: return .uint64(a)
        case let a as [UInt]: return .uint(a)
        case let a as [Float]: return .float(a)
        case let a as [Double]: return .double(a)
        default: return nil
        }
    }

    /// The leaves of an array of scalars, made in one loop for the element type; `nil` when an
    /// element has no proto type (the element-by-element path reports it).
    private static func leaves<L: ProtobufLeaf>(_ elements: Self, _ type: L.Type) -> [BinaryValue]? {
        guard L.protobufType != nil, let typed = elements as? [L] else { return nil }
        var out: [BinaryValue] = []
        out.reserveCapacity(typed.count)
        for element in typed {
            guard let leaf = element.protobufLeaf else { return nil }
            out.append(leaf)
        }
        return out
    }
}

extension Set: ProtobufEncodingHook where Element: Encodable {
    /// Elements in a fixed order (scalars sorted), so that equal sets give equal bytes.
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        guard case .unkeyed(let nodes) = try repeatedNode(self, builder, path: path, depth: depth) else {
            return .unkeyed([])
        }
        return .unkeyed(ProtobufTreeBuilder.sortedScalars(nodes))
    }
}

extension Dictionary: ProtobufEncodingHook where Key: Encodable, Value: Encodable {
    /// A map: entry messages with the key as field 1 and the value as field 2, sorted by key.
    func protobufNode(_ builder: ProtobufTreeBuilder, path: [any CodingKey], depth: Int) throws -> BinaryValue {
        var entries: [(key: BinaryValue, value: BinaryValue)] = []
        entries.reserveCapacity(count)
        for (key, value) in self {
            let keyPath = path + [BinaryKey(stringValue: "\(key)")]
            let keyNode = try builder.node(of: key, path: keyPath, depth: depth + 1)
            switch ProtobufTreeBuilder.protobufType(of: keyNode) {
            case .float?, .double?, .bytes?, nil:
                throw ProtobufTreeBuilder.error(
                    key, keyPath, .unsupportedType("\(Key.self)"),
                    "a map key must be an integer, Bool or String, not \(Key.self)")
            default: break
            }
            let valueNode = try builder.node(of: value, path: keyPath, depth: depth + 1)
            guard ProtobufTreeBuilder.isElement(valueNode) else {
                throw ProtobufTreeBuilder.notAnElement(value, valueNode, keyPath, in: "a map value")
            }
            entries.append((keyNode, valueNode))
        }
        entries.sort { ProtobufTreeBuilder.scalarLess($0.key, $1.key) }
        return .unkeyed(
            entries.map { entry in
                // Both fields are written whatever their value, as protobuf's own writers do.
                .keyed(
                    KeyedFields([
                        (BinaryKey(intValue: 1), .optional(entry.key)),
                        (BinaryKey(intValue: 2), .optional(entry.value)),
                    ]))
            })
    }
}

extension ProtobufTreeBuilder {
    /// Scalars sorted by `scalarLess`; a list holding messages keeps its order.
    static func sortedScalars(_ nodes: [BinaryValue]) -> [BinaryValue] {
        guard nodes.allSatisfy({ protobufType(of: $0) != nil }) else { return nodes }
        return nodes.sorted(by: scalarLess)
    }

    /// A total order of scalar leaves of one type: numbers by value, strings and data by their
    /// bytes, `false` before `true`. (Leaves of different types: by their wire payload.)
    static func scalarLess(_ a: BinaryValue, _ b: BinaryValue) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.data(let x), .data(let y)): return x.lexicographicallyPrecedes(y)
        case (.float(let x), .float(let y)): return x.bitPattern < y.bitPattern
        case (.double(let x), .double(let y)): return x.bitPattern < y.bitPattern
        default: break
        }
        if let x = signedValue(a), let y = signedValue(b) { return x < y }
        if let x = unsignedValue(a), let y = unsignedValue(b) { return x < y }
        return false
    }

    private static func signedValue(_ v: BinaryValue) -> Int64? {
        switch v {
        case .int32(let x, _): return Int64(x)
        case .int64(let x, _): return x
        case .int(let x, _): return Int64(x)
        default: return nil
        }
    }

    private static func unsignedValue(_ v: BinaryValue) -> UInt64? {
        switch v {
        case .bool(let x): return x ? 1 : 0
        case .uint32(let x, _): return UInt64(x)
        case .uint64(let x, _): return x
        case .uint(let x, _): return UInt64(x)
        default: return nil
        }
    }
}
