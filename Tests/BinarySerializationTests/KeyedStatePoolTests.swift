import Testing

@testable import BinarySerialization

/// The keyed container states of a session (``KeyedStatePool``): slots in the pool's own memory,
/// grown past their first capacity, read in place, and compacted at the end of each run, with
/// containers kept at some depths and not at others.
@Suite struct KeyedStatePoolTests {
    final class Log: @unchecked Sendable {
        var kept: [(depth: Int, container: KeyedDecodingContainer<Chain.Keys>)] = []
        let keepEvery: Int
        init(keepEvery: Int) { self.keepEvery = keepEvery }
        static let key = CodingUserInfoKey(rawValue: "pool")!
    }

    /// A chain of nested values; every `keepEvery`-th level keeps its container in the log, and
    /// reads its own field only after its child is decoded (so the child's containers open while
    /// this one is held).
    struct Chain: Codable {
        enum Keys: String, CodingKey { case depth, child }
        var depth: Int
        var child: Box?

        final class Box: Codable {
            let chain: Chain
            init(_ chain: Chain) { self.chain = chain }
            init(from decoder: any Decoder) throws { chain = try Chain(from: decoder) }
            func encode(to encoder: any Encoder) throws { try chain.encode(to: encoder) }
        }

        init(depth: Int, levels: Int) {
            self.depth = depth
            child = levels > 1 ? Box(Chain(depth: depth + 1, levels: levels - 1)) : nil
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            child = try c.decodeIfPresent(Box.self, forKey: .child)
            depth = try c.decode(Int.self, forKey: .depth)
            if let log = decoder.userInfo[Log.key] as? Log, log.keepEvery > 0, depth % log.keepEvery == 0 {
                log.kept.append((depth, c))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(depth, forKey: .depth)
            try c.encodeIfPresent(child, forKey: .child)
        }

        /// The depths from this level down.
        var depths: [Int] { [depth] + (child?.chain.depths ?? []) }
    }

    func decode(_ tree: BinaryValue, _ log: Log) throws -> Chain {
        var decoder = BinaryDecoder()
        decoder.userInfo[Log.key] = log
        return try decoder.decode(Chain.self, fromTree: tree)
    }

    /// 40 levels (more slots than the pool starts with), every third container kept: each level
    /// reads its own field after its child's containers were opened and closed, twice in a row on
    /// one thread (the second run reuses the compacted pool), and every kept container still
    /// reads its own level and knows its own path.
    @Test(arguments: [0, 1, 3, 7])
    func deepChainsWithKeptContainers(keepEvery: Int) throws {
        let levels = 40
        let tree = try TreeEncoder().encodeTree(Chain(depth: 0, levels: levels))
        for _ in 0..<2 {
            let log = Log(keepEvery: keepEvery)
            // A kept container holds the decoder, whose user info holds the log: break the cycle.
            defer { log.kept.removeAll() }
            #expect(try decode(tree, log).depths == Array(0..<levels))
            let expected = keepEvery == 0 ? [] : (0..<levels).filter { $0 % keepEvery == 0 }
            #expect(log.kept.map(\.depth).sorted() == expected)
            for (depth, container) in log.kept {
                #expect(try container.decode(Int.self, forKey: .depth) == depth)
                #expect(container.codingPath.count == depth)
                #expect(container.codingPath.allSatisfy { $0.stringValue == "child" })
            }
        }
    }

    /// A bad value deep in a chain whose upper containers are kept: the error names the whole
    /// path, read through the pool's states.
    @Test func anErrorDeepBelowKeptContainersNamesTheWholePath() throws {
        var chain: BinaryValue = ["depth": .string("not a number")]
        for depth in (0..<12).reversed() {
            chain = ["depth": .int(depth), "child": chain]
        }
        let log = Log(keepEvery: 2)
        defer { log.kept.removeAll() }
        do {
            _ = try decode(chain, log)
            Issue.record("decoded a string as an Int")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == Array(repeating: "child", count: 12) + ["depth"])
        }
    }
}
