/// Answers about types (conformance checks) a thread's coder remembers from run to run.
///
/// The runtime answers a conformance check with a look-up of a few hundred instructions, and a
/// type's conformances never change. A table addressed by the type's metadata pointer and probed
/// linearly for a few slots answers in a few instructions. It starts at ``initialCapacity`` slots
/// and doubles when a type finds no free slot near its home, up to ``maximumCapacity``: a thread
/// that codes hundreds of types keeps every one's answer, so none of them pays the runtime's
/// look-up per call, and the memory stays bounded. Past the maximum, a type that finds no slot is
/// looked up each time (a constant cost, no cliff).
struct TypeFactCache<Fact> {
    private var slots: [(type: ObjectIdentifier, fact: Fact)?]
    /// `slots.count - 1`; the count is a power of two.
    private var mask: Int
    /// `64 - log2(slots.count)`: a home is the top bits of the hashed address.
    private var shift: UInt64

    static var initialCapacity: Int { 256 }
    static var maximumCapacity: Int { 4096 }
    private static var probes: Int { 8 }

    init() {
        slots = Array(repeating: nil, count: Self.initialCapacity)
        mask = Self.initialCapacity &- 1
        shift = UInt64(64 &- Self.initialCapacity.trailingZeroBitCount)
    }

    /// The number of slots.
    var capacity: Int { slots.count }

    @inline(__always)
    private func home(_ type: ObjectIdentifier) -> Int {
        // Multiplicative hashing: the top bits of the product depend on every bit of the address,
        // so types laid out at a regular stride still spread over the table.
        let bits = UInt64(UInt(bitPattern: type))
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The fact remembered for `type`, or `nil`.
    @inline(__always)
    func fact(for type: ObjectIdentifier) -> Fact? {
        var slot = home(type)
        for _ in 0..<Self.probes {
            guard let entry = slots[slot] else { return nil }
            if entry.type == type { return entry.fact }
            slot = (slot &+ 1) & mask
        }
        return nil
    }

    /// Remembers `fact` for `type` in a free slot near its home, doubling the table (up to the
    /// maximum) when there is none.
    mutating func remember(_ fact: Fact, for type: ObjectIdentifier) {
        while !insert(fact, for: type) {
            guard slots.count < Self.maximumCapacity else { return }
            grow()
        }
    }

    /// Puts `fact` in a free slot near `type`'s home; `false` when there is none.
    private mutating func insert(_ fact: Fact, for type: ObjectIdentifier) -> Bool {
        var slot = home(type)
        for _ in 0..<Self.probes {
            if slots[slot] == nil {
                slots[slot] = (type, fact)
                return true
            }
            slot = (slot &+ 1) & mask
        }
        return false
    }

    /// Doubles the table and puts the facts back, doubling again while one finds no slot (past
    /// the maximum, such a fact is dropped and learned again).
    @inline(never)
    private mutating func grow() {
        let old = slots
        while true {
            slots = Array(repeating: nil, count: slots.count &* 2)
            mask = slots.count &- 1
            shift &-= 1
            var placed = true
            for case let entry? in old {
                if !insert(entry.fact, for: entry.type) { placed = false }
            }
            if placed || slots.count >= Self.maximumCapacity { return }
        }
    }
}
