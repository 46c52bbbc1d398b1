/// Answers about types (conformance checks) a thread's coder remembers from run to run.
///
/// The runtime answers a conformance check with a look-up of a few hundred instructions, and a
/// type's conformances never change. A table of ``capacity`` slots, addressed by the type's
/// metadata pointer and probed linearly for a few slots, answers in a few instructions whatever
/// the number of types a thread has seen; a type that finds no free slot is looked up each time
/// (a constant cost, no cliff), and the memory is fixed.
struct TypeFactCache<Fact> {
    private var slots: [(type: ObjectIdentifier, fact: Fact)?]

    static var capacity: Int { 256 }
    private static var probes: Int { 4 }

    init() {
        slots = Array(repeating: nil, count: Self.capacity)
    }

    @inline(__always)
    private static func home(_ type: ObjectIdentifier) -> Int {
        // Metadata is at least 16-byte aligned: the low bits carry nothing.
        let bits = UInt(bitPattern: type)
        return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12)) & (capacity &- 1)
    }

    /// The fact remembered for `type`, or `nil`.
    @inline(__always)
    func fact(for type: ObjectIdentifier) -> Fact? {
        var slot = Self.home(type)
        for _ in 0..<Self.probes {
            guard let entry = slots[slot] else { return nil }
            if entry.type == type { return entry.fact }
            slot = (slot &+ 1) & (Self.capacity &- 1)
        }
        return nil
    }

    /// Remembers `fact` for `type` in a free slot near its home, if there is one.
    mutating func remember(_ fact: Fact, for type: ObjectIdentifier) {
        var slot = Self.home(type)
        for _ in 0..<Self.probes {
            if slots[slot] == nil {
                slots[slot] = (type, fact)
                return
            }
            slot = (slot &+ 1) & (Self.capacity &- 1)
        }
    }
}
