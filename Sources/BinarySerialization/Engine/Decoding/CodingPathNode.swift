/// A coding path as a linked list: pushing a step is O(1) and shares the parent; the
/// `[CodingKey]` array is built only when someone asks for `codingPath` (a getter or an error).
enum CodingPathNode {
    case root
    indirect case step(PathStep, CodingPathNode)
    /// The path of a keyed decoding container: an object its state keeps from one container to
    /// the next holds the parent and the step, so a value decoded inside it costs no node (an
    /// allocation) unless someone asks for its path. A path node holding it keeps the state from
    /// changing it (see ``ContainerPath``).
    case keyedContainer(ContainerPath)

    @inline(__always)
    func appending(_ step: PathStep?) -> CodingPathNode {
        guard let step else { return self }
        return .step(step, self)
    }

    @inline(__always)
    func appending(_ key: some CodingKey) -> CodingPathNode {
        .step(.key(BinaryKey(key)), self)
    }

    /// Whether the path is empty (the top level). A loop, not a recursion: a path is as long as
    /// the input is deep.
    var isEmpty: Bool {
        var node = self
        while true {
            switch node {
            case .root: return true
            case .step: return false
            case .keyedContainer(let container):
                guard container.step == nil else { return false }
                node = container.parent
            }
        }
    }

    /// The path from the root, as `Codable` reports it.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root:
                return keys.reversed()
            case .step(let s, let parent):
                keys.append(s.codingKey)
                node = parent
            case .keyedContainer(let container):
                if let s = container.step { keys.append(s.codingKey) }
                node = container.parent
            }
        }
    }

    func path(appending step: PathStep?) -> [any CodingKey] {
        appending(step).path
    }
}

/// The coding path of a keyed decoding container, `parent` then `step`: an object of its own,
/// so that the path nodes of the values decoded in the container refer to it and not to the
/// container's state. A state is reused when no container refers to it; it reuses its path object
/// only when nothing refers to that either (a decoder or container kept past its value reports the
/// path it had).
final class ContainerPath {
    @exclusivity(unchecked) private(set) var parent: CodingPathNode = .root
    @exclusivity(unchecked) private(set) var step: PathStep?

    init() {}

    func set(parent: CodingPathNode, step: PathStep?) {
        self.parent = parent
        self.step = step
    }
}
