extension KeyedFields {
    /// A position among the fields of a keyed container, as a collection.
    ///
    /// Opaque rather than `Int`, so that an integer in a subscript is always a key (integer keys
    /// are common): the field at an integer position is `fields[i]`.
    public struct Index: Comparable, Hashable, Sendable {
        /// The position in ``KeyedFields/fields``.
        public let offset: Int

        /// The position `offset` in ``KeyedFields/fields``.
        public init(offset: Int) { self.offset = offset }

        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Index, rhs: Index) -> Bool { lhs.offset < rhs.offset }
    }

    /// The position after `i`.
    public func index(after i: Index) -> Index { Index(offset: i.offset + 1) }

    /// The position before `i`.
    public func index(before i: Index) -> Index { Index(offset: i.offset - 1) }

    /// The position `distance` positions from `i`.
    public func index(_ i: Index, offsetBy distance: Int) -> Index { Index(offset: i.offset + distance) }

    /// The number of positions from `start` to `end`.
    public func distance(from start: Index, to end: Index) -> Int { end.offset - start.offset }
}
