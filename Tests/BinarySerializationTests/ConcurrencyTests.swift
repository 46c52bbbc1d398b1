import BinarySerialization
import Dispatch
import Foundation
import Testing

/// The coders are `Sendable`: one encoder and one decoder shared by many threads give every
/// thread the right bytes and values. CI runs this suite under ThreadSanitizer.
@Suite struct ConcurrencyTests {
    struct Record: Codable, Equatable, Sendable {
        var id: Int
        var name: String
        var tags: [String: Int]
        var values: [Double]
        var child: [Record]?
    }

    static func record(_ i: Int) -> Record {
        Record(
            id: i, name: "record \(i)", tags: ["a": i, "b": -i], values: (0..<(i % 7)).map { Double($0) / 3 },
            child: i % 3 == 0 ? [Record(id: -i, name: "", tags: [:], values: [], child: nil)] : nil)
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func sharedEncoderAndDecoderAcrossThreads(_ format: BinaryFormat) throws {
        var sorted = BinaryEncoder(format: format)
        sorted.sortKeysDuringEncoding = true
        let encoder = sorted
        let decoder = BinaryDecoder(format: format)
        let expected = try (0..<64).map { try encoder.encode(Self.record($0)) }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            for round in 0..<20 {
                let n = (i + round) % 64
                do {
                    let data = try encoder.encode(Self.record(n))
                    let tree = try encoder.encodeTree(Self.record(n))
                    if data != expected[n] { failures.add() }
                    if try decoder.decode(Record.self, from: data) != Self.record(n) { failures.add() }
                    if try decoder.decode(Record.self, fromTree: tree) != Self.record(n) { failures.add() }
                    if try encoder.encode(tree: decoder.decodeTree(Record.self, from: data)) != data { failures.add() }
                } catch {
                    failures.add()
                }
            }
        }
        #expect(failures.value == 0)
    }

    @Test func sharedStreamDecoderAcrossThreads() throws {
        let stream = BinaryStreamDecoder<Record>()
        let encoder = BinaryStreamEncoder<Record>()
        let chunks = try (0..<200).map { try encoder.encode(Self.record($0)) }
        let decoded = Counter()
        // Each thread adds whole elements and decodes what is there: no element is lost or torn.
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for i in stride(from: t, to: chunks.count, by: 8) {
                stream.add(chunks[i])
                while let element = try? stream.decodeElement(), element.id >= 0 { decoded.add() }
            }
        }
        while (try? stream.decodeElement()) != nil { decoded.add() }
        #expect(decoded.value == chunks.count)
        #expect(!stream.hasPartialElement)
    }

    /// A counter for results from `concurrentPerform`.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() { lock.locked { count += 1 } }
        var value: Int { lock.locked { count } }
    }
}

extension NSLock {
    /// `withLock` for every platform the package supports (`NSLocking.withLock` needs macOS 14).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
