import BinarySerialization
import Foundation

/// Whether writing a hand-built tree at the default node limit (4 × `maximumDepth` nested
/// nodes: a container, a single-value and an optional wrapper per level) fits the 512 KiB stack of
/// a secondary thread on Apple systems, in both formats. The writer recurses once per node; a
/// release build is what users run (a debug build's frames are several times larger).
enum StackCheck {
    static let stackBytes = 512 << 10

    /// The tree: a keyed container, an unkeyed one, a single-value and an optional wrapper, in
    /// turn, `nodes` deep.
    static func tree(nodes: Int) -> BinaryValue {
        var tree: BinaryValue = .int(1)
        for i in 0..<nodes {
            switch i % 4 {
            case 0: tree = .keyed(KeyedFields([(BinaryKey(stringValue: "n"), tree)]))
            case 1: tree = .unkeyed([.int(2), tree])
            case 2: tree = .single(tree)
            default: tree = .optional(tree)
            }
        }
        return tree
    }

    /// Writes the tree on a thread with a 512 KiB stack in both formats; a stack overflow ends the
    /// process (the check's failure). Returns the byte counts.
    static func run() -> [(BinaryFormat, Int)] {
        var results: [(BinaryFormat, Int)] = []
        for format in [BinaryFormat.v3, .v2] {
            var encoder = BinaryEncoder()
            encoder.format = format
            let tree = tree(nodes: 4 * encoder.maximumDepth)
            let count = LockedCount()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread { [encoder] in
                count.set((try? encoder.encode(tree: tree).count) ?? -1)
                done.signal()
            }
            thread.stackSize = stackBytes
            thread.start()
            done.wait()
            results.append((format, count.value))
        }
        return results
    }
}

/// An `Int` handed from the writing thread back, under a lock.
final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = 0
    var value: Int { lock.withLock { stored } }
    func set(_ value: Int) { lock.withLock { stored = value } }
}
