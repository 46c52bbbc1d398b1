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
    /// The encoder of the enclosing value, whose path this one extends (no path is built unless
    /// someone asks for `codingPath` or an error needs it).
    let parent: TreeEncoderImpl?
    /// The path to extend when there is no parent (nested containers, super encoders).
    let basePath: CodingPathNode
    let step: PathStep?
    let depth: Int
    @exclusivity(unchecked) var storage: Storage = .empty
    /// Set once `finish()` folded this encoder's container into a value; later writes are errors.
    @exclusivity(unchecked) var isFinished = false
    /// The first misuse of the container API (or other problem of the value); thrown by `finish()`.
    @exclusivity(unchecked) var misuse: String?
    let sortKeys: Bool

    // The container under construction (this object is its own buffer, one allocation per value).
    /// Fields of a keyed container.
    @exclusivity(unchecked) var fields: [KeyedFields.Field] = []
    /// Elements of an unkeyed container.
    @exclusivity(unchecked) var values: [BinaryValue] = []
    /// Nested containers and encoders handed out, folded in by `finish()`.
    @exclusivity(unchecked) var pending: [(position: Int, child: TreeEncoderImpl)] = []
    /// One bit per key hash: a clear bit proves a key is new, so most inserts skip the search.
    @exclusivity(unchecked) var keyFilter: UInt64 = 0
    /// Key -> position, for large keyed containers.
    @exclusivity(unchecked) var keyIndex: [BinaryKey: Int]?

    enum Storage {
        case empty
        /// A single-value container was handed out and nothing encoded yet.
        case singleRequested
        case value(BinaryValue)
        case keyed
        case unkeyed
    }

    init(
        options: EncodingOptions, parent: TreeEncoderImpl?, basePath: CodingPathNode = .root, step: PathStep?,
        depth: Int
    ) {
        self.options = options
        self.parent = parent
        self.basePath = basePath
        self.step = step
        self.depth = depth
        self.sortKeys = options.sortKeys
    }

    /// A buffer for a nested container at `path`.
    static func nested(_ storage: Storage, of encoder: TreeEncoderImpl, at path: CodingPathNode) -> TreeEncoderImpl {
        let child = TreeEncoderImpl(
            options: encoder.options, parent: nil, basePath: path, step: nil, depth: max(encoder.depth, path.depth))
        child.storage = storage
        if case .keyed = storage { child.reserveFields() }
        return child
    }

    static func encodeRoot<T: Encodable>(_ value: T, options: EncodingOptions, throughEncodable: Bool) throws
        -> BinaryValue
    {
        let root = TreeEncoderImpl(options: options, parent: nil, step: nil, depth: 0)
        let tree =
            throughEncodable ? try root.encodeWithChild(value, step: nil) : try root.encodeValue(value, step: nil)
        if let (path, message) = options.lateWrite {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: message))
        }
        return tree
    }

    /// This encoder's position in the value.
    var pathNode: CodingPathNode {
        var steps: [PathStep] = []
        var encoder: TreeEncoderImpl? = self
        var base = CodingPathNode.root
        while let current = encoder {
            if let step = current.step { steps.append(step) }
            if current.parent == nil { base = current.basePath }
            encoder = current.parent
        }
        for step in steps.reversed() { base = base.appending(step) }
        return base
    }

    var codingPath: [any CodingKey] { pathNode.path }
    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        switch storage {
        case .keyed:
            break
        case .empty, .singleRequested:
            storage = .keyed
            reserveFields()
        case .value, .unkeyed:
            noteMisuse("a keyed container was requested after another kind of container")
            resetContainer(to: .keyed)
        }
        return KeyedEncodingContainer(TreeKeyedEncodingContainer<Key>(encoder: self, buffer: self, path: nil))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        switch storage {
        case .unkeyed:
            break
        case .empty, .singleRequested:
            storage = .unkeyed
        case .value, .keyed:
            noteMisuse("an unkeyed container was requested after another kind of container")
            resetContainer(to: .unkeyed)
        }
        return TreeUnkeyedEncodingContainer(encoder: self, buffer: self, path: nil)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        switch storage {
        case .keyed, .unkeyed:
            noteMisuse("a single-value container was requested after another kind of container")
        case .empty:
            storage = .singleRequested
        case .singleRequested, .value:
            break
        }
        return TreeSingleValueEncodingContainer(encoder: self)
    }

    func noteMisuse(_ message: String) {
        if misuse == nil { misuse = "Container misuse: \(message)." }
    }

    /// Drops everything a container of another kind collected (fields, elements, handed-out
    /// nested containers and the key index), after a misuse has been noted: containers handed
    /// out earlier keep writing into consistent, empty state, and `finish()` throws the misuse.
    func resetContainer(to newStorage: Storage) {
        storage = newStorage
        fields = []
        values = []
        pending = []
        keyFilter = 0
        keyIndex = nil
        if case .keyed = newStorage { reserveFields() }
    }

    // MARK: Values

    /// The tree of one value: primitives, packed arrays, wrappers and optionals directly,
    /// anything else through its own `encode(to:)` with a child encoder.
    ///
    /// The check is on the metatype, so the value is never boxed into an existential.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        if let direct = T.self as? any DirectTreeEncodable.Type {
            return try encodeDirect(direct, value, step: step)
        }
        return try encodeWithChild(value, step: step)
    }

    private func encodeDirect<D: DirectTreeEncodable, T>(_ type: D.Type, _ value: T, step: PathStep?) throws
        -> BinaryValue
    {
        guard T.self == D.self else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: pathNode.path(appending: step), debugDescription: "Internal type confusion."))
        }
        return try reinterpret(value, as: D.self).treeValue(using: self, step: step)
    }

    func encodeWithChild<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        guard depth < options.maximumDepth else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: pathNode.path(appending: step),
                    debugDescription: "The value is nested deeper than the maximum depth of \(options.maximumDepth)."))
        }
        let child = TreeEncoderImpl(options: options, parent: self, step: step, depth: depth + 1)
        try value.encode(to: child)
        return try child.finish(for: value)
    }

    /// Folds what was encoded into a value. Nothing encoded gives an empty keyed container.
    func finish(for value: @autoclosure () -> Any) throws -> BinaryValue {
        defer { isFinished = true }
        if let misuse {
            throw EncodingError.invalidValue(
                value(), EncodingError.Context(codingPath: codingPath, debugDescription: misuse))
        }
        switch storage {
        case .empty: return .emptyKeyed
        case .singleRequested:
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A single-value container was requested, but no value was encoded into it."))
        case .value(let v): return v
        case .keyed: return try finishKeyed()
        case .unkeyed: return try finishUnkeyed()
        }
    }
}
