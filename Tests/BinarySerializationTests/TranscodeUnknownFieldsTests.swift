import BinarySerialization
import Foundation
import Testing

/// What README and Docs/Migration.md say transcoding does with fields the type does not decode:
/// an `Encodable` type drops them in every direction; a decode-only type is written from the
/// tree it reads, which keeps v3 fields as stored bytes: v3 to v3 keeps them, v3 to v2 throws,
/// v2 input drops them.
@Suite struct TranscodeUnknownFieldsTests {
    struct Full: Codable, Equatable {
        var name: String
        var extra: Int
    }
    struct Narrow: Codable, Equatable {
        var name: String
    }
    struct NarrowDecodeOnly: Decodable, Equatable {
        var name: String
    }

    static let pairs: [(BinaryFormat, BinaryFormat)] = [(.v2, .v3), (.v3, .v2), (.v3, .v3), (.v2, .v2)]

    @Test(arguments: 0..<4)
    func fieldsTheTypeDoesNotDecodeAreDropped(_ pair: Int) throws {
        let (from, to) = Self.pairs[pair]
        let source = try BinaryEncoder(format: from).encode(Full(name: "a", extra: 7))
        let narrow = BinaryTranscoder(from: from, to: to)
        let out = try narrow.transcode(Narrow.self, from: source)
        #expect(out == (try BinaryEncoder(format: to).encode(Narrow(name: "a"))), "\(from) -> \(to)")
        #expect(throws: DecodingError.self) { try BinaryDecoder(format: to).decode(Full.self, from: out) }

        switch (from, to) {
        case (.v3, .v3):
            let kept = try narrow.transcode(NarrowDecodeOnly.self, from: source)
            #expect(kept == source)
        case (.v3, .v2):
            #expect(throws: EncodingError.self) { try narrow.transcode(NarrowDecodeOnly.self, from: source) }
        default:
            #expect(try narrow.transcode(NarrowDecodeOnly.self, from: source) == out, "\(from) -> \(to)")
        }
    }
}
