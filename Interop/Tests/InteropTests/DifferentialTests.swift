import BinarySerialization
import Foundation
import InteropMessages
import SwiftProtobuf
import Testing

// The seeded random differential test against swift-protobuf: at least 100,000 random values per
// run (every scalar, element, key and message counts one). Set INTEROP_SEED to repeat a run.
@Suite struct DifferentialTests {
    static let seed: UInt64 = ProcessInfo.processInfo.environment["INTEROP_SEED"].flatMap { UInt64($0) } ?? 0x5EED_0038
    static let minimumValues = 100_000

    @Test func bothDirectionsAgreeWithSwiftProtobuf() throws {
        var random = RandomValues(seed: Self.seed)
        var messages = 0
        let encoder = ProtobufEncoder()
        let decoder = ProtobufDecoder()
        while random.count < Self.minimumValues {
            let value = random.everything()
            messages += 1
            let expected = value.proto
            // Our bytes, parsed by swift-protobuf, give the message of the value.
            let ours = try encoder.encode(value)
            let parsed = try Interop_Everything(serializedBytes: ours)
            guard parsed == expected else {
                Issue.record(
                    "seed \(Self.seed), message \(messages): swift-protobuf parsed \(parsed), expected \(expected)")
                return
            }
            // swift-protobuf's bytes, decoded by us, give the value back (defaults included).
            let theirs: Data = try expected.serializedBytes()
            let decoded = try decoder.decode(Everything.self, from: theirs)
            guard decoded == value else {
                Issue.record("seed \(Self.seed), message \(messages): decoded \(decoded), expected \(value)")
                return
            }
            // The bytes are equal, except where a map has two entries (swift-protobuf writes them in
            // the dictionary's order, we sort them) or a field is declared `[packed = false]`
            // (the Codable type cannot say so: we pack it, and both parsers read either form).
            if !value.hasMapOfTwoOrUnpacked, ours != theirs {
                Issue.record("seed \(Self.seed), message \(messages): bytes differ\n\(hex(ours))\n\(hex(theirs))")
                return
            }
            // A reader that knows three fields keeps the rest in its tree: written back, they parse
            // to the same message.
            let tree = try decoder.decodeTree(EverythingLite.self, from: theirs)
            let rewritten = try encoder.encode(tree: tree)
            guard try Interop_Everything(serializedBytes: rewritten) == expected else {
                Issue.record("seed \(Self.seed), message \(messages): unknown fields were lost")
                return
            }
        }
        #expect(random.count >= Self.minimumValues)
        print("differential: seed \(Self.seed), \(messages) messages, \(random.count) values")
    }
}

func hex(_ data: some Sequence<UInt8>) -> String { data.map { String(format: "%02x", $0) }.joined(separator: " ") }

extension Everything {
    /// Whether a map here or in a child has more than one entry, or an unpacked field is set.
    var hasMapOfTwoOrUnpacked: Bool {
        let m = maps
        let counts = [
            m.sI32.count, m.i32S.count, m.u64Inner.count, m.s32Db.count, m.flagBlob.count, m.f32S64.count,
            m.i64Color.count, m.sf64Fl.count,
        ]
        let unpacked = !repeated.unpackedI32.isEmpty || !repeated.unpackedDb.isEmpty
        return unpacked || counts.contains { $0 > 1 } || children.contains { $0.hasMapOfTwoOrUnpacked }
    }
}
