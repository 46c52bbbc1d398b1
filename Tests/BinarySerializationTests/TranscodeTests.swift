import Foundation
import Testing

@testable import BinarySerialization

/// Legacy acceptance 2 and 4: transcoding between the formats matches the reference bytes of
/// both, and the values the reference gets wrong round-trip with us.
@Suite struct TranscodeTests {
    /// Cases with deterministic, readable vectors in both formats.
    static let pairedNames: [String] = {
        let v3 = Dictionary(Fixtures.v3.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        return Fixtures.v2.filter { v in
            guard v.det, v.roundtrip, let w = v3[v.name] else { return false }
            return w.det && w.roundtrip
        }.map(\.name)
    }()

    @Test func everyPairedCaseIsCovered() {
        #expect(Self.pairedNames.count > 170)
    }

    @Test(arguments: pairedNames)
    func transcodeBothWays(_ name: String) throws {
        let c = try #require(Fixtures.casesByName[name])
        let v2 = try #require(Fixtures.v2.first { $0.name == name }).bytes
        let v3 = try #require(Fixtures.v3.first { $0.name == name }).bytes
        let codec = ProjectCodec(format: .v3)
        #expect(hex(try c.transcode(codec, v2, true)) == hex(v3), "v2 -> v3 \(name)")
        #expect(hex(try c.transcode(codec, v3, false)) == hex(v2), "v3 -> v2 \(name)")
    }

    /// The case whose `encode(to:)` calls `encodeNil()` in an unkeyed container.
    static let explicitNilCase = "v3.UnkeyedMix.seed"

    @Test(arguments: Fixtures.allCases.map(\.name))
    func v2TreeChecks(_ name: String) throws {
        let c = try #require(Fixtures.casesByName[name])
        // With the nil index set every case round-trips.
        #expect(try c.treeRoundTrip(ProjectCodec(format: .v2, sorted: true, nilIndexSets: true)), "\(name)")
        if name == Self.explicitNilCase {
            // Without it, encodeNil() in an unkeyed container is refused, never dropped.
            #expect(throws: EncodingError.self) { try c.encode(ProjectCodec(format: .v2)) }
            return
        }
        #expect(try c.treeRoundTrip(ProjectCodec(format: .v2, sorted: true)), "\(name)")
        #expect(try c.treeRoundTrip(ProjectCodec(format: .v2, sorted: false)), "\(name)")
    }

    @Test func nilIndexSetBytes() throws {
        var encoder = BinaryEncoder(format: .v2)
        encoder.prependNilIndexSetForUnkeyedContainers = true
        let data = try encoder.encode(UnkeyedMix())
        // 01 nil index, at 01; then false (00), "Hello" with length 05, empty Data (00).
        #expect(Array(data) == [0x01, 0x01, 0x00, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x00])
        var decoder = BinaryDecoder(format: .v2)
        decoder.prependNilIndexSetForUnkeyedContainers = true
        #expect(try decoder.decode(UnkeyedMix.self, from: data) == UnkeyedMix())
        // The error names the option to set.
        do {
            _ = try BinaryEncoder(format: .v2).encode(UnkeyedMix())
            Issue.record("expected an EncodingError")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.debugDescription.contains("prependNilIndexSetForUnkeyedContainers"))
        }
    }

    // MARK: Cases the reference gets wrong

    func roundTrip<T: Codable & Equatable>(_ value: T, _ format: BinaryFormat = .v2) throws -> T {
        try BinaryDecoder(format: format).decode(T.self, from: BinaryEncoder(format: format).encode(value))
    }

    @Test func topLevelOptionalString() throws {
        let some: String? = "abc"
        // flag 01, then the string as an element: length 03, "abc"
        #expect(try BinaryEncoder(format: .v2).encode(some) == Data([0x01, 0x03, 0x61, 0x62, 0x63]))
        #expect(try roundTrip(some) == some)
        #expect(try roundTrip(String?.none) == nil)
    }

    @Test func simdVectorsNeedACount() throws {
        #expect(try roundTrip(SIMD2<Float>(1, -2)) == SIMD2<Float>(1, -2))
        #expect(try roundTrip(SIMD4<Int32>(1, 2, 3, -4)) == SIMD4<Int32>(1, 2, 3, -4))
        #expect(try roundTrip(SIMD3<Double>(0.5, 2, -8)) == SIMD3<Double>(0.5, 2, -8))
        // The reference vectors hold the right bytes; we read them.
        #expect(
            try BinaryDecoder(format: .v2).decode(SIMD2<Float>.self, from: [0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0])
                == SIMD2(1, -2))
    }

    @Test func nonASCIIStringKeysUseTheUTF8ByteCount() throws {
        let value = ["ü": 1, "日本": 2, "a": 3]
        var encoder = BinaryEncoder(format: .v2)
        encoder.sortKeysDuringEncoding = true
        let data = try encoder.encode(value)
        // "a": 0x18 = 1 << 4 | 8 | varint; "ü" is 2 UTF-8 bytes: 0x28; "日本" is 6 bytes: 0x68.
        #expect(
            Array(data) == [0x18, 0x61, 0x06, 0x28, 0xc3, 0xbc, 0x02, 0x68, 0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac, 0x04])
        #expect(try roundTrip(value) == value)
    }

    @Test func transcodeKeepsTheValue() throws {
        let message = Message(isComplete: true, owner: "Bob", references: [3, -280])
        let legacy = try BinaryEncoder(format: .v2).encode(message)
        let migrated = try BinaryTranscoder(from: .v2, to: .v3).transcode(Message.self, from: legacy)
        #expect(try BinaryDecoder().decode(Message.self, from: migrated) == message)
        let back = try BinaryTranscoder(from: .v3, to: .v2).transcode(Message.self, from: migrated)
        #expect(back == legacy)
    }

    /// The keyed container states a thread keeps for its next run must not keep the last
    /// recording (every value it read) alive.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func theRecordingIsFreedWhenTheCallReturns(_ format: BinaryFormat) throws {
        let message = Message(isComplete: true, owner: "Bob", references: [3, -280])
        let data = try BinaryEncoder(format: format).encode(message)
        weak var recorded: TreeRecording?
        let encoder = BinaryEncoder(format: format)
        let bytes = try BinaryDecoder(format: format).withRecording(Message.self, from: data) { recording in
            recorded = recording
            return try encoder.encode(tree: recording.tree)
        }
        #expect(bytes == data)
        #expect(recorded == nil)
    }
}
