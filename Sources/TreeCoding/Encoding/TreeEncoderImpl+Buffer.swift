/// The container an encoder (or a nested container) is building: each write is one access to
/// ``EncoderState``.
extension TreeEncoderImpl {
    /// Stores `value` for `key`, replacing an earlier value in place.
    @inline(__always)
    func setField(_ value: BinaryValue, for key: BinaryKey) {
        if state.setField(value, for: key).wasFinished { noteLateWrite() }
    }

    /// Reserves `key` for a nested container or encoder whose content comes later.
    func setPendingField(_ child: TreeEncoderImpl, for key: BinaryKey) {
        if state.setPendingField(child, for: key) { noteLateWrite() }
    }

    /// Appends an element of an unkeyed container.
    @inline(__always)
    func appendElement(_ value: BinaryValue) {
        if state.append(value) { noteLateWrite() }
    }

    /// Reserves the next element for a nested container or encoder whose content comes later.
    func appendPendingElement(_ child: TreeEncoderImpl) {
        if state.appendPending(child) { noteLateWrite() }
    }

    /// A write into a container whose value was already folded into its parent: it cannot reach
    /// the output, so the run fails instead of dropping it.
    @inline(never)
    func noteLateWrite() {
        options.noteLateWrite(at: codingPath)
    }

    func finishKeyed(_ fields: [KeyedFields.Field], pending: [(position: Int, child: TreeEncoderImpl)]) throws
        -> BinaryValue
    {
        var fields = fields
        for (position, child) in pending {
            fields[position].value = try child.finish(for: child.codingPath.last?.stringValue ?? "")
        }
        let result = KeyedFields(uniqueFields: fields)
        return .keyed(sortKeys ? result.sortedByKey() : result)
    }

    func finishUnkeyed(_ values: [BinaryValue], pending: [(position: Int, child: TreeEncoderImpl)]) throws
        -> BinaryValue
    {
        var values = values
        for (position, child) in pending {
            values[position] = try child.finish(for: child.codingPath.last?.stringValue ?? "")
        }
        return .unkeyed(values)
    }
}
