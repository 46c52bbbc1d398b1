/// How much a thread's reused coding state may keep between runs.
///
/// Every pool and scratch a thread keeps is trimmed to these limits when a run ends, and each
/// run's trimming touches only what that run used: neither the memory kept nor the work per call
/// grows with the deepest or largest value the thread ever coded. Values within the limits reuse
/// everything; a deeper or larger one allocates what it needs beyond them for its own run.
enum RetentionLimits {
    /// Whether state is kept from one run to the next at all. Building with
    /// `-Xswiftc -DTREECODABLE_NO_REUSE` turns every cross-run reuse off (spare decoders, the
    /// streaming scratch, kept container boxes, remembered type facts), so that the test suite can
    /// show the reuse changes no result; CI runs it both ways.
    #if TREECODABLE_NO_REUSE
        static var reuses: Bool { false }
    #else
        static var reuses: Bool { true }
    #endif

    /// Nesting levels whose container states, cursors and boxes are kept (the default maximum
    /// depth, so values within the default limits never allocate them again).
    static var levels: Int { 512 }
    /// Entries a kept keyed container state keeps room for.
    static var entriesPerLevel: Int { 256 }
}

extension Array {
    /// Empties the array for the next run, keeping its memory unless it holds more than
    /// `capacity` elements' worth (a thread keeps its sinks between calls).
    mutating func removeAll(keepingCapacityUpTo capacity: Int) {
        if self.capacity > capacity {
            self = []
        } else if !isEmpty {
            removeAll(keepingCapacity: true)
        }
    }

    /// Lets go of the array's memory if it has room for more than `capacity` elements.
    mutating func releaseStorage(beyond capacity: Int) {
        if self.capacity > capacity { self = [] }
    }
}
