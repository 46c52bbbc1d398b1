import BinarySerialization
import Foundation
import Testing

// The public API that BinaryCodable users call, beyond the project's own names.

private struct Pair: Codable, Equatable {
    var b: Int
    var a: String
}

@Suite struct StaticAndInferredCodingTests {
    @Test func staticEncodeAndDecodeUseTheDefaults() throws {
        let value = Pair(b: 3, a: "x")
        let data = try BinaryEncoder.encode(value)
        #expect(data == (try BinaryEncoder().encode(value)))
        let viaType = try BinaryDecoder.decode(Pair.self, from: data)
        let inferred: Pair = try BinaryDecoder.decode(from: data)
        let fromBytes: Pair = try BinaryDecoder.decode(from: Array(data))
        #expect(viaType == value && inferred == value && fromBytes == value)
    }

    @Test func theTypeArgumentCanBeInferred() throws {
        let value = Pair(b: -1, a: "y")
        for format in [BinaryFormat.v3, .v2] {
            let data = try BinaryEncoder(format: format).encode(value)
            let decoder = BinaryDecoder(format: format)
            let fromData: Pair = try decoder.decode(from: data)
            let fromBytes: Pair = try decoder.decode(from: Array(data))
            let fromTree: Pair = try decoder.decode(fromTree: BinaryEncoder(format: format).encodeTree(value))
            // The explicit form still resolves.
            let explicit = try decoder.decode(Pair.self, from: data)
            #expect([fromData, fromBytes, fromTree, explicit] == [value, value, value, value])
        }
    }
}

@Suite struct UserInfoAndErrorNameTests {
    @Test(arguments: [BinaryFormat.v3, .v2])
    func userInfoSortKeySortsLikeTheProperty(_ format: BinaryFormat) throws {
        let value = Pair(b: 1, a: "z")
        var byKey = BinaryEncoder(format: format)
        byKey.userInfo[BinaryEncoder.userInfoSortKey] = true
        var byProperty = BinaryEncoder(format: format)
        byProperty.sortKeysDuringEncoding = true
        let unsorted = try BinaryEncoder(format: format).encode(value)
        #expect(try byKey.encode(value) == byProperty.encode(value))
        #expect(try byKey.encode(value) != unsorted)
        #expect(try byKey.encode(tree: byKey.encodeTree(value)) == byProperty.encode(value))
        byKey.userInfo[BinaryEncoder.userInfoSortKey] = false
        #expect(try byKey.encode(value) == unsorted)
    }

    @Test func corruptedDataErrorNamesTheLowLevelError() throws {
        do {
            _ = try BinaryDecoder().decode(Bool.self, from: Data([0x07]))
            Issue.record("a Bool byte of 7 should not decode")
        } catch let DecodingError.dataCorrupted(context) {
            let low = try #require(context.underlyingError as? CorruptedDataError)
            #expect(low.code == .invalidBytes)
        }
    }
}

@Suite struct StreamDecoderAPITests {
    @Test(arguments: [BinaryFormat.v3, .v2])
    func aLetDecoderIsSharedAcrossThreads(_ format: BinaryFormat) throws {
        let values = Array(0..<2000)
        let bytes = try BinaryStreamEncoder<Int>(encoder: BinaryEncoder(format: format)).encode(contentsOf: values)
        let stream = BinaryStreamDecoder<Int>(decoder: BinaryDecoder(format: format))
        stream.add(bytes)
        let results = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            while let value = try? stream.decodeElement() { results.mutate { $0.append(value) } }
        }
        #expect(results.value.sorted() == values)
        #expect(stream.decodedCount == values.count)
        #expect(stream.bufferedByteCount == 0)
    }

    @Test func discardBytesResynchronisesAfterCorruptData() throws {
        let stream = BinaryStreamDecoder<String>()
        // `03`: a nil indicator with a length, which no encoder writes; then "hi".
        stream.add([0x03, 0x04, 0x68, 0x69])
        #expect(throws: DecodingError.self) { _ = try stream.decodeElement() }
        #expect(stream.discardBytes(1) == 1)
        #expect(try stream.decodeElement() == "hi")
        #expect(stream.discardBytes(5) == 0)
        stream.add([0x04, 0x68])
        #expect(stream.discardBytes(-3) == 0)
        #expect(stream.discardBytes(100) == 2)
        #expect(stream.bufferedByteCount == 0)
        try stream.finish()
    }

    /// A length prefix of Int.max bytes, allowed by the limit: the end offset overflows.
    static let hugeV3Element: [UInt8] = [
        0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,  // length Int.max (nine-byte varint)
        0x01,  // one byte of it
    ]
    /// The same for v2: a String of Int.max bytes (a protobuf varint of 2^63 - 1).
    static let hugeV2Element: [UInt8] = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x01]

    static func unlimited(_ format: BinaryFormat) -> BinaryDecoder {
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumElementSize = Int.max
        return decoder
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func hugeLengthWithoutALimitDoesNotTrap(_ format: BinaryFormat) throws {
        let stream = BinaryStreamDecoder<String>(decoder: Self.unlimited(format))
        stream.add(format == .v3 ? Self.hugeV3Element : Self.hugeV2Element)
        let (elements, _) = stream.decodeElementsUntilError()
        #expect(elements.isEmpty)
        // Either corrupt now or incomplete at the end: never a value, never a trap.
        #expect(throws: DecodingError.self) {
            _ = try stream.decodeElement()
            try stream.finish()
        }
    }

    @Test func negativeElementLimitThrows() throws {
        var decoder = BinaryDecoder()
        decoder.limits.maximumElementSize = -1
        let stream = BinaryStreamDecoder<String>(decoder: decoder)
        stream.add([0x04, 0x68, 0x69])
        #expect(throws: DecodingError.self) { _ = try stream.decodeElement() }
    }
}

@Suite struct FileDecoderAPITests {
    func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-api-\(UUID().uuidString).bin")
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func readAllUntilErrorKeepsTheElementsBeforeTheError(_ format: BinaryFormat) throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<String>(fileAt: url, encoder: BinaryEncoder(format: format))
        try writer.write(contentsOf: ["a", "bc"])
        try writer.close()
        try FileHandle(forWritingTo: url).run {
            try $0.seekToEnd()
            try $0.write(contentsOf: Data([0x08, 0x41]))
        }

        let reader = try BinaryFileDecoder<String>(fileAt: url, decoder: BinaryDecoder(format: format))
        let (elements, error) = reader.readElementsUntilError()
        #expect(elements == ["a", "bc"])
        #expect(error is DecodingError)
        try reader.close()
        try reader.close()
        #expect { _ = try reader.readElement() } throws: { ($0 as? RecordFileError)?.code == .closed }

        let whole = try BinaryFileDecoder<String>(
            fileAt: url, decoder: BinaryDecoder(format: format), skipsTruncatedLastElement: true)
        let all = whole.readElementsUntilError()
        #expect(all.elements == ["a", "bc"] && all.error == nil)
        let plain = try BinaryFileDecoder<String>(fileAt: url, decoder: BinaryDecoder(format: format))
        #expect(plain.readAllUntilError() == ["a", "bc"])  // BinaryCodable's signature: the error is dropped
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func hugeLengthWithoutALimitDoesNotTrap(_ format: BinaryFormat) throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let bytes = format == .v3 ? StreamDecoderAPITests.hugeV3Element : StreamDecoderAPITests.hugeV2Element
        try Data(bytes).write(to: url)
        let reader = try BinaryFileDecoder<String>(fileAt: url, decoder: StreamDecoderAPITests.unlimited(format))
        let (elements, error) = reader.readElementsUntilError()
        #expect(elements.isEmpty)
        #expect(error is DecodingError)
    }
}

@Suite struct LegacyNameTests {
    @available(*, deprecated, message: "uses the BinaryCodable 2.x names on purpose")
    struct Legacy: Codable, Equatable {
        @FixedSize var id: Int32
    }

    @available(*, deprecated, message: "uses the BinaryCodable 2.x names on purpose")
    @Test func fixedSizeIsTheOldNameOfFixedSizeEncoded() throws {
        struct Current: Codable { @FixedSizeEncoded var id: Int32 }
        for format in [BinaryFormat.v3, .v2] {
            let data = try BinaryEncoder(format: format).encode(Legacy(id: 7))
            #expect(data == (try BinaryEncoder(format: format).encode(Current(id: 7))))
            #expect(try BinaryDecoder(format: format).decode(Legacy.self, from: data) == Legacy(id: 7))
        }
    }

    @available(*, deprecated, message: "uses the BinaryCodable 2.x names on purpose")
    @Test func containsNilIndexSetIsTheOldNameOfPrependNilIndexSet() throws {
        var decoder = BinaryDecoder(format: .v2)
        decoder.containsNilIndexSetForUnkeyedContainers = true
        #expect(decoder.prependNilIndexSetForUnkeyedContainers)
        var encoder = BinaryEncoder(format: .v2)
        encoder.prependNilIndexSetForUnkeyedContainers = true
        let value: [Int?] = [1, nil, 3]
        #expect(try decoder.decode([Int?].self, from: encoder.encode(value)) == value)
        decoder.containsNilIndexSetForUnkeyedContainers = false
        #expect(!decoder.prependNilIndexSetForUnkeyedContainers)
    }
}

extension FileHandle {
    /// Runs `body` with the handle, then closes it.
    fileprivate func run(_ body: (FileHandle) throws -> Void) throws {
        defer { try? close() }
        try body(self)
    }
}
