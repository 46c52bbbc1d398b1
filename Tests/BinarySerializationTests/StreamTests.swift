import BinarySerialization
import Foundation
import Testing

/// A stream codec of the project for one format, as the conformance stream cases want it.
struct ProjectStreamCodec: StreamCodec {
    let format: BinaryFormat
    /// How the bytes are fed to the decoder: chunk sizes, cycled.
    var chunking: [Int] = [Int.max]

    func encodeStream<T: Codable>(_ elements: [T]) throws -> [UInt8] {
        var encoder = BinaryEncoder(format: format)
        encoder.sortKeysDuringEncoding = true
        return Array(try BinaryStreamEncoder<T>(encoder: encoder).encode(contentsOf: elements))
    }

    func decodeStream<T: Codable>(_ type: T.Type, _ bytes: [UInt8]) throws -> [T] {
        let decoder = BinaryStreamDecoder<T>(decoder: BinaryDecoder(format: format))
        var out: [T] = []
        var i = 0
        var chunk = 0
        while i < bytes.count {
            let n = min(chunking[chunk % chunking.count], bytes.count - i)
            decoder.add(Array(bytes[i..<i + n]))
            out += try decoder.decodeElements()
            i += n
            chunk += 1
        }
        try decoder.finish()
        return out
    }
}

@Suite struct StreamTests {
    static let streamNames = streamCases().map(\.name)
    static let formats: [BinaryFormat] = [.v3, .v2]

    static func vector(_ name: String, _ format: BinaryFormat) -> Vector? {
        (format == .v3 ? Fixtures.v3Streams : Fixtures.v2Streams).first { $0.name == name }
    }

    @Test(arguments: streamNames, formats)
    func exactBytes(_ name: String, _ format: BinaryFormat) throws {
        let c = try #require(streamCases().first { $0.name == name })
        let v = try #require(Self.vector(name, format))
        #expect(hex(try c.encode(ProjectStreamCodec(format: format))) == v.hex, "\(format) \(name)")
    }

    /// Every split point of every vector: the first chunk ends at `cut`, the rest follows.
    @Test(arguments: streamNames, formats)
    func everySplitPoint(_ name: String, _ format: BinaryFormat) throws {
        let c = try #require(streamCases().first { $0.name == name })
        let bytes = try #require(Self.vector(name, format)).bytes
        for cut in 1..<max(bytes.count, 2) {
            let codec = ProjectStreamCodec(format: format, chunking: [cut, bytes.count])
            #expect(try c.decodesEqual(codec, bytes), "\(format) \(name) split at \(cut)")
        }
        #expect(
            try c.decodesEqual(ProjectStreamCodec(format: format, chunking: [1]), bytes),
            "\(format) \(name) byte by byte")
        #expect(
            try c.decodesEqual(ProjectStreamCodec(format: format, chunking: [3, 7, 2]), bytes),
            "\(format) \(name) mixed")
    }

    @Test(arguments: formats, [64, 65, 1000, 100_000, 3_000_000])
    func largeElements(_ format: BinaryFormat, _ size: Int) throws {
        let elements = [String(repeating: "a", count: size), "b", String(repeating: "c", count: size / 2)]
        let bytes = try ProjectStreamCodec(format: format).encodeStream(elements)
        // Odd chunk sizes, including ones much smaller than an element.
        for chunking in [[4096], [777, 13], [size + 5]] {
            let decoded = try ProjectStreamCodec(format: format, chunking: chunking).decodeStream(String.self, bytes)
            #expect(decoded == elements, "\(format) \(size) chunks \(chunking)")
        }
    }

    @Test(arguments: formats)
    func partialElementIsReportedNotDropped(_ format: BinaryFormat) throws {
        let elements = [
            SMessage(sender: "a", isRead: true, unreadCount: 1), SMessage(sender: "bb", isRead: false, unreadCount: 2),
        ]
        let bytes = try ProjectStreamCodec(format: format).encodeStream(elements)
        let decoder = BinaryStreamDecoder<SMessage>(decoder: BinaryDecoder(format: format))
        decoder.add(Array(bytes.dropLast(3)))
        #expect(try decoder.decodeElements() == [elements[0]])
        #expect(decoder.hasPartialElement)
        do {
            try decoder.finish()
            Issue.record("finish() should throw with a partial element left")
        } catch let DecodingError.dataCorrupted(context) {
            let incomplete = try #require(context.underlyingError as? IncompleteElementError)
            #expect(incomplete.completeElements == 1)
            #expect(incomplete.leftoverBytes > 0)
        }
    }

    @Test func bufferedBytesAreDropped() throws {
        let element = String(repeating: "x", count: 10_000)
        let one = try BinaryStreamEncoder<String>().encode(element)
        let decoder = BinaryStreamDecoder<String>()
        for _ in 0..<200 {
            decoder.add(one)
            #expect(try decoder.decodeElement() == element)
            #expect(decoder.bufferedByteCount == 0)
        }
        #expect(decoder.decodedCount == 200)
    }

    @Test(arguments: formats)
    func hugeLengthPrefixDoesNotWaitForever(_ format: BinaryFormat) throws {
        let decoder = BinaryStreamDecoder<String>(decoder: BinaryDecoder(format: format))
        // A length of about 2^62 bytes: far past the element size limit.
        decoder.add([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
        #expect(throws: DecodingError.self) { _ = try decoder.decodeElement() }
    }

    @Test func corruptElementThrows() throws {
        let decoder = BinaryStreamDecoder<Bool>()
        decoder.add([0x02, 0x01, 0x02, 0x07])  // true, then a Bool byte of 7
        let (elements, error) = decoder.decodeElementsUntilError()
        #expect(elements == [true])
        #expect(error is DecodingError)
    }
}

@Suite struct FileTests {
    func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-\(UUID().uuidString).bin")
    }

    static let messages = (0..<50).map {
        Message(isComplete: $0 % 2 == 0, owner: $0 % 3 == 0 ? nil : "owner \($0)", references: Array(0..<$0))
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func writeAppendAndRead(_ format: BinaryFormat) throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try BinaryFileEncoder<Message>(fileAt: url, encoder: BinaryEncoder(format: format))
        try first.write(contentsOf: Self.messages.prefix(20))
        try first.close()
        // A second writer appends; it never truncates.
        let second = try BinaryFileEncoder<Message>(fileAt: url, encoder: BinaryEncoder(format: format))
        for m in Self.messages.dropFirst(20) { try second.write(m) }
        try second.close()

        let reader = try BinaryFileDecoder<Message>(fileAt: url, decoder: BinaryDecoder(format: format))
        #expect(try reader.readAll() == Self.messages)
        var seen = 0
        try BinaryFileDecoder<Message>(fileAt: url, decoder: BinaryDecoder(format: format)).read { m in
            #expect(m == Self.messages[seen])
            seen += 1
        }
        #expect(seen == Self.messages.count)
    }

    /// A crash mid-write leaves a file cut inside its last element: every element written before
    /// the cut is read back, and the cut element is an error (or skipped on request), never a value.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func crashMidWrite(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        let stream = BinaryStreamEncoder<Message>(encoder: encoder)
        let head = try stream.encode(contentsOf: Self.messages.prefix(10))
        let last = try stream.encode(Self.messages[10])
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        for cut in 0..<last.count {
            try (head + last.prefix(cut)).write(to: url)
            let strict = try BinaryFileDecoder<Message>(fileAt: url, decoder: BinaryDecoder(format: format))
            var read: [Message] = []
            do {
                try strict.read { read.append($0) }
                #expect(cut == 0, "cut \(cut): a truncated element must not read as complete")
            } catch let DecodingError.dataCorrupted(context) {
                let incomplete = try #require(context.underlyingError as? IncompleteElementError)
                #expect(incomplete.completeElements == 10)
            }
            #expect(read == Array(Self.messages.prefix(10)), "cut \(cut)")

            let lenient = try BinaryFileDecoder<Message>(
                fileAt: url, decoder: BinaryDecoder(format: format), skipsTruncatedLastElement: true)
            #expect(try lenient.readAll() == Array(Self.messages.prefix(10)), "cut \(cut) skipping")
        }
    }

    @Test func readElementByElement() throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Int>(fileAt: url)
        try writer.write(contentsOf: 0..<100_000)
        try writer.close()
        let reader = try BinaryFileDecoder<Int>(fileAt: url)
        var expected = 0
        while let v = try reader.readElement() {
            #expect(v == expected)
            expected += 1
        }
        #expect(expected == 100_000)
    }
}
