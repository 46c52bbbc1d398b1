/// What a keyed decoding container reads: its view, coding path and search position.
///
/// The container (``TreeKeyedDecodingContainer``) holds only a reference to this object. The
/// standard library's container box copies the container on every call it forwards, so one
/// reference costs one retain, where the view and path inline cost several, and their
/// destruction as much again.
///
/// A decoding run keeps these objects in a ``KeyedStatePool`` and reuses one once no container
/// refers to it any more, with the capacity of its entry storage: opening a container allocates
/// nothing but the standard library's box.
final class KeyedContainerState {
    @exclusivity(unchecked) var impl: TreeDecoderImpl
    @exclusivity(unchecked) var path: CodingPathNode
    @exclusivity(unchecked) var view: DecodingNode.KeyedView
    /// Where the next search of the stored entries starts: after the last entry found.
    @exclusivity(unchecked) var hint = 0
    /// The byte entries of ``view``, kept with their capacity from one use to the next.
    @exclusivity(unchecked) private var storage: [ByteKeyedView.Entry] = []

    init(impl: TreeDecoderImpl) {
        self.impl = impl
        self.path = .root
        self.view = Self.closed
    }

    /// Opens the keyed container stored in `node`.
    func open(_ node: inout DecodingNode, impl: TreeDecoderImpl, path: CodingPathNode) throws {
        self.impl = impl
        self.path = path
        hint = 0
        // The last view shares `storage`; dropping it first lets the entries be reused in place.
        view = Self.closed
        view = try node.keyedView(impl.format, storage: &storage)
    }

    private static var closed: DecodingNode.KeyedView { .tree(TreeKeyedView(fields: KeyedFields())) }

    /// The value node for `key`, or `nil` when absent.
    @inline(__always)
    func node(forKey key: some CodingKey) -> DecodingNode? {
        view.node(forKey: key, hint: &hint)
    }
}

/// The keyed container states of one decoding run, as a stack: the containers a value's
/// `init(from:)` opened are done with once it returns, and their states are reused for the next
/// value's, unless a container was kept (then its state stays with it and a new one takes its
/// place).
final class KeyedStatePool {
    @exclusivity(unchecked) private var states: [KeyedContainerState] = []
    /// The number of states handed out to values still being decoded.
    @exclusivity(unchecked) var inUse = 0

    /// A state for a container opened on `node`.
    func open(_ node: inout DecodingNode, impl: TreeDecoderImpl, path: CodingPathNode) throws
        -> KeyedContainerState
    {
        let state: KeyedContainerState
        if inUse < states.count, isKnownUniquelyReferenced(&states[inUse]) {
            state = states[inUse]
        } else {
            state = KeyedContainerState(impl: impl)
            if inUse < states.count { states[inUse] = state } else { states.append(state) }
        }
        try state.open(&node, impl: impl, path: path)
        inUse += 1
        return state
    }

    /// Drops every state (each refers to its decoder, which refers to the pool).
    func removeAll() {
        states.removeAll()
        inUse = 0
    }
}
