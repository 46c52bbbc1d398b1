import Dispatch
import Foundation
import TreeCodableMacros
import XCTest

/// A generated type's keys are made once per thread and type and kept in the engine's type-fact
/// table. Many threads code generated types and their plain twins in every format, interleaved
/// with one another: each must give the bytes and values a single thread computed first.
final class GeneratedConcurrencyTests: XCTestCase {
    /// One round's results as text: bytes in three formats, and whether each reads back.
    private static func results(_ i: Int) -> [String] {
        func text(_ body: () throws -> String) -> String {
            do { return try body() } catch { return "error: \(error)" }
        }
        let point = GeneratedPoint(x: i - 20, y: Double(i) / 4, label: i % 2 == 0 ? nil : "p\(i)", tags: ["t\(i)"])
        let plainPoint = PlainPoint(x: point.x, y: point.y, label: point.label, tags: point.tags)
        let keyed = GeneratedIntKeys(id: UInt32(i), text: "k\(i)", note: i % 3 == 0 ? nil : "n")
        let plainKeyed = PlainIntKeys(id: keyed.id, text: keyed.text, note: keyed.note)
        let inner = Outer.GeneratedInner(point: point, points: [point, point], small: UInt8(i))
        let plainInner = Outer.PlainInner(point: plainPoint, points: [plainPoint, plainPoint], small: UInt8(i))
        let v2 = BinaryEncoder(format: .v2)
        return [
            text {
                let data = try BinaryEncoder().encode(point)
                let same = try data == BinaryEncoder().encode(plainPoint)
                return
                    "\(data.base64EncodedString()) \(same) \(try BinaryDecoder().decode(GeneratedPoint.self, from: data) == point)"
            },
            text {
                let data = try v2.encode(inner)
                let same = try data == v2.encode(plainInner)
                let back = try BinaryDecoder(format: .v2).decode(Outer.GeneratedInner.self, from: data)
                return "\(data.base64EncodedString()) \(same) \(back == inner)"
            },
            text {
                let data = try ProtobufEncoder().encode(keyed)
                let same = try data == ProtobufEncoder().encode(plainKeyed)
                let back = try ProtobufDecoder().decode(GeneratedIntKeys.self, from: data)
                return "\(data.base64EncodedString()) \(same) \(back == keyed)"
            },
            text { try "\(BinaryDecoder().decode(GeneratedIntKeys.self, from: BinaryEncoder().encode(point)))" },
        ]
    }

    func testGeneratedTypesInterleavedOnManyThreads() {
        let expected = (0..<32).map(Self.results)
        for row in expected {
            for result in row.prefix(3) { XCTAssertTrue(result.hasSuffix(" true true"), result) }
            XCTAssertTrue(row[3].hasPrefix("error: DecodingError"), row[3])
        }
        let mismatches = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                let i = (thread &* 11 &+ round &* 5) % expected.count
                if Self.results(i) != expected[i] { mismatches.add() }
            }
        }
        XCTAssertEqual(mismatches.value, 0)
    }

    /// A counter for results from `concurrentPerform`.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func add() {
            lock.lock()
            count += 1
            lock.unlock()
        }
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
    }
}
