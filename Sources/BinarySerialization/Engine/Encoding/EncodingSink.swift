/// Where the streaming encoder sends a value as it is encoded, in order, instead of building a
/// tree: a format's byte writer implements it (module BinarySerialization).
///
/// The events describe the same tree ``TreeEncoder`` builds, in pre-order:
/// - ``value(_:)`` is a whole node that has no events inside: a leaf, a packed array, a nil, or a
///   small container built in one piece (an empty keyed container, an unkeyed container of strings);
/// - ``strings(_:)`` is elements of the open unkeyed container, all strings, as ``value(_:)``
///   would send them one by one (an array of strings, without a call and a dispatch per element);
/// - ``key(_:)`` comes before each field's value in a keyed container;
/// - ``begin(_:)`` and ``end()`` bracket a node whose content arrives as further events.
///
/// A bracketed `.single` or `.optional` never holds a bare `.nil` (`.single(.nil)` is sent whole
/// through ``value(_:)``), so a sink can write every bracketed wrapper as "a value follows".
///
/// A sink that cannot write what it is sent (a key its format has no bytes for, say) reports
/// `false` from ``finish()``; the caller then encodes through the tree, which reports the error.
protocol EncodingSink: AnyObject {
    /// Whether the sink needs the ``TypeFact``s (and the shape they come with, see
    /// ``StreamingEncoder``); asked once, when an engine is made for the sink.
    var needsTypeFacts: Bool { get }
    /// A fact about the next event that the tree does not keep; sent only to a sink that needs
    /// type facts.
    func note(_ fact: TypeFact)
    func value(_ node: BinaryValue)
    func strings(_ strings: [String])
    func key(_ key: BinaryKey)
    /// A primitive field of the innermost keyed node: exactly ``key(_:)`` then ``value(_:)``, in
    /// one call (a sink may write a common field without the two events' checks).
    func field(_ key: BinaryKey, _ leaf: BinaryValue)
    func begin(_ kind: SinkNodeKind)
    func end()
}

/// What a value's events say beyond its tree, for a format whose bytes depend on the Swift type
/// (protobuf): v3 and v2 need none of them.
///
/// A sink that needs them also gets the value in the shape the protobuf tree has: a keyed
/// container's `encodeIfPresent` value bracketed as ``SinkNodeKind/optional`` (a field with
/// presence), a `Dictionary` as an unkeyed container of entries `[1: key, 2: value]` sorted by key
/// (both bracketed as optionals), and a `Set`'s elements sorted.
enum TypeFact {
    /// The next keyed container is a ``ProtobufOneOf`` enum's: its cases are fields of the
    /// enclosing message.
    case oneOf
    /// The next leaf's integer encoding was chosen by a wrapper (``ZigZagEncoded``,
    /// ``SignedValue``...), rather than being its type's default.
    case chosenEncoding
    /// The next keyed container is a map entry: its field 1 is the map's key.
    case mapEntry
}

extension EncodingSink {
    var needsTypeFacts: Bool { false }
    func note(_ fact: TypeFact) {}

    func field(_ key: BinaryKey, _ leaf: BinaryValue) {
        self.key(key)
        value(leaf)
    }
}

/// The kinds of node whose content is sent as events.
enum SinkNodeKind {
    case keyed
    case unkeyed
    /// A value written through a non-optional single-value container: ``BinaryValue/single(_:)``.
    case single
    /// `Optional.some`: ``BinaryValue/optional(_:)``.
    case optional
}
