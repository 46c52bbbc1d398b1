import Testing

@testable import BinarySerialization

// The per-thread table of answers about types: every type a thread meets keeps its answer
// (the table grows past its first size, up to its maximum), no type gets another's answer, and
// past the maximum the table stays at its size.
@Suite struct TypeFactCacheTests {
    /// `count` distinct identities (the objects stay alive, so their addresses stay distinct).
    private func identities(_ count: Int) -> (keep: [AnyObject], ids: [ObjectIdentifier]) {
        final class Token {}
        let objects: [AnyObject] = (0..<count).map { _ in Token() }
        return (objects, objects.map { ObjectIdentifier($0) })
    }

    @Test func keepsEveryAnswerPastTheFirstSize() {
        let (keep, ids) = identities(500)
        var cache = TypeFactCache<Int>()
        #expect(cache.capacity == TypeFactCache<Int>.initialCapacity)
        for (i, id) in ids.enumerated() { cache.remember(i, for: id) }
        for (i, id) in ids.enumerated() { #expect(cache.fact(for: id) == i) }
        #expect(cache.capacity > TypeFactCache<Int>.initialCapacity)
        #expect(cache.capacity <= TypeFactCache<Int>.maximumCapacity)
        withExtendedLifetime(keep) {}
    }

    @Test func boundedPastTheMaximum() {
        let (keep, ids) = identities(3 * TypeFactCache<Int>.maximumCapacity)
        var cache = TypeFactCache<Int>()
        for (i, id) in ids.enumerated() { cache.remember(i, for: id) }
        #expect(cache.capacity == TypeFactCache<Int>.maximumCapacity)
        var found = 0
        for (i, id) in ids.enumerated() {
            guard let fact = cache.fact(for: id) else { continue }
            #expect(fact == i)  // never another type's answer
            found += 1
        }
        #expect(found > 0 && found <= TypeFactCache<Int>.maximumCapacity)
        // One not remembered reads as unknown.
        let (other, otherIDs) = identities(1)
        #expect(cache.fact(for: otherIDs[0]) == nil)
        withExtendedLifetime((keep, other)) {}
    }
}
