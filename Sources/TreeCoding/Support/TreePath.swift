/// One step down a coding path: a key of a keyed container or an index of an unkeyed one.
package enum PathStep: Sendable {
    case key(BinaryKey)
    case index(Int)

    /// The step as it appears in a coding path.
    package var codingKey: BinaryKey {
        switch self {
        case .key(let key): return key
        case .index(let index): return .index(index)
        }
    }
}

/// The coding path of a value the tree coders read or write: an immutable linked list of steps
/// from the root, so that a nested value's path shares its parent's. The `[CodingKey]` array is
/// built only when someone asks for it (a `codingPath` getter or an error).
struct TreePath {
    /// The last step and the path before it.
    private final class Link {
        let step: PathStep
        let parent: Link?

        init(step: PathStep, parent: Link?) {
            self.step = step
            self.parent = parent
        }
    }

    private let last: Link?

    /// The empty path.
    static var root: TreePath { TreePath(last: nil) }

    /// Whether the path is empty: the value is the one the call asked for, or an optional's or
    /// single-value container's content at the top.
    var isRoot: Bool { last == nil }

    /// This path followed by `step` (this path for `nil`).
    func appending(_ step: PathStep?) -> TreePath {
        guard let step else { return self }
        return TreePath(last: Link(step: step, parent: last))
    }

    /// This path followed by `key`.
    func appending(_ key: some CodingKey) -> TreePath {
        appending(.key(BinaryKey(key)))
    }

    /// The path from the root, as `Codable` reports it.
    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var link = last
        while let current = link {
            keys.append(current.step.codingKey)
            link = current.parent
        }
        return keys.reversed()
    }

    /// The coding path of this path followed by `step`.
    func codingPath(appending step: PathStep?) -> [any CodingKey] {
        appending(step).codingPath
    }
}
