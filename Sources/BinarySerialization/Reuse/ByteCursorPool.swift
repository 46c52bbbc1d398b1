/// The cursors of a decoding run's unkeyed containers (formats whose elements carry no lengths),
/// reused once nothing refers to them any more (`isKnownUniquelyReferenced`: the pool's reference
/// is the only one), so that a container costs no allocation. Containers are opened one inside the
/// other or one after the other, so the pool looks at the cursor it handed out last (a finished
/// sibling's) and the next one (a nested container's, from an earlier value or run); any other
/// pattern gets a new cursor, as without the pool.
final class ByteCursorPool {
    /// The cursors, in memory of the pool's own and read in place (as ``KeyedStatePool``'s
    /// slots): an array's element was checked for uniqueness through the array's own
    /// uniqueness check and bounds checks, about 40 instructions per container.
    @exclusivity(unchecked) private var cursors: UnsafeMutablePointer<ByteCursor>
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var capacity = 4
    /// The cursors from `next` on are not in use by the containers opened so far in the run.
    /// One is kept per level of nesting reached, as the keyed container states are (bounded by
    /// the decoder's maximum depth): a cap of 64 made each unkeyed container deeper than that
    /// allocate its cursor in every run (936 allocations per P5 depth-1,000 v2 decode).
    @exclusivity(unchecked) private var next = 0

    init() {
        cursors = .allocate(capacity: capacity)
    }

    deinit {
        cursors.deinitialize(count: count)
        cursors.deallocate()
    }

    /// A cursor at `offset` in a container that ends at `end`, with its format-defined state.
    func cursor(offset: Int, end: Int, absentIndices: [Int], elementHint: ScalarKind?) -> ByteCursor {
        // The cursor is read into a local once: the reference returned is the only one taken.
        if next > 0, isKnownUniquelyReferenced(&cursors[next - 1]) {
            let cursor = cursors[next - 1]
            cursor.reset(offset: offset, end: end, absentIndices: absentIndices, elementHint: elementHint)
            return cursor
        }
        if next < count, isKnownUniquelyReferenced(&cursors[next]) {
            let cursor = cursors[next]
            cursor.reset(offset: offset, end: end, absentIndices: absentIndices, elementHint: elementHint)
            next += 1
            return cursor
        }
        return added(ByteCursor(offset: offset, end: end, absentIndices: absentIndices, elementHint: elementHint))
    }

    /// `cursor` kept at `next` (in place of one a container still holds, or appended).
    @inline(never)
    private func added(_ cursor: ByteCursor) -> ByteCursor {
        if next < count {
            cursors[next] = cursor
        } else {
            if count == capacity { (cursors, capacity) = doubled(cursors, count: count, capacity: capacity) }
            (cursors + count).initialize(to: cursor)
            count += 1
        }
        next += 1
        return cursor
    }

    /// The cursors kept for the next run.
    var keptCursors: Int { count }

    /// Ends a run: every cursor no container kept is free again. The run's cursors let go of
    /// their lists, and past ``RetentionLimits/levels`` the cursors themselves go.
    func endRun() {
        // `next` only grows during a run: the run used the cursors below it.
        let used = min(next, count)
        for i in 0..<used where isKnownUniquelyReferenced(&cursors[i]) { cursors[i].forget() }
        if count > RetentionLimits.levels {
            (cursors + RetentionLimits.levels).deinitialize(count: count - RetentionLimits.levels)
            count = RetentionLimits.levels
        }
        if capacity > RetentionLimits.levels {
            cursors = shrunk(cursors, count: count, to: RetentionLimits.levels)
            capacity = RetentionLimits.levels
        }
        next = 0
    }
}
