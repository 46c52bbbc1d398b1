import Foundation

/// The `Encoder` handed to `encode(to:)`: one instance per encoded non-primitive value.
///
/// Its containers write into a buffer object; `finish()` folds the buffer (and any nested
/// containers that were handed out) into an immutable ``BinaryValue``.
///
/// Mutable state here and in the buffers is `@exclusivity(unchecked)`: each object belongs to
/// one encoding run on one thread, and no method keeps a property accessed while calling out
/// (arguments such as a child's tree are computed before the append begins). The dynamic
/// checks cost about a fifth of the encoding time.
final class TreeEncoderImpl: Encoder {
    let options: EncodingOptions
    let parentPath: CodingPathNode
    let step: PathStep?
    let depth: Int
    @exclusivity(unchecked) var storage: Storage = .empty
    /// The first misuse of the container API; thrown by `finish()`.
    @exclusivity(unchecked) var misuse: String?

    enum Storage {
        case empty
        case value(BinaryValue)
        case keyed(KeyedBuffer)
        case unkeyed(UnkeyedBuffer)
    }

    init(options: EncodingOptions, parentPath: CodingPathNode, step: PathStep?, depth: Int) {
        self.options = options
        self.parentPath = parentPath
        self.step = step
        self.depth = depth
    }

    static func encodeRoot<T: Encodable>(_ value: T, options: EncodingOptions, throughEncodable: Bool) throws -> BinaryValue {
        let root = TreeEncoderImpl(options: options, parentPath: .root, step: nil, depth: 0)
        return throughEncodable ? try root.encodeWithChild(value, step: nil) : try root.encodeValue(value, step: nil)
    }

    /// This encoder's position in the value.
    var pathNode: CodingPathNode {
        parentPath.appending(step)
    }

    var codingPath: [any CodingKey] { pathNode.path }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let buffer: KeyedBuffer
        switch storage {
        case .keyed(let existing):
            buffer = existing
        case .empty:
            buffer = KeyedBuffer(sortKeys: options.sortKeys)
            storage = .keyed(buffer)
        case .value, .unkeyed:
            noteMisuse("a keyed container was requested after another kind of container")
            buffer = KeyedBuffer(sortKeys: options.sortKeys)
            storage = .keyed(buffer)
        }
        return KeyedEncodingContainer(TreeKeyedEncodingContainer<Key>(encoder: self, buffer: buffer, path: nil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let buffer: UnkeyedBuffer
        switch storage {
        case .unkeyed(let existing):
            buffer = existing
        case .empty:
            buffer = UnkeyedBuffer()
            storage = .unkeyed(buffer)
        case .value, .keyed:
            noteMisuse("an unkeyed container was requested after another kind of container")
            buffer = UnkeyedBuffer()
            storage = .unkeyed(buffer)
        }
        return TreeUnkeyedEncodingContainer(encoder: self, buffer: buffer, path: nil)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        switch storage {
        case .keyed, .unkeyed:
            noteMisuse("a single-value container was requested after another kind of container")
        case .empty, .value:
            break
        }
        return TreeSingleValueEncodingContainer(encoder: self)
    }

    func noteMisuse(_ message: String) {
        if misuse == nil { misuse = message }
    }

    // MARK: Values

    /// The tree of one value: primitives, packed arrays, wrappers and optionals directly,
    /// anything else through its own `encode(to:)` with a child encoder.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        if let direct = value as? any DirectTreeEncodable {
            return try direct.treeValue(using: self, step: step)
        }
        return try encodeWithChild(value, step: step)
    }

    func encodeWithChild<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        let path = pathNode
        guard depth < options.maximumDepth else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: path.path(appending: step),
                    debugDescription: "The value is nested deeper than the maximum depth of \(options.maximumDepth)."))
        }
        let child = TreeEncoderImpl(options: options, parentPath: path, step: step, depth: depth + 1)
        try value.encode(to: child)
        return try child.finish(for: value)
    }

    /// Folds what was encoded into a value. Nothing encoded gives an empty keyed container.
    func finish(for value: Any) throws -> BinaryValue {
        if let misuse {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath, debugDescription: "Container misuse: \(misuse)."))
        }
        switch storage {
        case .empty: return .emptyKeyed
        case .value(let v): return v
        case .keyed(let b): return try b.finish()
        case .unkeyed(let b): return try b.finish()
        }
    }
}

/// A nested container or encoder handed out before its content is known.
enum PendingChild {
    case keyed(KeyedBuffer)
    case unkeyed(UnkeyedBuffer)
    case encoder(TreeEncoderImpl)

    func finish() throws -> BinaryValue {
        switch self {
        case .keyed(let b): return try b.finish()
        case .unkeyed(let b): return try b.finish()
        case .encoder(let e): return try e.finish(for: e.codingPath.last?.stringValue ?? "")
        }
    }
}

/// The fields of a keyed container under construction.
///
/// Repeated keys are found with a 64-bit filter of key hashes (a clear bit proves a key is new,
/// so most inserts skip the search) and, for large containers, a hash index.
final class KeyedBuffer {
    @exclusivity(unchecked) var keys: [BinaryKey] = []
    @exclusivity(unchecked) var values: [BinaryValue] = []
    @exclusivity(unchecked) var pending: [(position: Int, child: PendingChild)] = []
    @exclusivity(unchecked) private var filter: UInt64 = 0
    @exclusivity(unchecked) private var index: [BinaryKey: Int]?
    let sortKeys: Bool

    static let indexThreshold = 16

    init(sortKeys: Bool) {
        self.sortKeys = sortKeys
        keys.reserveCapacity(8)
        values.reserveCapacity(8)
    }

    @inline(__always)
    private static func filterBit(_ key: BinaryKey) -> UInt64 {
        if let i = key.intValue { return 1 &<< UInt64(UInt(bitPattern: i) & 63) }
        let utf8 = key.stringValue.utf8
        let h = utf8.count &* 7 &+ Int(utf8.first ?? 0) &* 3 &+ Int(utf8.last ?? 0)
        return 1 &<< UInt64(UInt(bitPattern: h) & 63)
    }

    /// Stores `value` for `key`, replacing an earlier value in place; returns its position.
    @inline(__always)
    @discardableResult
    func set(_ value: BinaryValue, for key: BinaryKey) -> Int {
        let bit = Self.filterBit(key)
        if filter & bit != 0, let p = index?[key] ?? (index == nil ? keys.firstIndex(of: key) : nil) {
            values[p] = value
            if !pending.isEmpty { pending.removeAll { $0.position == p } }
            return p
        }
        filter |= bit
        keys.append(key)
        values.append(value)
        let p = keys.count - 1
        if index != nil {
            index?[key] = p
        } else if keys.count > Self.indexThreshold {
            var map = [BinaryKey: Int](minimumCapacity: keys.count * 2)
            for (i, k) in keys.enumerated() { map[k] = i }
            index = map
        }
        return p
    }

    func setPending(_ child: PendingChild, for key: BinaryKey) {
        let position = set(.nil, for: key)
        pending.append((position, child))
    }

    func finish() throws -> BinaryValue {
        for (position, child) in pending {
            values[position] = try child.finish()
        }
        pending.removeAll()
        let fields = KeyedFields(uniqueKeys: keys, values: values)
        return .keyed(sortKeys ? fields.sortedByKey() : fields)
    }
}

/// The elements of an unkeyed container under construction.
final class UnkeyedBuffer {
    @exclusivity(unchecked) var values: [BinaryValue] = []
    @exclusivity(unchecked) var pending: [(position: Int, child: PendingChild)] = []

    func appendPending(_ child: PendingChild) {
        pending.append((values.count, child))
        values.append(.nil)
    }

    func finish() throws -> BinaryValue {
        for (position, child) in pending {
            values[position] = try child.finish()
        }
        pending.removeAll()
        return .unkeyed(values)
    }
}
