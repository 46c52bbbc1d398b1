import Foundation
import Testing

@testable import BinarySerialization

/// A thread's decoding cache keeps the decoders of its finished runs, and each decoder refers to
/// the cache: when the thread ends, the cache lets go of them (``ThreadEndObserver``), and both
/// are freed rather than left keeping each other alive.
@Suite struct ThreadCacheTeardownTests {
    struct Node: Codable, Equatable {
        var value: Int
        var child: [Node]
    }

    final class Weak: @unchecked Sendable {
        weak var cache: DecodingThreadCache?
    }

    /// Runs `body` on a new thread and returns once that thread has ended (its thread-local
    /// objects released).
    static func onEndedThread(_ body: @escaping () -> Void) {
        final class Job {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
                return nil
            }, job)
        #expect(started == 0)
        if started == 0 { pthread_join(thread, nil) }
    }

    @Test func aThreadsCacheIsFreedWhenTheThreadEnds() throws {
        var value = Node(value: 0, child: [])
        for level in 1...40 { value = Node(value: level, child: [value]) }
        let tree = try TreeEncoder().encodeTree(value)
        let weak = Weak()
        let decoded = Weak()
        Self.onEndedThread {
            // Decoded twice: the first run's decoder is kept as a spare and reused.
            for _ in 0..<2 {
                if (try? BinaryDecoder().decode(Node.self, fromTree: tree)) == value { decoded.cache = .current }
            }
            weak.cache = .current
        }
        #expect(decoded.cache == nil, "the cache outlived its thread")
        #expect(weak.cache == nil, "the cache outlived its thread")
    }
}
