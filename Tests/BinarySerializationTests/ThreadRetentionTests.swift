import Foundation
import Testing

@testable import BinarySerialization

/// What a thread keeps between runs is bounded by ``RetentionLimits``, whatever it decoded, and
/// trimming never takes anything from a container a type kept.
@Suite struct ThreadRetentionTests {
    /// A chain whose every `keepEvery`-th level keeps its container in `Kept.containers`.
    struct Chain: Codable, Equatable {
        enum Keys: String, CodingKey { case depth, child }
        var depth: Int
        var child: [Chain]

        static func make(levels: Int) -> Chain {
            var chain = Chain(depth: levels - 1, child: [])
            for depth in stride(from: levels - 2, through: 0, by: -1) { chain = Chain(depth: depth, child: [chain]) }
            return chain
        }

        init(depth: Int, child: [Chain]) {
            self.depth = depth
            self.child = child
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keys.self)
            child = try c.decode([Chain].self, forKey: .child)
            depth = try c.decode(Int.self, forKey: .depth)
            if let kept = decoder.userInfo[Kept.key] as? Kept, depth % kept.every == 0 {
                kept.containers.append((depth, c))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(depth, forKey: .depth)
            try c.encode(child, forKey: .child)
        }
    }

    final class Kept: @unchecked Sendable {
        static let key = CodingUserInfoKey(rawValue: "kept")!
        let every: Int
        var containers: [(depth: Int, container: KeyedDecodingContainer<Chain.Keys>)] = []
        init(every: Int) { self.every = every }
    }

    /// Runs `body` on a new thread with a stack for deep values, and waits until it has ended.
    static func onNewThread(_ body: @escaping () -> Void) {
        final class Job {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 256 << 20)
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, job)
        #expect(started == 0)
        if started == 0 { pthread_join(thread, nil) }
    }

    static func coders(_ format: BinaryFormat) -> (BinaryEncoder, BinaryDecoder) {
        var encoder = BinaryEncoder(format: format)
        encoder.maximumDepth = 10_000
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = 10_000
        return (encoder, decoder)
    }

    /// A chain of 1,500 levels (3,000 containers) decoded from bytes leaves at most
    /// ``RetentionLimits/levels`` states and cursors on the thread; a shallow and another deep
    /// value decode right after it.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func aDeepValueLeavesABoundedPool(format: BinaryFormat) throws {
        let (encoder, decoder) = Self.coders(format)
        let deep = Chain.make(levels: 1_500)
        let shallow = Chain.make(levels: 3)
        let deepBytes = try encoder.encode(deep)
        let shallowBytes = try encoder.encode(shallow)
        Self.onNewThread {
            #expect((try? decoder.decode(Chain.self, from: deepBytes)) == deep)
            let kept = DecodingThreadCache.current.keptLevels
            #expect(kept.states <= RetentionLimits.levels)
            #expect(kept.states > 0 || !RetentionLimits.reuses)
            #expect(kept.cursors <= RetentionLimits.levels)
            #expect((try? decoder.decode(Chain.self, from: shallowBytes)) == shallow)
            #expect((try? decoder.decode(Chain.self, from: deepBytes)) == deep)
            #expect(DecodingThreadCache.current.keptLevels.states <= RetentionLimits.levels)
        }
    }

    /// Containers kept at every 200th level of a deep run (some within the kept levels, some past
    /// them) still read their own values after a deeper run and a shallow one (from a tree), or
    /// throw (from bytes, which are the caller's only during the call), and know their paths.
    @Test(arguments: [BinaryFormat.v3, .v2], [false, true])
    func containersKeptFromADeepRunOutliveTheTrim(format: BinaryFormat, fromTree: Bool) throws {
        var (encoder, decoder) = Self.coders(format)
        let kept = Kept(every: 200)
        decoder.userInfo[Kept.key] = kept
        let first = Chain.make(levels: 1_200)
        let firstBytes = try encoder.encode(first)
        let firstTree = try encoder.encodeTree(first)
        let deeper = try encoder.encode(Chain.make(levels: 1_600))
        let shallow = try encoder.encode(Chain.make(levels: 2))
        let plain = Self.coders(format).1
        Self.onNewThread {
            defer { kept.containers.removeAll() }
            let decoded =
                fromTree
                ? try? decoder.decode(Chain.self, fromTree: firstTree)
                : try? decoder.decode(Chain.self, from: firstBytes)
            #expect(decoded == first)
            let fromFirst = kept.containers
            #expect(fromFirst.map(\.depth) == stride(from: 1_000, through: 0, by: -200).map { $0 })
            #expect((try? plain.decode(Chain.self, from: deeper)) != nil)
            #expect((try? plain.decode(Chain.self, from: shallow)) != nil)
            for (depth, container) in fromFirst {
                #expect(container.codingPath.count == 2 * depth)
                let read = Result { try container.decode(Int.self, forKey: .depth) }
                if fromTree {
                    #expect((try? read.get()) == depth)
                } else {
                    #expect(throws: DecodingError.self) { try read.get() }
                }
            }
        }
    }
}
