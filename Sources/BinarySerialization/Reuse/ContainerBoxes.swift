/// Reusing the standard library's boxes of keyed containers.
///
/// `KeyedDecodingContainer` and `KeyedEncodingContainer` wrap a coder's container in a class
/// box. Making one runs generic code this module cannot specialize (the key type is known only to
/// the caller): runtime lookups of the box's and the container's metadata and of a witness table,
/// a few hundred instructions each, and an allocation.
///
/// In the standard library, both wrappers are one strong reference to their box. So a box can be
/// kept and the wrapper rebuilt from it: once nothing outside the coder refers to the box (no copy
/// of its wrapper is left), it is handed out again for the same key type: the decoder keeps each box
/// with the state its container reads, and reopens that state; the streaming encoder points the
/// container's ``StreamingEncoder/FrameID`` at the new frame. The coders check the layout once
/// (``wrappersAreOneReference``); if it were ever different, every container would get a new box,
/// as before.
enum ContainerBoxes {
    /// Whether both wrappers are laid out as one counted reference: a reference's size and
    /// alignment, and not plain data. Only then are ``box(of:)`` and the rebuilding casts used.
    static let wrappersAreOneReference =
        isOneReference(KeyedDecodingContainer<ProbeKey>.self) && isOneReference(KeyedEncodingContainer<ProbeKey>.self)

    /// Whether boxes are handed out again: the layout allows it and reuse is on.
    static let reusesBoxes = wrappersAreOneReference && RetentionLimits.reuses

    private static func isOneReference<T>(_ type: T.Type) -> Bool {
        MemoryLayout<T>.size == MemoryLayout<AnyObject>.size
            && MemoryLayout<T>.alignment == MemoryLayout<AnyObject>.alignment && !_isPOD(T.self)
    }

    /// The box of `container`.
    @inline(__always)
    static func box<Key: CodingKey>(of container: KeyedDecodingContainer<Key>) -> AnyObject {
        unsafeBitCast(container, to: AnyObject.self)
    }

    @inline(__always)
    static func box<Key: CodingKey>(of container: KeyedEncodingContainer<Key>) -> AnyObject {
        unsafeBitCast(container, to: AnyObject.self)
    }

    /// Rebuilds wrappers of one type from their boxes.
    ///
    /// Code generic over the key type needs the wrapper's metadata to return one, and looking it
    /// up (`KeyedDecodingContainer<Key>` from `Key`) goes through the runtime's metadata cache, about
    /// 450 instructions per container. In a method of this class the wrapper type is the class's
    /// generic argument, which the object's own class metadata holds: nothing is looked up. One is
    /// made per kept box's key type, when the box is kept.
    final class Rebuilder<Wrapper> {
        /// The wrapper of `box`, which ``box(of:)`` took from a `Wrapper`. Not inlined: inlined
        /// into generic code, `Wrapper` would be looked up again.
        @inline(never)
        func wrapper(of box: AnyObject) -> Wrapper {
            unsafeBitCast(box, to: Wrapper.self)
        }
    }

    /// A rebuilder of `KeyedDecodingContainer<Key>`.
    static func decodingRebuilder<Key: CodingKey>(_ key: Key.Type) -> AnyObject {
        Rebuilder<KeyedDecodingContainer<Key>>()
    }

    /// A rebuilder of `KeyedEncodingContainer<Key>`.
    static func encodingRebuilder<Key: CodingKey>(_ key: Key.Type) -> AnyObject {
        Rebuilder<KeyedEncodingContainer<Key>>()
    }

    /// The wrapper of `box`, which ``box(of:)`` took from a wrapper of `Key`; `rebuilder` is
    /// the one ``decodingRebuilder(_:)`` made for `Key`.
    @inline(__always)
    static func decoding<Key: CodingKey>(_ box: AnyObject, _ rebuilder: AnyObject, _ key: Key.Type)
        -> KeyedDecodingContainer<Key>
    {
        unsafeDowncast(rebuilder, to: Rebuilder<KeyedDecodingContainer<Key>>.self).wrapper(of: box)
    }

    /// The wrapper of `box`, which ``box(of:)`` took from a wrapper of `Key`; `rebuilder` is
    /// the one ``encodingRebuilder(_:)`` made for `Key`.
    @inline(__always)
    static func encoding<Key: CodingKey>(_ box: AnyObject, _ rebuilder: AnyObject, _ key: Key.Type)
        -> KeyedEncodingContainer<Key>
    {
        unsafeDowncast(rebuilder, to: Rebuilder<KeyedEncodingContainer<Key>>.self).wrapper(of: box)
    }

    private struct ProbeKey: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
        init?(stringValue: String) { nil }
    }
}

/// The boxes of other key types a coder keeps at one depth besides the last one it handed out,
/// most recent first, at most ``maximum``: values of different types take turns at one depth (an
/// enum's cases, a struct's fields of two struct types), and a box made again costs its runtime
/// look-ups each time. The decoder keeps one per pooled state, the streaming encoder one per
/// frame index.
struct SpareBoxes<Entry: AnyObject> {
    static var maximum: Int { 3 }

    private(set) var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The first spare `matches` accepts, and its position.
    func first(where matches: (Entry) -> Bool) -> (position: Int, entry: Entry)? {
        guard let j = entries.firstIndex(where: matches) else { return nil }
        return (j, entries[j])
    }

    /// Puts `entry` where the spare at `position` was (taken out by the caller), in place, or
    /// removes that spare when there is no `entry`.
    mutating func replace(at position: Int, with entry: Entry?) {
        if let entry {
            entries[position] = entry
        } else {
            entries.remove(at: position)
        }
    }

    /// Keeps `entry` as the most recent spare, letting the oldest go past ``maximum``.
    mutating func keep(_ entry: Entry) {
        entries.insert(entry, at: 0)
        if entries.count > Self.maximum { entries.removeLast() }
    }
}
