/// What the decoder needs to know about a type before decoding it: whether it is decoded
/// directly (``DirectTreeDecodable``) and which element type it announces (``ElementHinted``).
///
/// The runtime answers each conformance check with a hash-table lookup of a few hundred
/// instructions; a type's conformances never change, so each thread remembers the answers for the
/// first 64 types it decodes, and a scan of those is far cheaper.
final class DecodingTypeFacts {
    struct Entry {
        let type: ObjectIdentifier
        let direct: (any DirectTreeDecodable.Type)?
        /// Looked up for types that are not decoded directly (the others never open a container).
        let elementHint: ScalarKind?
    }

    private var entries: [Entry] = []

    private static let perThread = ThreadLocal<DecodingTypeFacts>()

    /// This thread's facts (made on the thread's first decoding).
    static var current: DecodingTypeFacts {
        if let facts = perThread.current { return facts }
        let facts = DecodingTypeFacts()
        perThread.put(facts)
        return facts
    }

    @inline(__always)
    func entry<T>(_ type: T.Type) -> Entry {
        let id = ObjectIdentifier(T.self)
        for entry in entries where entry.type == id { return entry }
        return learn(T.self)
    }

    @inline(never)
    private func learn<T>(_ type: T.Type) -> Entry {
        let direct = T.self as? any DirectTreeDecodable.Type
        let entry = Entry(
            type: ObjectIdentifier(T.self), direct: direct,
            elementHint: direct == nil ? (T.self as? any ElementHinted.Type)?.elementHint : nil)
        if entries.count < 64 { entries.append(entry) }
        return entry
    }
}
