import Foundation

/// The `Encoder` handed to `encode(to:)`: one instance per encoded non-primitive value.
///
/// Its containers write into its ``EncoderState``; `finish()` folds it (and any nested containers
/// that were handed out) into an immutable ``BinaryValue``. No access to the state is held while
/// calling out (a child's tree is computed before the write begins).
package final class TreeEncoderImpl: Encoder {
    let options: EncodingOptions
    /// The encoder of the enclosing value, whose path this one extends (no path is built unless
    /// someone asks for `codingPath` or an error needs it).
    let parent: TreeEncoderImpl?
    /// The path to extend when there is no parent (nested containers, super encoders).
    let basePath: TreePath
    let step: PathStep?
    /// The levels (``DepthGuard``) enclosing this encoder's value, its own included; a nested
    /// container's or a holder's encoder has its owner's.
    let depth: Int
    /// What the value's container collected (this object is its own buffer, one allocation per
    /// value).
    var state = EncoderState()
    let sortKeys: Bool

    init(
        options: EncodingOptions, parent: TreeEncoderImpl?, basePath: TreePath = .root, step: PathStep?,
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
    static func nested(_ storage: EncoderState.Storage, of encoder: TreeEncoderImpl, at path: TreePath)
        -> TreeEncoderImpl
    {
        let child = TreeEncoderImpl(
            options: encoder.options, parent: nil, basePath: path, step: nil, depth: encoder.depth)
        child.state.request(storage)
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
    var pathNode: TreePath {
        var steps: [PathStep] = []
        var encoder: TreeEncoderImpl? = self
        var base = TreePath.root
        while let current = encoder {
            if let step = current.step { steps.append(step) }
            if current.parent == nil { base = current.basePath }
            encoder = current.parent
        }
        for step in steps.reversed() { base = base.appending(step) }
        return base
    }

    package var codingPath: [any CodingKey] { pathNode.codingPath }
    package var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    // MARK: Containers

    package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        state.request(.keyed)
        return KeyedEncodingContainer(TreeKeyedEncodingContainer<Key>(encoder: self, buffer: self, path: nil))
    }

    package func unkeyedContainer() -> any UnkeyedEncodingContainer {
        state.request(.unkeyed)
        return TreeUnkeyedEncodingContainer(encoder: self, buffer: self, path: nil)
    }

    package func singleValueContainer() -> any SingleValueEncodingContainer {
        state.request(.singleRequested)
        return TreeSingleValueEncodingContainer(encoder: self)
    }

    // MARK: Values

    /// The tree of one value: primitives, packed arrays, wrappers and optionals directly,
    /// anything else through its own `encode(to:)` with a child encoder.
    ///
    /// The check is on the metatype, so the value is never boxed into an existential.
    @inline(__always)
    package func encodeValue<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        if let direct = T.self as? any DirectTreeEncodable.Type {
            return try encodeDirect(direct, value, step: step)
        }
        return try encodeWithChild(value, step: step)
    }

    private func encodeDirect<D: DirectTreeEncodable, T>(_ type: D.Type, _ value: T, step: PathStep?) throws
        -> BinaryValue
    {
        guard let direct = value as? D else {
            throw EncodingError.invalidValue(
                value,
                .init(codingPath: pathNode.codingPath(appending: step), debugDescription: "Internal type confusion."))
        }
        return try direct.treeValue(using: self, step: step)
    }

    func encodeWithChild<T: Encodable>(_ value: T, step: PathStep?) throws -> BinaryValue {
        guard admitsLevel(inside: depth, maximumDepth: options.maximumDepth) else {
            throw EncodingError.tooDeep(
                value, maximumDepth: options.maximumDepth, at: pathNode.codingPath(appending: step))
        }
        let child = TreeEncoderImpl(options: options, parent: self, step: step, depth: depth + 1)
        try value.encode(to: child)
        return try child.finish(for: value)
    }

    /// Folds what was encoded into a value. Nothing encoded gives an empty keyed container.
    func finish(for value: @autoclosure () -> Any) throws -> BinaryValue {
        switch state.finish() {
        case .misuse(let misuse):
            throw EncodingError.invalidValue(
                value(), EncodingError.Context(codingPath: codingPath, debugDescription: misuse))
        case .empty: return .emptyKeyed
        case .singleRequested:
            throw EncodingError.invalidValue(
                value(),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A single-value container was requested, but no value was encoded into it."))
        case .value(let v): return v
        case .keyed(let fields, let pending): return try finishKeyed(fields, pending: pending)
        case .unkeyed(let values, let pending): return try finishUnkeyed(values, pending: pending)
        }
    }
}
