import Testing

@testable import BinarySerialization

/// The cursors of v2's unkeyed containers (``ByteCursorPool``): one is kept per level of nesting,
/// however deep, and handed out again in the next run instead of a new one.
@Suite struct ByteCursorPoolTests {
    /// `count` cursors held at once, as nested containers hold them.
    static func nested(_ pool: ByteCursorPool, count: Int) -> [ByteCursor] {
        var held: [ByteCursor] = []
        for level in 0..<count {
            held.append(pool.cursor(offset: level, end: 10_000 + level, absentIndices: [], elementHint: nil))
        }
        return held
    }

    final class Weak {
        weak var cursor: ByteCursor?
        init(_ cursor: ByteCursor) { self.cursor = cursor }
    }

    @Test(arguments: [1, 64, 65, 300])
    func aSecondRunReusesEveryLevelsCursor(depth: Int) {
        let pool = ByteCursorPool()
        // Weak references: a cursor the pool did not keep is freed once the run's containers
        // let go of it (an address could be reused, an identity cannot).
        let first = Self.nested(pool, count: depth).map(Weak.init)
        pool.endRun()
        #expect(first.filter { $0.cursor == nil }.count == 0, "cursors the pool did not keep")
        let again = Self.nested(pool, count: depth)
        let reused = zip(first, again).filter { $0.cursor === $1 }.count
        #expect(reused == depth)
        #expect(again.map(\.offset) == Array(0..<depth))
        #expect(again.map(\.end) == (0..<depth).map { 10_000 + $0 })
    }

    /// A cursor a container still holds after its run is not handed out again.
    @Test func aCursorHeldPastItsRunIsNotReused() {
        let pool = ByteCursorPool()
        let first = Self.nested(pool, count: 3)
        let kept = first[1]
        _ = consume first
        pool.endRun()
        let again = Self.nested(pool, count: 3)
        #expect(!again.contains { $0 === kept })
        #expect(kept.offset == 1)
    }

    /// A cursor handed out again carries the new container's format-defined state, not the last
    /// one's: its nil indices, how far they were read, and its element hint.
    @Test func aReusedCursorTakesTheNewContainersState() {
        let pool = ByteCursorPool()
        let first = pool.cursor(offset: 0, end: 9, absentIndices: [1, 3], elementHint: .int8)
        first.nextAbsent = 1
        let firstID = ObjectIdentifier(first)
        _ = consume first
        pool.endRun()
        let again = pool.cursor(offset: 4, end: 7, absentIndices: [], elementHint: nil)
        #expect(ObjectIdentifier(again) == firstID, "the pool hands the cursor out again")
        #expect(again.absentIndices.isEmpty)
        #expect(again.nextAbsent == 0)
        #expect(again.elementHint == nil)
        #expect((again.offset, again.end) == (4, 7))
        let third = pool.cursor(offset: 1, end: 2, absentIndices: [0], elementHint: .double)
        #expect(third.absentIndices == [0])
        #expect(third.elementHint == .double)
    }
}
