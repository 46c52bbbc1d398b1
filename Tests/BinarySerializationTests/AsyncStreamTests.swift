import BinarySerialization
import Foundation
import Testing

/// Decoding streams from asynchronous sequences, and reading and writing files from async code.
@Suite struct AsyncStreamTests {
    static let formats: [BinaryFormat] = [.v3, .v2]

    /// Elements of varied shapes and sizes, including one larger than most chunks.
    static let messages: [Message] = (0..<12).map {
        Message(isComplete: $0 % 2 == 0, owner: $0 % 3 == 0 ? nil : "owner \($0)", references: Array(0..<($0 * $0)))
    }

    static func encoded(_ format: BinaryFormat, _ elements: [Message] = messages) throws -> [UInt8] {
        Array(try BinaryStreamEncoder<Message>(encoder: BinaryEncoder(format: format)).encode(contentsOf: elements))
    }

    /// A finished stream of the given chunks.
    static func chunkStream<C: Sendable>(_ chunks: [C]) -> AsyncStream<C> {
        AsyncStream { continuation in
            for c in chunks { continuation.yield(c) }
            continuation.finish()
        }
    }

    static func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
        var out: [S.Element] = []
        for try await e in sequence { out.append(e) }
        return out
    }

    /// The incomplete-element error inside a decoding error, if that is what `error` is.
    static func incomplete(_ error: any Error) -> IncompleteElementError? {
        guard case .dataCorrupted(let context)? = error as? DecodingError else { return nil }
        return context.underlyingError as? IncompleteElementError
    }

    // MARK: Chunking

    /// Two chunks, split at every byte position (including an empty first or last chunk), as
    /// `[UInt8]` and as `Data`.
    @Test(arguments: formats)
    func everySplitPoint(_ format: BinaryFormat) async throws {
        let bytes = try Self.encoded(format)
        let decoder = BinaryDecoder(format: format)
        for cut in 0...bytes.count {
            let chunks = [Array(bytes[..<cut]), Array(bytes[cut...])]
            let fromArrays = try await Self.collect(decoder.elements(of: Message.self, from: Self.chunkStream(chunks)))
            #expect(fromArrays == Self.messages, "\(format) split at \(cut)")
            let fromData = try await Self.collect(
                decoder.elements(of: Message.self, from: Self.chunkStream(chunks.map { Data($0) })))
            #expect(fromData == Self.messages, "\(format) split at \(cut), Data")
        }
    }

    /// Random chunk sizes (seeded), delivered by a producer task while the consumer decodes.
    @Test(arguments: formats, [1, 2, 3, 42, 2024] as [UInt64])
    func randomChunksFromAProducerTask(_ format: BinaryFormat, _ seed: UInt64) async throws {
        let bytes = try Self.encoded(format)
        var random = SplitMix64(seed: seed)
        var chunks: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            let n = min(Int.random(in: 0...40, using: &random), bytes.count - i)
            chunks.append(Array(bytes[i..<i + n]))
            i += n
        }
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let delivered = chunks
        let producer = Task {
            for chunk in delivered {
                continuation.yield(chunk)
                await Task.yield()
            }
            continuation.finish()
        }
        let decoded = try await Self.collect(BinaryDecoder(format: format).elements(of: Message.self, from: stream))
        await producer.value
        #expect(decoded == Self.messages, "\(format) seed \(seed), \(delivered.count) chunks")
    }

    /// A sequence of single bytes.
    @Test(arguments: formats)
    func byteByByte(_ format: BinaryFormat) async throws {
        let bytes = try Self.encoded(format)
        let decoded = try await Self.collect(
            BinaryDecoder(format: format).elements(of: Message.self, from: Self.chunkStream(bytes)))
        #expect(decoded == Self.messages)
    }

    /// An element is produced as soon as its last byte has arrived, not when the next one starts.
    @Test(arguments: formats)
    func elementArrivesWithoutWaitingForMore(_ format: BinaryFormat) async throws {
        let one = try Self.encoded(format, [Self.messages[5]])
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        continuation.yield(Array(one.dropLast()))
        continuation.yield(Array(one.suffix(1)))
        var iterator = BinaryDecoder(format: format).elements(of: Message.self, from: stream).makeAsyncIterator()
        // The producer has not finished: this only returns if the element is decoded right away.
        #expect(try await iterator.next() == Self.messages[5])
        continuation.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test(arguments: formats)
    func emptyInputHasNoElements(_ format: BinaryFormat) async throws {
        let decoded = try await Self.collect(
            BinaryDecoder(format: format).elements(of: Message.self, from: Self.chunkStream([[UInt8]]([[], []]))))
        #expect(decoded.isEmpty)
    }

    // MARK: Errors

    /// Input that ends anywhere inside the last element: the complete elements, then the error.
    @Test(arguments: formats)
    func truncatedLastElement(_ format: BinaryFormat) async throws {
        let head = try Self.encoded(format, Array(Self.messages.prefix(7)))
        let last = try Self.encoded(format, [Self.messages[7]])
        for cut in 1..<last.count {
            let input = head + last.prefix(cut)
            var decoded: [Message] = []
            do {
                for try await m in BinaryDecoder(format: format).elements(
                    of: Message.self, from: Self.chunkStream([input]))
                {
                    decoded.append(m)
                }
                Issue.record("\(format) cut \(cut): a truncated element must not end the stream quietly")
            } catch {
                let incomplete = try #require(Self.incomplete(error), "\(format) cut \(cut): \(error)")
                #expect(incomplete.completeElements == 7)
                #expect(incomplete.leftoverBytes == cut)
            }
            #expect(decoded == Array(Self.messages.prefix(7)), "\(format) cut \(cut)")
        }
    }

    /// A corrupt element throws, and the iteration is over after that.
    @Test func corruptElementEndsTheIteration() async throws {
        let input: [UInt8] = [0x02, 0x01, 0x02, 0x07, 0x02, 0x01]  // true, then a Bool byte of 7, then true
        var iterator = BinaryDecoder().elements(of: Bool.self, from: Self.chunkStream([input])).makeAsyncIterator()
        #expect(try await iterator.next() == true)
        await #expect(throws: DecodingError.self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// The base sequence's own error comes through after the elements before it.
    @Test func baseSequenceErrorIsRethrown() async throws {
        struct Broken: Error {}
        let one = try Self.encoded(.v3, [Self.messages[1]])
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        continuation.yield(Data(one))
        continuation.finish(throwing: Broken())
        var decoded: [Message] = []
        await #expect(throws: Broken.self) {
            for try await m in BinaryDecoder().elements(of: Message.self, from: stream) { decoded.append(m) }
        }
        #expect(decoded == [Self.messages[1]])
    }

    // MARK: Cancellation

    /// A producer that never finishes: cancelling the consuming task ends it with `CancellationError`,
    /// not with the end of the input or an incomplete element.
    @Test(arguments: formats)
    func cancellingTheConsumer(_ format: BinaryFormat) async throws {
        let bytes = try Self.encoded(format, Array(Self.messages.prefix(3)))
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let (received, receivedContinuation) = AsyncStream.makeStream(of: Int.self)
        // Two complete elements and part of the third; then silence.
        let firstTwo = try Self.encoded(format, Array(Self.messages.prefix(2))).count
        continuation.yield(Array(bytes.prefix(firstTwo + 2)))
        let consumer = Task {
            var count = 0
            for try await _ in BinaryDecoder(format: format).elements(of: Message.self, from: stream) {
                count += 1
                receivedContinuation.yield(count)
            }
            return count
        }
        var seen = 0
        for await count in received {
            seen = count
            if count == 2 { break }
        }
        #expect(seen == 2)
        consumer.cancel()
        await #expect(throws: CancellationError.self) { _ = try await consumer.value }
        continuation.finish()
    }

    /// A producer that never stops producing: cancellation is checked between chunks.
    @Test func cancellingAnEndlessStream() async throws {
        let consumer = Task {
            var count = 0
            for try await _ in BinaryDecoder().elements(of: Int.self, from: EndlessElements()) {
                count += 1
                if count == 100 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { _ = try await consumer.value }
    }

    // MARK: Files

    func temporaryURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-async-\(UUID().uuidString).bin")
    }

    @Test(arguments: formats)
    func fileRoundTrip(_ format: BinaryFormat) async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try await BinaryAsyncFileEncoder<Message>(fileAt: url, encoder: BinaryEncoder(format: format))
        try await writer.write(contentsOf: Self.messages.prefix(4))
        try await writer.write(Self.messages[4])
        try await writer.write(contentsOf: Self.chunkStream(Array(Self.messages.dropFirst(5))))
        try await writer.close()
        await #expect(throws: (any Error).self) { try await writer.write(Self.messages[0]) }
        try await writer.close()  // a second close does nothing

        // A second writer appends; it never truncates.
        let more = try await BinaryAsyncFileEncoder<Message>(fileAt: url, encoder: BinaryEncoder(format: format))
        try await more.write(contentsOf: Self.messages)
        try await more.close()
        let expected = Self.messages + Self.messages

        let decoder = BinaryDecoder(format: format)
        let reader = BinaryAsyncFileDecoder<Message>(fileAt: url, decoder: decoder)
        #expect(try await Self.collect(reader) == expected)
        #expect(try await Self.collect(reader) == expected, "a second pass reads the file again")
        for chunkSize in [1, 7, 100] {
            var small = reader
            small.chunkSize = chunkSize
            #expect(try await Self.collect(small) == expected, "chunks of \(chunkSize)")
        }
        // The synchronous reader reads the same file.
        #expect(try BinaryFileDecoder<Message>(fileAt: url, decoder: decoder).readAll() == expected)
    }

    /// A crash mid-write leaves a file cut inside its last element: the complete elements are read,
    /// then the error (or nothing, on request).
    @Test(arguments: formats)
    func fileWithTruncatedLastElement(_ format: BinaryFormat) async throws {
        let head = try Self.encoded(format, Array(Self.messages.prefix(10)))
        let last = try Self.encoded(format, [Self.messages[10]])
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        for cut in [0, 1, last.count / 2, last.count - 1] {
            try Data(head + last.prefix(cut)).write(to: url)
            var reader = BinaryAsyncFileDecoder<Message>(fileAt: url, decoder: BinaryDecoder(format: format))
            reader.chunkSize = 16
            var read: [Message] = []
            do {
                for try await m in reader { read.append(m) }
                #expect(cut == 0, "cut \(cut): a truncated element must not read as complete")
            } catch {
                let incomplete = try #require(Self.incomplete(error), "cut \(cut): \(error)")
                #expect(incomplete.completeElements == 10)
            }
            #expect(read == Array(Self.messages.prefix(10)), "cut \(cut)")

            reader.skipsTruncatedLastElement = true
            #expect(try await Self.collect(reader) == Array(Self.messages.prefix(10)), "cut \(cut) skipping")
        }
    }

    @Test func missingFileThrowsOnFirstNext() async throws {
        let reader = BinaryAsyncFileDecoder<Message>(fileAt: temporaryURL())
        var iterator = reader.makeAsyncIterator()
        await #expect(throws: (any Error).self) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    /// The README's async snippet, as written there.
    @Test func readmeSnippet() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let encoder = BinaryEncoder()
        let decoder = BinaryDecoder()
        let messages = Self.messages
        let chunks = Self.chunkStream(
            try messages.map { try BinaryStreamEncoder<Message>(encoder: encoder).encode($0) })
        var seen: [Message] = []
        func handle(_ message: Message) { seen.append(message) }

        for try await message in decoder.elements(of: Message.self, from: chunks) { handle(message) }

        let asyncWriter = try await BinaryAsyncFileEncoder<Message>(fileAt: url, encoder: encoder)
        try await asyncWriter.write(contentsOf: messages)
        try await asyncWriter.close()
        for try await message in BinaryAsyncFileDecoder<Message>(fileAt: url, decoder: decoder) { handle(message) }

        #expect(seen == messages + messages)
    }

    /// Writes from many tasks at once: every element arrives whole.
    @Test func concurrentWritesDoNotInterleave() async throws {
        let url = temporaryURL()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try await BinaryAsyncFileEncoder<String>(fileAt: url)
        let values = (0..<200).map { String(repeating: "\($0 % 10)", count: $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for v in values { group.addTask { try await writer.write(v) } }
            try await group.waitForAll()
        }
        try await writer.close()
        let read = try await Self.collect(BinaryAsyncFileDecoder<String>(fileAt: url))
        #expect(read.sorted() == values.sorted())
    }
}

/// The stream of the integers 0, 1, 2, ... one framed element per chunk, forever.
struct EndlessElements: AsyncSequence {
    typealias Element = [UInt8]
    struct AsyncIterator: AsyncIteratorProtocol {
        var value = 0
        mutating func next() async -> [UInt8]? {
            await Task.yield()
            value &+= 1
            return (try? Array(BinaryStreamEncoder<Int>().encode(value))) ?? []
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
