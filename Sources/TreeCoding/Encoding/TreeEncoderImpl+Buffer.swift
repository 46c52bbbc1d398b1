/// The container an encoder (or a nested container) is building.
extension TreeEncoderImpl {
    func reserveFields() {
        fields.reserveCapacity(8)
    }

    /// Stores `value` for `key`, replacing an earlier value in place; returns its position.
    @inline(__always)
    @discardableResult
    func setField(_ value: BinaryValue, for key: BinaryKey) -> Int {
        if isFinished { noteLateWrite() }
        let bit = key.filterBit
        if keyFilter & bit != 0,
            let p = keyIndex?[key] ?? (keyIndex == nil ? fields.firstIndex { $0.key == key } : nil)
        {
            if key.intValue != nil, fields[p].key.stringValue != key.stringValue { noteCollision(fields[p].key, key) }
            fields[p].value = value
            if !pending.isEmpty { pending.removeAll { $0.position == p } }
            return p
        }
        keyFilter |= bit
        fields.append(KeyedFields.Field(key: key, value: value))
        let p = fields.count - 1
        if keyIndex != nil {
            keyIndex?[key] = p
        } else if fields.count > KeyLookup.scanLimit {
            var map = [BinaryKey: Int](minimumCapacity: fields.count * 2)
            for (i, f) in fields.enumerated() { map[f.key] = i }
            keyIndex = map
        }
        return p
    }

    /// Two different keys with the same integer value (`"7"` and `"007"` in a `[String: V]`,
    /// which `Dictionary` gives integer values): the formats store one integer key, so one entry
    /// would be lost. That is an error, not a silent overwrite.
    @inline(never)
    private func noteCollision(_ first: BinaryKey, _ second: BinaryKey) {
        if misuse == nil {
            misuse = """
                The keys "\(first.stringValue)" and "\(second.stringValue)" are both the integer key \
                \(second.intValue ?? 0); the binary formats store integer keys, so one entry would be lost.
                """
        }
    }

    /// Reserves `key` for a nested container or encoder whose content comes later.
    func setPendingField(_ child: TreeEncoderImpl, for key: BinaryKey) {
        let position = setField(.nil, for: key)
        pending.append((position, child))
    }

    /// Appends an element of an unkeyed container.
    @inline(__always)
    func appendElement(_ value: BinaryValue) {
        if isFinished { noteLateWrite() }
        values.append(value)
    }

    /// A write into a container whose value was already folded into its parent: it cannot reach
    /// the output, so the run fails instead of dropping it.
    @inline(never)
    func noteLateWrite() {
        options.noteLateWrite(at: codingPath)
    }

    /// Reserves the next element for a nested container or encoder whose content comes later.
    func appendPendingElement(_ child: TreeEncoderImpl) {
        pending.append((values.count, child))
        appendElement(.nil)
    }

    func finishKeyed() throws -> BinaryValue {
        for (position, child) in pending {
            fields[position].value = try child.finish(for: child.codingPath.last?.stringValue ?? "")
        }
        pending.removeAll()
        let result = KeyedFields(uniqueFields: fields)
        return .keyed(sortKeys ? result.sortedByKey() : result)
    }

    func finishUnkeyed() throws -> BinaryValue {
        for (position, child) in pending {
            values[position] = try child.finish(for: child.codingPath.last?.stringValue ?? "")
        }
        pending.removeAll()
        return .unkeyed(values)
    }
}
