extension BinaryValue {
    /// Why an edit of a tree could not be applied.
    ///
    /// Thrown by the editing methods (``setValue(_:forKey:)``, ``setElement(_:at:)``, ...), which
    /// make the same changes as the subscript setters but say when a change is impossible instead
    /// of leaving the tree as it was.
    public struct EditError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The kind of failure.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            /// The short name of the failure, such as `"indexOutOfRange"`.
            public let name: String

            /// A key was used on a node that is not a keyed container.
            public static let notKeyed = Code(name: "notKeyed")
            /// An index was used on a node that is neither an unkeyed container nor a packed array.
            public static let notIndexed = Code(name: "notIndexed")
            /// A position outside the elements of the container.
            public static let indexOutOfRange = Code(name: "indexOutOfRange")
            /// A value that does not convert exactly to the type of the primitive leaf it would
            /// replace, such as `-1` for a `UInt32` or `"x"` for an `Int`.
            public static let typeMismatch = Code(name: "typeMismatch")

            /// The short name of the failure.
            public var description: String { name }
        }

        /// The kind of failure.
        public let code: Code
        /// A sentence for people: what was asked and what the tree holds.
        public let message: String

        /// An error of `code` with `message`.
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        /// The code and the message.
        public var description: String { "\(code): \(message)" }
    }

    // MARK: Keyed containers

    /// Stores `value` for `key` in the keyed container this node is or wraps (through `.single`
    /// and `.optional(.some)` marks, as the getters look): an existing field keeps its position,
    /// a new one is appended.
    ///
    /// An edit is kept exactly or refused: a field holding a primitive leaf keeps the leaf's
    /// type and integer encoding, `value` converted exactly (``converting(_:)``), as the subscript
    /// setter converts it; where it does not convert, this method throws, where the setter would
    /// store `value` as it is. To change a field's type, remove it first.
    ///
    /// - Throws: ``EditError`` with code `notKeyed` when there is no keyed container, or
    ///   `typeMismatch` when `value` does not convert to the field's leaf; the node is left
    ///   unchanged.
    /// - Complexity: O(1) expected past 16 fields, O(fields) below.
    public mutating func setValue(_ value: BinaryValue, forKey key: BinaryKey) throws {
        try editKeyed(key) { fields in
            let stored = try fields[key].map { try Self.keepingLeafType($0, value, "the field \(key)") } ?? value
            fields.set(stored, for: key)
        }
    }

    /// Removes the field for `key` from the keyed container this node is or wraps and returns
    /// its value; `nil` if the container has no such field.
    ///
    /// - Throws: ``EditError`` with code `notKeyed` when there is no keyed container.
    /// - Complexity: O(fields).
    @discardableResult
    public mutating func removeValue(forKey key: BinaryKey) throws -> BinaryValue? {
        try editKeyed(key) { $0.removeValue(forKey: key) }
    }

    // MARK: Unkeyed containers and packed arrays

    /// Replaces the element at `index` of the unkeyed container or packed array this node is or
    /// wraps.
    ///
    /// An element that is a primitive leaf (any element of a packed array) keeps its type and
    /// integer encoding: `value` is converted exactly (``converting(_:)``) or refused, so a
    /// packed array stays packed.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container,
    ///   `indexOutOfRange` unless `0 <= index < count`, or `typeMismatch` when `value` does not
    ///   convert to the element's leaf; the node is left unchanged.
    public mutating func setElement(_ value: BinaryValue, at index: Int) throws {
        try modifyElement(at: index) { $0 = value }
    }

    /// Runs `body` on the element at `index` of the unkeyed container or packed array this node
    /// is or wraps, in place: the way to edit inside an element, such as a field of a struct in
    /// an array (`try tree.modifyElement(at: 0) { $0["name"] = "Bob" }`).
    ///
    /// An element that was a primitive leaf (any element of a packed array) keeps its type and
    /// integer encoding, as with ``setElement(_:at:)``.
    ///
    /// - Throws: the error of `body`, or ``EditError`` with code `notIndexed`, `indexOutOfRange`
    ///   or `typeMismatch` as ``setElement(_:at:)``; the node is then left unchanged.
    @discardableResult
    public mutating func modifyElement<R>(at index: Int, _ body: (inout BinaryValue) throws -> R) throws -> R {
        try editIndexed(index) { node in
            switch node {
            case .unkeyed(var values):
                var element = values[index]
                let result = try body(&element)
                let stored = try Self.keepingLeafType(values[index], element, "the element \(index)")
                node = .nil
                values[index] = stored
                node = .unkeyed(values)
                return result
            case .packed(var packed):
                let old = packed.leaf(at: index)
                var element = old
                let result = try body(&element)
                let stored = try Self.keepingLeafType(old, element, "the element \(index)")
                node = .nil
                let replaced = packed.replace(at: index, with: stored)
                node = .packed(packed)
                // `stored` has the element type (keepingLeafType converted it): the check is cheap.
                guard replaced else {
                    throw EditError(.typeMismatch, "cannot store a \(stored.kindName) node in a packed array")
                }
                return result
            default:
                throw EditError(.notIndexed, "not a container")  // editIndexed checked there is one
            }
        }
    }

    /// Appends `value` to the unkeyed container or packed array this node is or wraps.
    ///
    /// A packed array takes `value` converted exactly to its element type (``converting(_:)``)
    /// and stays packed.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container, or
    ///   `typeMismatch` when `value` does not convert to a packed array's element type.
    public mutating func append(_ value: BinaryValue) throws {
        try insertElement(value, at: nil)
    }

    /// Inserts `value` at `index` (`0...count`) of the unkeyed container or packed array this
    /// node is or wraps; the elements from `index` on move one position up.
    ///
    /// A packed array takes `value` converted exactly to its element type and stays packed.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container,
    ///   `indexOutOfRange` unless `0 <= index <= count`, or `typeMismatch` when `value` does not
    ///   convert to a packed array's element type; the node is left unchanged.
    public mutating func insert(_ value: BinaryValue, at index: Int) throws {
        try insertElement(value, at: index)
    }

    /// Removes the element at `index` of the unkeyed container or packed array this node is or
    /// wraps and returns it (an element of a packed array as a leaf). A packed array stays packed.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container, or
    ///   `indexOutOfRange` unless `0 <= index < count`; the node is left unchanged.
    @discardableResult
    public mutating func removeElement(at index: Int) throws -> BinaryValue {
        try editIndexed(index) { node in
            switch node {
            case .unkeyed(var values):
                node = .nil
                let removed = values.remove(at: index)
                node = .unkeyed(values)
                return removed
            case .packed(var packed):
                node = .nil
                let removed = packed.remove(at: index)
                node = .packed(packed)
                return removed
            default:
                throw EditError(.notIndexed, "not a container")  // editIndexed checked there is one
            }
        }
    }

    // MARK: Plumbing

    /// Runs `body` on the node inside any `.single` and `.optional(.some)` marks, rebuilding the
    /// marks around the result. Each mark is taken off the tree while its content changes, so a
    /// uniquely held container is changed in place, not copied.
    mutating func editInsideMarks<R>(_ body: (inout BinaryValue) throws -> R) rethrows -> R {
        switch self {
        case .single(var inner):
            self = .nil
            defer { self = .single(inner) }
            return try inner.editInsideMarks(body)
        case .optional(.some(var inner)):
            self = .nil
            defer { self = .optional(inner) }
            return try inner.editInsideMarks(body)
        default:
            return try body(&self)
        }
    }

    private mutating func editKeyed<R>(_ key: BinaryKey, _ change: (inout KeyedFields) throws -> R) throws -> R {
        try editInsideMarks { node in
            guard case .keyed(var fields) = node else {
                throw EditError(
                    .notKeyed, "cannot use the key \(key) on a \(node.kindName) node: it is not a keyed container")
            }
            node = .nil
            defer { node = .keyed(fields) }
            return try change(&fields)
        }
    }

    /// Checks there is an unkeyed container or packed array inside the marks and that `index` (if
    /// any) is an element's (or, `inserting`, the end), then runs `change` on the container.
    private mutating func editIndexed<R>(
        _ index: Int?, inserting: Bool = false, _ change: (inout BinaryValue) throws -> R
    ) throws -> R {
        try editInsideMarks { node in
            let count: Int
            switch node {
            case .unkeyed(let values): count = values.count
            case .packed(let packed): count = packed.count
            default:
                let what = index.map { "the position \($0)" } ?? "append"
                throw EditError(
                    .notIndexed,
                    "cannot use \(what) on a \(node.kindName) node: it is neither an unkeyed container nor a packed array"
                )
            }
            let end = inserting ? count + 1 : count
            if let index, index < 0 || index >= end {
                throw EditError(
                    .indexOutOfRange,
                    "the position \(index) is outside the \(count) elements of the \(node.kindName) node")
            }
            return try change(&node)
        }
    }

    /// Inserts `value` at `index`, or appends it when `index` is `nil`.
    private mutating func insertElement(_ value: BinaryValue, at index: Int?) throws {
        try editIndexed(index, inserting: true) { node in
            switch node {
            case .unkeyed(var values):
                node = .nil
                values.insert(value, at: index ?? values.count)
                node = .unkeyed(values)
            case .packed(var packed):
                let kind = packed.elementKind
                guard let leaf = value.exactly(as: kind.elementScalarKind) else {
                    throw EditError(
                        .typeMismatch,
                        "cannot store a \(value.kindName) node in a [\(kind.rawValue)] packed array: it does not convert exactly"
                    )
                }
                node = .nil
                packed.insert(leaf, at: index ?? packed.count)
                node = .packed(packed)
            default:
                throw EditError(.notIndexed, "not a container")  // editIndexed checked there is one
            }
        }
    }

    /// What replaces `old` when `new` is written in its place by a throwing method: `new`
    /// converted to the type of a primitive leaf `old` (``converting(_:)``), `.optional(nil)` in
    /// place of an optional, and any value in place of a container or nil.
    ///
    /// - Throws: ``EditError`` with code `typeMismatch` when `old` is a primitive leaf and `new`
    ///   does not convert to it.
    static func keepingLeafType(_ old: BinaryValue, _ new: BinaryValue, _ what: String) throws -> BinaryValue {
        if let converted = old.converting(new) { return converted }
        if case .optional = old, case .optional(.none) = new { return new }
        guard old.unwrappedContainer.leafKind == nil else {
            throw EditError(
                .typeMismatch,
                "cannot store a \(new.kindName) node in place of \(what), a \(old.unwrappedContainer.leafKind.map { "\($0)" } ?? old.kindName) leaf: it does not convert exactly (remove the field to change its type)"
            )
        }
        return new
    }
}
