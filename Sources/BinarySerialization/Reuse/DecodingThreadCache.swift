/// What a thread keeps from one decoding run to the next.
///
/// - What the decoder needs to know about a type before decoding it: whether it is decoded
///   directly (``DirectTreeDecodable``) and which element type it announces (``ElementHinted``).
///   Each thread remembers the answers (``TypeFactCache``).
/// - The decoder and keyed container states of its last run (``KeyedStatePool``), so that a run
///   allocates none of them unless it nests deeper than the runs before it, or a type kept the
///   last run's decoder or containers.
/// - The bounds of the thread's stack (``ThreadStack``).
final class DecodingThreadCache: ThreadEndObserver {
    struct Entry {
        let type: ObjectIdentifier
        let direct: (any DirectTreeDecodable.Type)?
        /// Looked up for types that are not decoded directly.
        let array: (any DecodableArray.Type)?
        /// Looked up for types that are not decoded directly (the others never open a container).
        let elementHint: ScalarKind?
        /// A ``ProtobufOneOf`` enum or a map protobuf reads as entries (see
        /// ``ProtobufFormat/facts(_:direct:)``): the one fact the decoder tests per value.
        let protobufSpecial: Bool
        /// A collection of numbers (``ProtobufFormat/hasNumberElements(_:)``).
        let protobufNumbers: Bool
        /// Looked up for types that are not decoded directly. (A metatype: an entry holds no
        /// reference, so reading one costs no retain.)
        let generated: (any GeneratedBinaryCodable.Type)?
    }

    // One thread, and no access stays open across a call out.
    @exclusivity(unchecked) private var entries = TypeFactCache<Entry>()
    /// The thread's stack, which bounds a run's recursion as its `maximumDepth` does.
    let stack = ThreadStack.current()
    /// The keys of the types with generated code this thread decoded.
    @exclusivity(unchecked) var generatedKeys = TypeFactCache<GeneratedKeys>()

    private static let perThread = ThreadLocal<DecodingThreadCache>()

    /// This thread's cache (made on the thread's first decoding).
    static var current: DecodingThreadCache {
        if let cache = perThread.current { return cache }
        let cache = DecodingThreadCache()
        perThread.put(cache)
        return cache
    }

    /// Decoders of finished runs that nothing refers to, idle: one per wire format (a decoder's
    /// format is a constant).
    @exclusivity(unchecked) private var spareDecoders: [TreeDecoderImpl] = []

    /// The decoder for a new run: an earlier run's of the same format if nothing kept it (and
    /// no run is using it: a decode call made from inside `init(from:)` gets its own), else a
    /// new one.
    func decoder(node: DecodingNode, format: (any ByteFormat.Type)?, options: DecodingOptions) -> TreeDecoderImpl {
        let id = format.map { ObjectIdentifier($0) }
        for i in spareDecoders.indices where spareDecoders[i].format.map({ ObjectIdentifier($0) }) == id {
            let spare = spareDecoders.remove(at: i)
            spare.begin(node: node, options: options)
            return spare
        }
        return TreeDecoderImpl(
            node: node, format: format, options: options, session: DecodingSession(),
            threadCache: self)
    }

    /// The spare decoders refer to this cache (their type facts): let go of them when the thread
    /// ends, or the cache and the decoders (with their sessions, states and cursors) would keep
    /// each other alive.
    func threadWillEnd() {
        spareDecoders.removeAll()
    }

    /// Keeps `decoder`, which nothing else refers to, for the thread's next run of its format.
    func keep(_ decoder: TreeDecoderImpl) {
        decoder.idle()
        // A few formats exist; a bound all the same.
        if spareDecoders.count < 8, RetentionLimits.reuses { spareDecoders.append(decoder) }
    }

    /// The most keyed container states and unkeyed cursors a spare decoder keeps: at most
    /// ``RetentionLimits/levels`` each, whatever the thread decoded.
    var keptLevels: (states: Int, cursors: Int) {
        var kept = (states: 0, cursors: 0)
        for decoder in spareDecoders {
            let pool = decoder.session.keyedStates
            kept = (max(kept.states, pool.keptStates), max(kept.cursors, pool.cursors.keptCursors))
        }
        return kept
    }

    @inline(__always)
    func entry<T>(_ type: T.Type) -> Entry {
        if let entry = entries.fact(for: ObjectIdentifier(T.self)) { return entry }
        return learn(T.self)
    }

    @inline(never)
    private func learn<T>(_ type: T.Type) -> Entry {
        let direct = T.self as? any DirectTreeDecodable.Type
        let entry = Entry(
            type: ObjectIdentifier(T.self), direct: direct,
            array: direct == nil ? T.self as? any DecodableArray.Type : nil,
            elementHint: direct == nil ? (T.self as? any ElementHinted.Type)?.elementHint : nil,
            protobufSpecial: ProtobufFormat.facts(T.self, direct: direct) != .plain,
            protobufNumbers: direct == nil && ProtobufFormat.hasNumberElements(T.self),
            generated: direct == nil ? T.self as? any GeneratedBinaryCodable.Type : nil)
        if RetentionLimits.reuses { entries.remember(entry, for: entry.type) }
        return entry
    }
}
