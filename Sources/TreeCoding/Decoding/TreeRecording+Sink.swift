extension TreeRecording {
    /// Sends the recorded tree (``tree``) to `sink` as the events of an encoding run, without
    /// building it: a transcoder writes the target bytes straight from the recording.
    ///
    /// Keyed and unkeyed containers are bracketed; leaves, unread fields and wrappers are sent
    /// whole. The fields and elements are those ``resolved(_:)`` puts in the tree, in the same order.
    package func send(to sink: any EncodingSink) {
        send(Self.rootSlot, to: sink)
    }

    /// Sends the node at `slot`; a slot where nothing was read stands for an empty keyed
    /// container, as in the tree.
    private func send(_ slot: Int, to sink: any EncodingSink) {
        switch slots[slot].content {
        case .empty:
            sink.value(.emptyKeyed)
        case .leaf(let value):
            sink.value(value)
        case .keyed(let k):
            sink.begin(.keyed)
            sendFields(keyed[k], to: sink)
            sink.end()
        case .unkeyed(let u):
            sink.begin(.unkeyed)
            for element in unkeyed[u] { send(element, to: sink) }
            sink.end()
        case .single, .optional:
            // Whole: the sink's wrappers never hold a bare nil, and these are rare.
            sink.value(resolved(slot) ?? .emptyKeyed)
        }
    }

    /// The fields ``forEachField(_:_:)`` lists, as the tree holds them.
    private func sendFields(_ record: Keyed, to sink: any EncodingSink) {
        forEachField(record) { key, field in
            sink.key(key)
            switch field {
            case .read(let slot): send(slot, to: sink)
            case .value(let value): sink.value(value)
            }
        }
    }
}
