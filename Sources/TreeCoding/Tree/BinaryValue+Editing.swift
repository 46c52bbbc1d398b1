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
            /// An index outside the elements of the container.
            public static let indexOutOfRange = Code(name: "indexOutOfRange")

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
    /// - Throws: ``EditError`` with code `notKeyed` when there is no keyed container; the node is
    ///   left unchanged.
    /// - Complexity: O(1) expected past 16 fields, O(fields) below.
    public mutating func setValue(_ value: BinaryValue, forKey key: BinaryKey) throws {
        _ = try editKeyed(key) { $0.set(value, for: key) }
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
    /// In a packed array, a leaf of exactly the element type (and, for integers, of the encoding
    /// the array's elements have, such as `.int32(_, .zigZag)` in a `[Int32]`) is stored in place;
    /// any other value first turns the packed array into an `.unkeyed` container of its leaves
    /// (which the formats write differently: element by element, not packed).
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container, or
    ///   `indexOutOfRange` unless `0 <= index < count`; the node is left unchanged.
    public mutating func setElement(_ value: BinaryValue, at index: Int) throws {
        try editIndexed(index) { node in
            switch node {
            case .unkeyed(var values):
                node = .nil
                values[index] = value
                node = .unkeyed(values)
            case .packed(var packed):
                node = .nil
                if packed.replace(at: index, with: value) {
                    node = .packed(packed)
                } else {
                    var values = packed.leaves
                    values[index] = value
                    node = .unkeyed(values)
                }
            default:
                break
            }
        }
    }

    /// Appends `value` to the unkeyed container or packed array this node is or wraps.
    ///
    /// A packed array stays packed when `value` is a leaf of exactly its element type (as for
    /// ``setElement(_:at:)``), else it becomes an `.unkeyed` container of its leaves first.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container.
    public mutating func append(_ value: BinaryValue) throws {
        try editIndexed(nil) { node in
            switch node {
            case .unkeyed(var values):
                node = .nil
                values.append(value)
                node = .unkeyed(values)
            case .packed(var packed):
                node = .nil
                if packed.append(value) {
                    node = .packed(packed)
                } else {
                    node = .unkeyed(packed.leaves + [value])
                }
            default:
                break
            }
        }
    }

    /// Removes the element at `index` of the unkeyed container or packed array this node is or
    /// wraps and returns it (an element of a packed array as a leaf). A packed array stays packed.
    ///
    /// - Throws: ``EditError`` with code `notIndexed` when there is no such container, or
    ///   `indexOutOfRange` unless `0 <= index < count`; the node is left unchanged.
    @discardableResult
    public mutating func removeElement(at index: Int) throws -> BinaryValue {
        var removed = BinaryValue.nil
        try editIndexed(index) { node in
            switch node {
            case .unkeyed(var values):
                node = .nil
                removed = values.remove(at: index)
                node = .unkeyed(values)
            case .packed(var packed):
                node = .nil
                removed = packed.remove(at: index)
                node = .packed(packed)
            default:
                break
            }
        }
        return removed
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

    private mutating func editKeyed<R>(_ key: BinaryKey, _ change: (inout KeyedFields) -> R) throws -> R {
        try editInsideMarks { node in
            guard case .keyed(var fields) = node else {
                throw EditError(
                    .notKeyed, "cannot use the key \(key) on a \(node.kindName) node: it is not a keyed container")
            }
            node = .nil
            defer { node = .keyed(fields) }
            return change(&fields)
        }
    }

    /// Checks there is an unkeyed container or packed array inside the marks and that `index` (if
    /// any) is an element's, then runs `change` on the container.
    private mutating func editIndexed(
        _ index: Int?, _ change: (inout BinaryValue) -> Void
    ) throws {
        try editInsideMarks { node in
            let count: Int
            switch node {
            case .unkeyed(let values): count = values.count
            case .packed(let packed): count = packed.count
            default:
                let what = index.map { "the index \($0)" } ?? "append"
                throw EditError(
                    .notIndexed,
                    "cannot use \(what) on a \(node.kindName) node: it is neither an unkeyed container nor a packed array"
                )
            }
            if let index, index < 0 || index >= count {
                throw EditError(
                    .indexOutOfRange, "the index \(index) is outside the \(count) elements of the \(node.kindName) node"
                )
            }
            change(&node)
        }
    }
}
