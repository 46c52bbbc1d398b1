/// The depth rule: what one level of nesting is, for every encoder and decoder of values and trees
/// in v3 and v2 (protobuf counts messages, a rule of its own).
///
/// **A level is one value coded through a container of its own**: a struct, enum or class through
/// its `encode(to:)` or `init(from:)`; an array or set of anything but leaves, and a dictionary,
/// whose containers the coders fill in their stead. The top-level value is level 1, and the content
/// of a `superEncoder()` or `superDecoder()` is a level below its container's value. Not levels:
/// leaves (numbers, `Bool`, strings, `Data`, and arrays and sets of these), optionals, single-value
/// containers (their content has its own level or none), and containers nested inside a value's
/// container (so an enum case with a payload is one level, not two).
///
/// A value is accepted when no level of it is deeper than `maximumDepth`: each coder asks
/// `admitsLevel(inside:maximumDepth:)` before it codes a value of its own. The encoders and the
/// decoders count alike, so whatever one accepts with a `maximumDepth`, the other accepts with the
/// same. Why values: each level is a call into `encode(to:)` or `init(from:)` whose frames stay on
/// the stack while its content codes, so the limit bounds the recursion it is there to bound, for
/// one compare per level; a nested container adds no recursion.
///
/// A tree alone has no types, and in it a level cannot be told from the nested containers and
/// wrappers inside one: writing a tree (and v2's stored view of one) allows
/// ``nodeLimit(maximumDepth:)`` nested nodes, ``nodesPerLevel`` per level. Synthesized `Codable`
/// makes at most three per level (a container, an enum case's nested container, an optional), so
/// the tree of a value within the limit is written unless its own `encode(to:)` nests more.
package enum DepthGuard {
    /// The nodes holding other nodes (keyed and unkeyed containers, a present optional, a
    /// single-value wrapper) a tree without its type may nest per level.
    @inlinable package static var nodesPerLevel: Int { 4 }

    /// How deep the tree writers (and v2's stored view of a tree) let nodes nest for
    /// `maximumDepth` levels; a hand-built tree deeper than that is an error, not a stack overflow.
    package static func nodeLimit(maximumDepth: Int) -> Int {
        let (limit, overflow) = maximumDepth.multipliedReportingOverflow(by: nodesPerLevel)
        return overflow ? Int.max : limit
    }
}

/// Whether a level (``DepthGuard``) may open inside `depth` enclosing levels: the rule's one
/// check. A free function, as a member of a package type is not inlined into another module (a
/// call per level, measured), and this runs once per value coded.
@inlinable @inline(__always)
package func admitsLevel(inside depth: Int, maximumDepth: Int) -> Bool {
    depth < maximumDepth
}
