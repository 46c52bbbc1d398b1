import BinarySerialization
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One appended record; `Tests/FileAppendChild` writes the same fields.
struct Record: Codable, Equatable, Sendable {
    var writer: Int
    var index: Int
    var payload: [UInt8]

    init(writer: Int, index: Int, size: Int = 3) {
        self.writer = writer
        self.index = index
        self.payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
    }
}

/// A value behind a lock, for state a test's replaced system calls share.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
    func mutate<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

func temporaryRecordFile() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-record-\(UUID().uuidString).bin")
}

func fileSize(_ url: URL) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? -1
}

/// Replaces the file's contents without syncing (`Data.write(to:)` syncs, which is slow).
func overwrite(_ url: URL, with bytes: Data) throws {
    if !FileManager.default.fileExists(atPath: url.path) {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    }
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: bytes)
}

/// Appends raw bytes at the end of the file, as a crash or another program would leave them.
func appendRaw(_ bytes: Data, to url: URL) throws {
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: bytes)
}

/// Recovery on open, failed writes, and the errors of closed files (issue 31).
@Suite struct RecordFileTests {
    static let head = (0..<5).map { Record(writer: 0, index: $0, size: $0 * 40) }

    /// The issue's first case: a file cut inside its last element, then appended to. Cut at
    /// every byte offset of the last element, a new encoder cuts exactly the torn bytes, reports
    /// them, and every element before it and after it reads back.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func truncatedAtEveryOffsetOfTheLastElementThenAppended(_ format: BinaryFormat) throws {
        let stream = BinaryStreamEncoder<Record>(encoder: BinaryEncoder(format: format))
        let head = try stream.encode(contentsOf: Self.head)
        let last = try stream.encode(Record(writer: 0, index: 5, size: 300))
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let marker = Record(writer: 1, index: 0)
        for cut in 0..<last.count {
            try overwrite(url, with: head + last.prefix(cut))
            let reported = LockedBox<[RecordFileRepair]>([])
            let writer = try BinaryFileEncoder<Record>(
                fileAt: url, encoder: BinaryEncoder(format: format),
                options: RecordFileOptions(onRepair: { repair in reported.mutate { $0.append(repair) } }))
            let expected = cut == 0 ? [] : [Int64(head.count)..<Int64(head.count + cut)]
            #expect(writer.repairs.map(\.range) == expected, "cut \(cut)")
            #expect(reported.value == writer.repairs, "cut \(cut)")
            #expect(writer.repairs.first?.byteCount ?? 0 == Int64(cut), "cut \(cut)")
            try writer.write(marker)
            // Not closed: `close()` syncs, which is not what this checks and costs most of the time.
            let read = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll()
            #expect(read == Self.head + [marker], "cut \(cut)")
        }
    }

    /// With repairs turned off, a torn last element is an error naming where it starts, and the
    /// file is left as it was.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func refusingToRepairNamesTheOffset(_ format: BinaryFormat) throws {
        let stream = BinaryStreamEncoder<Record>(encoder: BinaryEncoder(format: format))
        let head = try stream.encode(contentsOf: Self.head)
        let torn = try stream.encode(Record(writer: 0, index: 5, size: 300)).prefix(100)
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try (head + torn).write(to: url)
        do {
            _ = try BinaryFileEncoder<Record>(
                fileAt: url, encoder: BinaryEncoder(format: format), options: RecordFileOptions(repairsTornTail: false))
            Issue.record("a torn last element must not be appended to")
        } catch let error as RecordFileError {
            #expect(error.code == .tornTail)
            #expect(error.offset == Int64(head.count))
            #expect(error.url == url)
            #expect(error.description.contains("\(head.count)"))
        }
        #expect(try fileSize(url) == head.count + torn.count)
    }

    /// Bytes that are not an element, followed by more bytes, are damage a crash does not leave:
    /// never cut, an error at their offset.
    @Test func corruptBytesBeforeTheEndAreNotCut() throws {
        let stream = BinaryStreamEncoder<Record>(encoder: BinaryEncoder())
        let head = try stream.encode(contentsOf: Self.head)
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        // 0x03: a nil indicator with a length, which no v3 writer produces; then a valid element.
        let damaged = head + Data([0x03]) + (try stream.encode(Record(writer: 0, index: 9)))
        try damaged.write(to: url)
        #expect {
            _ = try BinaryFileEncoder<Record>(fileAt: url)
        } throws: { error in
            let error = error as? RecordFileError
            // The whole text: the file, the offset once (spelled as in every other error of the
            // library), the reason and what to do.
            let expected = """
                \(url.path) at byte offset \(head.count): the bytes are not a valid element (a nil indicator \
                with a length (prefix 3)) and more bytes follow, so they were not cut; read the elements \
                before them with BinaryFileDecoder.readElementsUntilError(), or cut the file there
                """
            return error?.code == .corruptElement && error?.offset == Int64(head.count)
                && error?.description == expected
        }
        #expect(try Data(contentsOf: url) == damaged)
    }

    /// A write that fails part-way (a short write, then "no space left") leaves no partial
    /// element: the file is cut back and the error says where; later writes work.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func aWriteFailingPartWayIsCutBack(_ format: BinaryFormat) throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        try writer.write(contentsOf: Self.head)
        let sizeBefore = try fileSize(url)
        let calls = LockedBox(0)
        writer.useSystemCalls(
            FileSystemCalls(write: { fd, bytes, count in
                // The first call writes half, the second fails as a full disk does.
                let call = calls.mutate { value -> Int in
                    value += 1
                    return value
                }
                guard call == 1 else { return -Int(ENOSPC) }
                return FileSystemCalls.system.write(fd, bytes, max(1, count / 2))
            }))
        for attempt in 0..<2 {
            calls.mutate { $0 = 0 }
            do {
                if attempt == 0 {
                    try writer.write(Record(writer: 0, index: 100, size: 1_000))
                } else {
                    try writer.write(contentsOf: (100..<110).map { Record(writer: 0, index: $0, size: 500) })
                }
                Issue.record("the write must fail")
            } catch let error as RecordFileError {
                #expect(error.code == .writeFailed)
                #expect(error.offset == Int64(sizeBefore))
                #expect(error.systemErrorNumber == ENOSPC)
                #expect(error.description.contains(" at byte offset \(sizeBefore): "))
                #expect(error.description.contains("cut back to where the write started"))
            }
            #expect(calls.value == 2)
            #expect(try fileSize(url) == sizeBefore)
        }
        writer.useSystemCalls(.system)
        let tail = Record(writer: 0, index: 5)
        try writer.write(tail)
        try writer.close()
        let read = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll()
        #expect(read == Self.head + [tail])
    }

    /// A write that fails part-way, and whose cut-back fails too (the disk is gone, say), leaves
    /// a partial element on disk and says so; the next append of the same writer, and the next
    /// writer that opens the file, cut it before appending: no element is lost or corrupted.
    @Test(arguments: [BinaryFormat.v3, .v2], [false, true])
    func aFailedWriteThatCannotBeCutBackIsRepairedNextTime(_ format: BinaryFormat, _ reopen: Bool) throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        var writer = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        try writer.write(contentsOf: Self.head)
        let sizeBefore = try fileSize(url)
        let calls = LockedBox(0)
        writer.useSystemCalls(
            FileSystemCalls(
                write: { fd, bytes, count in
                    let call = calls.mutate { value -> Int in
                        value += 1
                        return value
                    }
                    guard call == 1 else { return -Int(ENOSPC) }
                    return FileSystemCalls.system.write(fd, bytes, max(1, count / 2))
                },
                truncate: { _, _ in -Int(EIO) }))
        do {
            try writer.write(Record(writer: 0, index: 100, size: 1_000))
            Issue.record("the write must fail")
        } catch let error as RecordFileError {
            #expect(error.code == .writeFailedFileNotRestored)
            #expect(error.offset == Int64(sizeBefore))
            #expect(error.systemErrorNumber == EIO)
        }
        #expect(try fileSize(url) > sizeBefore, "half an element stays on disk")
        writer.useSystemCalls(.system)
        if reopen {
            try writer.close()
            writer = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        }
        let tail = Record(writer: 0, index: 5)
        try writer.write(tail)
        #expect(writer.repairs.map(\.range.lowerBound) == [Int64(sizeBefore)])
        try writer.close()
        let read = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll()
        #expect(read == Self.head + [tail])
    }

    /// Short writes are finished by further calls: the element is whole.
    @Test func shortWritesAreCompleted() throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Record>(fileAt: url)
        writer.useSystemCalls(
            FileSystemCalls(write: { fd, bytes, count in FileSystemCalls.system.write(fd, bytes, 1) }))
        try writer.write(contentsOf: Self.head)
        try writer.close()
        #expect(try BinaryFileDecoder<Record>(fileAt: url).readAll() == Self.head)
    }

    /// The sync policy syncs after the write that reaches its count of elements or bytes, and
    /// `close()` syncs; a failed sync is a library error with the system's error number.
    @Test func syncPolicyCountsElementsAndBytes() throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        // Made here, so the encoders do not sync its folder; the counted syncs do not reach the disk.
        try overwrite(url, with: Data())
        let syncs = LockedBox(0)
        let counting = FileSystemCalls(sync: { _ in
            syncs.mutate { $0 += 1 }
            return 0
        })
        let byElements = try BinaryFileEncoder<Record>(
            fileAt: url, options: RecordFileOptions(syncPolicy: .every(elements: 3)))
        byElements.useSystemCalls(counting)
        for index in 0..<10 { try byElements.write(Record(writer: 0, index: index)) }
        #expect(syncs.value == 3)
        try byElements.write(contentsOf: (0..<3).map { Record(writer: 0, index: $0) })
        #expect(syncs.value == 4)
        try byElements.close()
        #expect(syncs.value == 5)

        syncs.mutate { $0 = 0 }
        let byBytes = try BinaryFileEncoder<Record>(
            fileAt: url, options: RecordFileOptions(syncPolicy: .every(bytes: 1_000)))
        byBytes.useSystemCalls(counting)
        for index in 0..<10 { try byBytes.write(Record(writer: 0, index: index, size: 300)) }
        // Each record is a little over 300 bytes: a sync after every fourth.
        #expect(
            try (251...333).contains(BinaryStreamEncoder<Record>().encode(Record(writer: 0, index: 9, size: 300)).count)
        )
        #expect(syncs.value == 2)

        byBytes.useSystemCalls(FileSystemCalls(sync: { _ in -Int(EIO) }))
        #expect {
            try byBytes.sync()
        } throws: {
            ($0 as? RecordFileError)?.code == .systemCallFailed && ($0 as? RecordFileError)?.systemErrorNumber == EIO
        }
    }

    /// The issue's second case in one process: two encoders on one file, writing in turns.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func twoEncodersOnOneFileKeepEveryElement(_ format: BinaryFormat) throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let a = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        let b = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        var expected: [Record] = []
        for i in 0..<3 {
            for (writer, encoder) in [(0, a), (1, b)] {
                let record = Record(writer: writer, index: i, size: 10 * i)
                try encoder.write(record)
                expected.append(record)
            }
        }
        try a.close()
        try b.close()
        #expect(
            try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll() == expected)
    }

    /// A v2 element type that is only `Encodable` cannot frame an existing file: an error, not a
    /// blind append. An empty file needs no framing.
    @Test func v2WithAnEncodableOnlyTypeNeedsTheType() throws {
        struct Output: Encodable { var value: Int }
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let first = try BinaryFileEncoder<Output>(fileAt: url, encoder: BinaryEncoder(format: .v2))
        try first.write(Output(value: 1))
        try first.close()
        #expect {
            _ = try BinaryFileEncoder<Output>(fileAt: url, encoder: BinaryEncoder(format: .v2))
        } throws: { ($0 as? RecordFileError)?.code == .elementTypeNeeded }
        // v3 frames by its prefixes alone.
        let v3 = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: v3) }
        for _ in 0..<2 {
            let writer = try BinaryFileEncoder<Output>(fileAt: v3)
            try writer.write(Output(value: 2))
            try writer.close()
        }
        #expect(try BinaryFileDecoder<[String: Int]>(fileAt: v3).readAll().count == 2)
    }

    /// Use after `close()` is a library error naming the file, for the encoders and the decoder.
    @Test func useAfterCloseNamesTheFile() async throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Record>(fileAt: url, options: RecordFileOptions(syncPolicy: .everyWrite))
        try writer.write(Record(writer: 0, index: 0))
        try writer.sync()
        try writer.close()
        try writer.close()
        for attempt in 0..<2 {
            do {
                if attempt == 0 { try writer.write(Record(writer: 0, index: 1)) } else { try writer.sync() }
                Issue.record("use after close must throw")
            } catch let error as RecordFileError {
                #expect(error.code == .closed)
                #expect(error.url == url)
                #expect(error.description.contains(url.path))
            }
        }

        let reader = try BinaryFileDecoder<Record>(fileAt: url)
        try reader.close()
        #expect { _ = try reader.readAll() } throws: { ($0 as? RecordFileError)?.code == .closed }

        let asyncWriter = try await BinaryAsyncFileEncoder<Record>(fileAt: url)
        try await asyncWriter.write(Record(writer: 0, index: 1))
        try await asyncWriter.sync()
        try await asyncWriter.close()
        await #expect {
            try await asyncWriter.write(Record(writer: 0, index: 2))
        } throws: { ($0 as? RecordFileError)?.code == .closed && ($0 as? RecordFileError)?.url == url }
        #expect(try BinaryFileDecoder<Record>(fileAt: url).readAll().count == 2)
    }

    /// `IncompleteElementError` says where the incomplete element starts, for the stream, the
    /// file decoder and the async file decoder.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func incompleteElementErrorCarriesTheOffset(_ format: BinaryFormat) async throws {
        let stream = BinaryStreamEncoder<Record>(encoder: BinaryEncoder(format: format))
        // Enough elements that the stream decoder drops consumed bytes before the torn one.
        let records = (0..<200).map { Record(writer: 0, index: $0, size: 100) }
        let head = try stream.encode(contentsOf: records)
        let torn = try stream.encode(Record(writer: 0, index: 200, size: 100)).prefix(50)
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try (head + torn).write(to: url)
        func offset(_ error: any Error) -> Int? {
            guard case .dataCorrupted(let context) = error as? DecodingError else { return nil }
            return (context.underlyingError as? IncompleteElementError)?.offset
        }
        let reader = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format))
        let (elements, error) = reader.readElementsUntilError()
        #expect(elements == records)
        #expect(error.flatMap(offset) == head.count)
        do {
            for try await _ in BinaryAsyncFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)) {}
            Issue.record("the torn element must be reported")
        } catch {
            #expect(offset(error) == head.count)
        }
    }

    /// The async encoder recovers with the same code: a torn tail is cut and reported.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func asyncEncoderRepairsATornTail(_ format: BinaryFormat) async throws {
        let stream = BinaryStreamEncoder<Record>(encoder: BinaryEncoder(format: format))
        let head = try stream.encode(contentsOf: Self.head)
        let torn = try stream.encode(Record(writer: 0, index: 5, size: 300)).prefix(7)
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try (head + torn).write(to: url)
        let writer = try await BinaryAsyncFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
        #expect(writer.repairs.map(\.range) == [Int64(head.count)..<Int64(head.count + torn.count)])
        let marker = Record(writer: 1, index: 0)
        try await writer.write(marker)
        try await writer.close()
        let read = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll()
        #expect(read == Self.head + [marker])
    }
}
