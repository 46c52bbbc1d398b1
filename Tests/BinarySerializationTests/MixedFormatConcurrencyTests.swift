import BinarySerialization
import Dispatch
import Foundation
import Testing

/// Each thread keeps one scratch state per format (sinks, container pools, type facts) that every
/// run resets. Many threads run every format's operations interleaved, failures included (a value
/// protobuf refuses, bytes that do not decode), and each result must equal the one computed on a
/// single thread first: no run sees state another run left. CI runs this suite under
/// ThreadSanitizer.
@Suite struct MixedFormatConcurrencyTests {
    struct Message: Codable, Equatable, Sendable {
        var id: Int64
        var name: String
        var note: String?
        var scores: [Int32]
        var labels: [String: Int32]
        var children: [Message]
        var pick: Pick?
        enum Pick: Codable, Equatable, Sendable, ProtobufOneOf {
            case number(Int64)
            case text(String)
            enum CodingKeys: Int, CodingKey { case number = 20, text = 21 }
        }
        enum CodingKeys: Int, CodingKey { case id = 1, name, note, scores, labels, children, pick = 100 }
    }

    /// Synthesized string keys: protobuf refuses it, v3 and v2 write it.
    struct Named: Codable, Equatable, Sendable {
        var count: Int32
    }

    static func message(_ i: Int, depth: Int = 2) -> Message {
        Message(
            id: Int64(i) * 7919 - 50_000, name: "message \(i)", note: i % 3 == 0 ? nil : "n\(i)",
            scores: (0..<(i % 5)).map { Int32($0 - 2) * 1_000_003 },
            labels: i % 2 == 0 ? ["a": Int32(i), "b": -1] : [:],
            children: depth == 0 ? [] : (0..<(i % 3)).map { message(i &+ $0, depth: depth - 1) },
            pick: i % 4 == 0 ? nil : i % 4 == 1 ? .number(Int64(-i)) : .text("t\(i)"))
    }

    /// What one round computes, as text, so that results from threads compare with `==`.
    static func results(_ i: Int) -> [String] {
        func text(_ body: () throws -> String) -> String {
            do { return try body() } catch { return "error: \(error)" }
        }
        let value = message(i)
        let protobufEncoder = ProtobufEncoder()
        let protobufDecoder = ProtobufDecoder()
        var v3 = BinaryEncoder()
        v3.sortKeysDuringEncoding = true
        var v2 = BinaryEncoder(format: .v2)
        v2.sortKeysDuringEncoding = true
        return [
            text {
                let data = try protobufEncoder.encode(value)
                let back = try protobufDecoder.decode(Message.self, from: data)
                return "\(data.base64EncodedString()) \(back == value)"
            },
            text {
                let data = try protobufEncoder.encode(value)
                let tree = try protobufDecoder.decodeTree(Message.self, from: data + data)
                return try protobufEncoder.encode(tree: tree).base64EncodedString()
            },
            text { try protobufEncoder.encodeTree(value).description },
            text { try "\(protobufEncoder.encode(Named(count: Int32(i))))" },
            text { try "\(protobufDecoder.decode(Message.self, from: Data([0x0a, 0x05, 0x41])))" },
            text {
                let data = try v3.encode(value)
                return "\(data.base64EncodedString()) \(try BinaryDecoder().decode(Message.self, from: data) == value)"
            },
            text {
                let data = try v2.encode(value)
                let back = try BinaryDecoder(format: .v2).decode(Message.self, from: data)
                return "\(data.base64EncodedString()) \(back == value)"
            },
            text {
                try v3.encode(tree: BinaryDecoder().decodeTree(Message.self, from: v3.encode(value)))
                    .base64EncodedString()
            },
            text { try "\(BinaryDecoder().decode(Message.self, from: v3.encode(value).dropLast()))" },
        ]
    }

    @Test func everyFormatInterleavedOnManyThreads() {
        let expected = (0..<48).map(Self.results)
        // The cases cover what they should: successes and each failure kind.
        #expect(
            expected.allSatisfy { $0[0].hasSuffix(" true") && $0[5].hasSuffix(" true") && $0[6].hasSuffix(" true") })
        #expect(
            expected.allSatisfy { !$0[1].hasPrefix("error") && !$0[2].hasPrefix("error") && !$0[7].hasPrefix("error") })
        #expect(expected.allSatisfy { $0[3].hasPrefix("error: ") && $0[4].hasPrefix("error: ") })
        #expect(expected.allSatisfy { $0[8].hasPrefix("error: ") })
        let mismatches = ConcurrencyTests.Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<60 {
                let i = (thread &* 13 &+ round &* 7) % expected.count
                if Self.results(i) != expected[i] { mismatches.add() }
            }
        }
        #expect(mismatches.value == 0)
    }
}
