import Foundation

/// Values the tree decoder reads from a node itself, without calling `init(from:)`:
/// primitives, `Data`, packed arrays and sets, optionals and the integer wrappers.
protocol DirectTreeDecodable {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self
}

extension ScalarDecodable {
    /// Reads this primitive from `node`.
    @inline(__always)
    static func read(from node: inout DecodingNode, _ format: (any ByteFormat.Type)?) throws -> Self {
        if case .bytes(var b) = node {
            let value = try read(bytes: &b, DecodingNode.requireFormat(format))
            node = .bytes(b)
            return value
        }
        let leaf = try node.decodeScalar(scalarKind, format)
        return try value(of: leaf)
    }

    /// Reads this primitive from a byte node through its leaf (the types without a path of
    /// their own: `Data`).
    @inline(__always)
    static func read(bytes node: inout ByteNode, _ format: any ByteFormat.Type) throws -> Self {
        let leaf = try format.decodeScalar(&node, scalarKind)
        return try value(of: leaf)
    }

    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        try read(from: &node, impl.format)
    }
}

extension Bool: DirectTreeDecodable {}
extension String: DirectTreeDecodable {}
extension Data: DirectTreeDecodable {}
extension Double: DirectTreeDecodable {}
extension Float: DirectTreeDecodable {}
extension Int8: DirectTreeDecodable {}
extension UInt8: DirectTreeDecodable {}
extension Int16: DirectTreeDecodable {}
extension UInt16: DirectTreeDecodable {}
extension Int32: DirectTreeDecodable {}
extension UInt32: DirectTreeDecodable {}
extension Int64: DirectTreeDecodable {}
extension UInt64: DirectTreeDecodable {}
extension Int: DirectTreeDecodable {}
extension UInt: DirectTreeDecodable {}

extension Array: DirectTreeDecodable where Element: FusedArrayElement {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Element] {
        try Element.decodeArray(from: &node, impl: impl, parent: parent, step: step)
    }
}

extension Set: DirectTreeDecodable where Element: FusedArrayElement {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Set<Element> {
        Set(try Element.decodeArray(from: &node, impl: impl, parent: parent, step: step))
    }
}

extension PackedElement {
    /// Arrays and sets of packable primitives are one packed node.
    static func decodeArray(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Self] {
        let packed = try node.decodePacked(packedKind, impl.format)
        return try elements(of: packed)
    }
}

/// Arrays of strings and data are unkeyed containers, read here in one loop rather than through
/// `Array.init(from:)` asking for each element generically.
protocol UnkeyedLeafElement: FusedArrayElement, ScalarDecodable {}

extension UnkeyedLeafElement {
    static func decodeArray(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Self] {
        try decodeElements(from: &node, impl: impl, parent: parent, step: step)
    }

    /// Element by element through the unkeyed view.
    static func decodeElements(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Self] {
        let format = impl.format
        var view = try node.unkeyedView(format, elementHint: nil, cursors: impl.session.cursors)
        var out: [Self] = []
        if let count = view.count(format) { out.reserveCapacity(count) }
        while !view.isAtEnd(format) {
            let index = view.currentIndex
            do {
                var element = try view.nextElement(format)
                out.append(try read(from: &element, format))
            } catch {
                throw impl.decodingError(error, Self.self, parent.appending(step).path(appending: .index(index)))
            }
        }
        return out
    }
}

extension String: UnkeyedLeafElement {
    /// Bytes take the format's one-loop path, and so does `decodeTree`, which records the
    /// strings as the unkeyed container of string leaves that reading them one by one would
    /// record; trees go element by element.
    static func decodeArray(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [String] {
        switch node {
        case .bytes(var bytes):
            guard let format = impl.format else { break }
            let strings: [String]?
            do { strings = try format.decodeStringArray(&bytes) } catch {
                throw impl.decodingError(error, [String].self, parent.appending(step).path)
            }
            if let strings {
                node = .bytes(bytes)
                return strings
            }
        case .recording(let recorded):
            guard let format = impl.format else { break }
            var bytes = recorded.byteNode
            let strings: [String]?
            do { strings = try format.decodeStringArray(&bytes) } catch {
                throw impl.decodingError(error, [String].self, parent.appending(step).path)
            }
            if let strings {
                node = .recording(recorded.replacingNode(bytes))
                recorded.slot.record(.unkeyed(strings.map { .string($0) }))
                return strings
            }
        case .tree:
            break
        }
        return try decodeElements(from: &node, impl: impl, parent: parent, step: step)
    }
}
extension Data: UnkeyedLeafElement {}

/// `[String: V]` and `[Int: V]` read entry by entry in stored order, rather than through
/// `Dictionary.init(from:)` listing the keys and looking each one up again.
extension Dictionary: DirectTreeDecodable where Key: DictionaryKey, Value: Decodable {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> [Key: Value] {
        if impl.formatNeedsFacts { return try decodeProtobufMap(from: &node, impl: impl, parent: parent, step: step) }
        // A level (DepthGuard), as the encoders count it.
        try impl.checkDepth(parent: parent, step: step, node: node)
        impl.depth += 1
        defer { impl.depth -= 1 }
        let session = impl.session
        let mark = session.keyedStatesInUse
        defer { session.popKeyedStates(to: mark) }
        let view = try node.keyedView(impl.format, storage: session.keyedEntries(impl))
        let path = parent.appending(step)
        let count = view.count
        // Unspecialized, each call on `[Key: Value]` needs its metadata, a runtime look-up of
        // about 340 instructions (callgrind). Asked for here, before the loop (by
        // `reserveCapacity`, a method, where `init(minimumCapacity:)` does not ask), the compiler
        // keeps it for `updateValue` in the loop; asked for first in the loop, it is looked up
        // per entry.
        var out: [Key: Value] = [:]
        out.reserveCapacity(count)
        for position in 0..<count {
            let (key, stored) = view.entry(at: position)
            var entryNode = stored
            guard let k = Key.fromStored(key) else {
                throw DecodingError.notADictionaryKey(Key.self, key, at: path.path(appending: .key(key)))
            }
            let decoded = try impl.decodeValue(Value.self, from: &entryNode, parent: path, step: .key(key))
            // Distinct stored keys can be one Swift key (integer key 3 and string key "3"): which
            // value wins would depend on the stored order, which re-encoding with sorted keys
            // changes. That is a repeated key, like any other.
            if out.updateValue(decoded, forKey: k) != nil {
                throw DecodingError.repeatedDictionaryKey(
                    key, at: path.path(appending: .key(key)),
                    underlyingError: WireFormatError(.duplicateKey, "the key \(key) appears twice"))
            }
        }
        return out
    }
}

/// `Optional`, for generic code that must tell whether a type is one and name its nil.
protocol NilRepresentable {
    /// `Optional<Wrapped>.none`, boxed.
    static var nilValue: Any { get }
}

extension Optional: NilRepresentable {
    static var nilValue: Any { Self.none as Any }
}

extension Optional: DirectTreeDecodable where Wrapped: Decodable {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Wrapped? {
        guard var content = try node.optionalContent(impl.format) else { return nil }
        let value = try impl.decodeValue(Wrapped.self, from: &content, parent: parent, step: step)
        try node.finishContent(content, impl.format)
        return value
    }
}

extension SIMD2: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD3: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD4: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD8: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD16: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD32: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}
extension SIMD64: ElementHinted where Scalar: ScalarDecodable {
    static var elementHint: ScalarKind { Scalar.scalarKind }
}

extension Packed: DirectTreeDecodable where Value: Decodable {
    static func decodeDirect(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        Self(wrappedValue: try impl.decodeValue(Value.self, from: &node, parent: parent, step: step))
    }
}
