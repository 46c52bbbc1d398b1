import BinarySerialization
import Foundation
import Testing

/// Inputs the fuzzer (`Fuzz/`, modes stream and tree) found, as regression tests. The crasher
/// files are in `Fuzz/crashers/`.
@Suite struct FuzzFindingTests {
    /// `stream-v2-stall-truncation-at-chunk-end.bin`: the v2 element `01 61` is a 1-byte
    /// `[[String]]` whose inner string claims 0x61 bytes. Fed one byte at a time, the stream
    /// decoder took the inner truncation, which ended exactly where the received bytes ended, for
    /// "wait for more", and reported an incomplete element at the end instead of the corruption.
    @Test func v2StreamReportsCorruptionWhateverTheChunking() throws {
        let bytes: [UInt8] = [0x01, 0x61, 0x00]
        let atOnce = BinaryStreamDecoder<[[String]]>(decoder: BinaryDecoder(format: .v2))
        atOnce.add(bytes)
        #expect(throws: DecodingError.self) { try atOnce.decodeElements() }
        for split in 1..<bytes.count {
            let chunked = BinaryStreamDecoder<[[String]]>(decoder: BinaryDecoder(format: .v2))
            chunked.add(Array(bytes[..<split]))
            var error: (any Error)?
            do {
                _ = try chunked.decodeElements()
                chunked.add(Array(bytes[split...]))
                _ = try chunked.decodeElements()
            } catch let e { error = e }
            #expect(error is DecodingError, "split at \(split): \(String(describing: error))")
        }
        // A real wait still waits: a string of 5 bytes whose first 2 have arrived.
        let waiting = BinaryStreamDecoder<String>(decoder: BinaryDecoder(format: .v2))
        waiting.add([0x05, 0x48, 0x65])
        #expect(try waiting.decodeElement() == nil)
        waiting.add([0x6c, 0x6c, 0x6f])
        #expect(try waiting.decodeElement() == "Hello")
    }

    /// `tree-v2-int-key-3-and-string-key-3-sorted.bin`: a v2 `[String: Int]` holding string key
    /// "3" and integer key 3, one Swift key. Decoding kept the last; re-encoding the stored tree
    /// with sorted keys swapped them and changed the value. Such input is a repeated key.
    @Test(arguments: [BinaryFormat.v2, .v3])
    func oneSwiftKeyStoredTwiceIsCorrupt(_ format: BinaryFormat) throws {
        // v2: string key "3" (varint) = -48, integer key 3 (varint) = 1.
        // v3: integer key 3 = 1, string key "3" = -48.
        let data = Data(format == .v2 ? bytes("18 33 5f  30 02") : bytes("06 02 02  03 33 02 5f"))
        let decoder = BinaryDecoder(format: format)
        for decode in [
            { _ = try decoder.decode([String: Int].self, from: data) },
            { _ = try decoder.decode([Int: Int].self, from: data) },
            { _ = try decoder.decodeTree([String: Int].self, from: data) },
        ] as [() throws -> Void] {
            let error = #expect(throws: DecodingError.self) { try decode() }
            #expect(error?.caseName == "dataCorrupted")
        }
    }
}
