/// One step down a coding path: a key of a keyed container or an index of an unkeyed one.
package enum PathStep: Sendable {
    case key(BinaryKey)
    case index(Int)

    package var codingKey: BinaryKey {
        switch self {
        case .key(let k): return k
        case .index(let i): return BinaryKey(stringValue: "Index \(i)", intValue: i)
        }
    }
}

/// A coding path as a linked list: pushing a step is O(1) and shares the parent; the
/// `[CodingKey]` array is built only when someone asks for `codingPath` (a getter or an error).
package enum CodingPathNode {
    case root
    indirect case step(PathStep, CodingPathNode, depth: Int)
    /// The path of a keyed decoding container: its state holds the parent and the step, so a
    /// value decoded inside it costs no node (an allocation) unless someone asks for its path.
    /// Holding the state keeps the decoder from reusing it for another container.
    case keyedContainer(KeyedContainerState)

    @inline(__always)
    package func appending(_ step: PathStep?) -> CodingPathNode {
        guard let step else { return self }
        return .step(step, self, depth: depth + 1)
    }

    @inline(__always)
    package func appending(_ key: some CodingKey) -> CodingPathNode {
        .step(.key(BinaryKey(key)), self, depth: depth + 1)
    }

    package var depth: Int {
        switch self {
        case .root: return 0
        case .step(_, _, let d): return d
        case .keyedContainer(let state): return state.parent.depth + (state.step == nil ? 0 : 1)
        }
    }

    /// The path from the root, as `Codable` reports it.
    package var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root:
                return keys.reversed()
            case .step(let s, let parent, _):
                keys.append(s.codingKey)
                node = parent
            case .keyedContainer(let state):
                if let s = state.step { keys.append(s.codingKey) }
                node = state.parent
            }
        }
    }

    package func path(appending step: PathStep?) -> [any CodingKey] {
        appending(step).path
    }
}

/// Renders a coding path the way error messages show it: `items[3].name`.
package func describe(_ path: [any CodingKey]) -> String {
    if path.isEmpty { return "<root>" }
    var out = ""
    for key in path {
        if let i = key.intValue, key.stringValue == "Index \(i)" {
            out += "[\(i)]"
        } else {
            if !out.isEmpty { out += "." }
            out += key.stringValue
        }
    }
    return out
}
