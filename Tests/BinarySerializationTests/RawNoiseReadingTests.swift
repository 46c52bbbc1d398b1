import BinarySerialization
import Foundation
import Testing

/// Readings that used to be noise: strings also read as packed floats, fixed-size integers read
/// as keyed containers of empty fields.
@Suite struct RawNoiseReadingTests {
    static func readings(_ bytes: [UInt8]) throws -> [RawReading]? {
        let node = try BinaryDecoder(format: .v3).decodeRaw(from: bytes)
        guard case .bytes(_, let readings) = node.content else { return nil }
        return readings
    }

    @Test func uuidStringIsNotAlsoFloats() throws {
        let readings = try #require(try Self.readings(Array("E621E1F8-C36C-495A-93FC-0C247A3E6E5F".utf8)))
        #expect(readings.first == .text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(!readings.contains { if case .packedFloats = $0 { true } else { false } })
        #expect(!readings.contains { if case .packedDoubles = $0 { true } else { false } })
    }

    @Test func fixedSizeUInt32ReadsAsLittleEndian() throws {
        struct Record: Codable { @FixedSizeEncoded var hash: UInt32 }
        let data = try BinaryEncoder().encode(Record(hash: 42))
        let root = try BinaryDecoder().decodeRaw(from: data)
        guard case .keyed(let fields) = root.content, let value = fields.first?.value,
            case .bytes(_, let readings) = value.content
        else {
            Issue.record("expected a keyed container holding bytes, got \(root)")
            return
        }
        #expect(readings.contains(.littleEndian(42, byteCount: 4)))
        // The integer-keyed framing of only empty values is still listed as an alternative.
        #expect(value.alternatives == [.keyed(fieldCount: 2)])
    }
}
