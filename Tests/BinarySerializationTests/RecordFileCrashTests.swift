import BinarySerialization
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writers killed at random moments and writers running at once (issue 31): every acknowledged
/// record reads back, in order, exactly once.
@Suite struct RecordFileCrashTests {
    /// The `FileAppendChild` executable, built next to the test bundle.
    static func childExecutable() throws -> URL {
        var folders: [URL] = []
        #if os(Linux)
            // Not `Bundle.allBundles`: on Linux, Foundation leaks the array it makes (LeakSanitizer).
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                folders.append(URL(fileURLWithPath: path).deletingLastPathComponent())
            }
        #else
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                folders.append(bundle.bundleURL.deletingLastPathComponent())
            }
        #endif
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        for folder in folders {
            // The bundle may be a folder (macOS): its products folder is up to three levels higher.
            var candidate = folder
            for _ in 0..<4 {
                let child = candidate.appendingPathComponent("FileAppendChild")
                if FileManager.default.isExecutableFile(atPath: child.path) { return child }
                candidate = candidate.deletingLastPathComponent()
            }
        }
        throw ChildNotFound(searched: folders.map(\.path))
    }

    struct ChildNotFound: Error { var searched: [String] }

    /// A started child and the indices it acknowledged so far.
    final class Child {
        let process = Process()
        let output = Pipe()
        private var received = Data()

        init(file: URL, format: BinaryFormat, writer: Int, seed: UInt64, count: Int, large: Bool) throws {
            process.executableURL = try RecordFileCrashTests.childExecutable()
            process.arguments = [
                file.path, format == .v2 ? "v2" : "v3", "\(writer)", "\(seed)", "\(count)", large ? "1" : "0",
            ]
            process.standardOutput = output
            try process.run()
        }

        /// Waits until `count` indices were acknowledged, or the child ended.
        func waitForAcknowledgements(_ count: Int) {
            while acknowledged.count < count {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return }
                received.append(chunk)
            }
        }

        /// Kills the child with SIGKILL and collects the indices it printed before dying.
        func kill() {
            _ = Foundation.kill(process.processIdentifier, SIGKILL)
            finish()
        }

        /// Waits for the child to end and collects everything it printed.
        func finish() {
            process.waitUntilExit()
            received.append(output.fileHandleForReading.readDataToEndOfFile())
        }

        /// The indices printed so far (only whole lines).
        var acknowledged: [Int] {
            let text = String(decoding: received, as: UTF8.self)
            return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
                .compactMap { Int($0) }
        }
    }

    /// 50 rounds: a child appends records (some of 16 to 192 KiB) and is killed with SIGKILL at
    /// a seeded random moment; after a third of the kills, a writer opens the file and a random
    /// prefix of a record is appended (what power loss during its write leaves). Then a new encoder opens the
    /// file and appends a marker. At the end every acknowledged record and every marker is
    /// read back, in order, exactly once, with no error.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func killedWritersLoseNoAcknowledgedRecord(_ format: BinaryFormat) throws {
        let seed: UInt64 = format == .v3 ? 31 : 32
        var random = SplitMix64(seed: seed)
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let encoder = BinaryEncoder(format: format)
        let stream = BinaryStreamEncoder<Record>(encoder: encoder)
        let rounds = 50
        var acknowledged: [Int] = []
        var tornPrefixes = 0
        for round in 0..<rounds {
            let child = try Child(
                file: url, format: format, writer: round, seed: random.next(), count: 0, large: true)
            child.waitForAcknowledgements(Int.random(in: 0...20, using: &random))
            if Bool.random(using: &random) { usleep(UInt32.random(in: 0...3_000, using: &random)) }
            child.kill()
            let acks = child.acknowledged
            #expect(acks == Array(0..<acks.count), "round \(round): acknowledged in order")
            acknowledged.append(acks.count)

            var appendedPrefix = 0
            if Int.random(in: 0..<3, using: &random) == 0 {
                // A writer opens the file (recovering what the kill left, as every writer does
                // before it writes), then loses power inside a write: a prefix of its record is
                // left. Torn tails never follow one another unrecovered; without checksums, a
                // second torn tail after an unrecovered one could complete the first.
                _ = try BinaryFileEncoder<Record>(fileAt: url, encoder: encoder)
                let lost = Record(writer: round, index: 1_000_000, size: Int.random(in: 0...2_000, using: &random))
                let bytes = try stream.encode(lost)
                appendedPrefix = Int.random(in: 1..<bytes.count, using: &random)
                try appendRaw(bytes.prefix(appendedPrefix), to: url)
                tornPrefixes += 1
            }
            let sizeBefore = try fileSize(url)
            let writer = try BinaryFileEncoder<Record>(fileAt: url, encoder: encoder)
            if appendedPrefix > 0 {
                let repair = try #require(writer.repairs.last, "round \(round): the torn prefix is cut")
                #expect(repair.range.upperBound == Int64(sizeBefore))
                #expect(repair.byteCount >= Int64(appendedPrefix))
            }
            try writer.write(Record(writer: -1, index: round, size: 0))
            // Not closed: `close()` syncs, which a kill does not test and which costs most of the time.
        }
        #expect(tornPrefixes > 5)

        let reader = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format))
        let (records, error) = reader.readElementsUntilError()
        #expect(error == nil)
        var position = 0
        for round in 0..<rounds {
            var written = 0
            while position < records.count, records[position].writer == round {
                #expect(records[position].index == written, "round \(round): in order, exactly once")
                written += 1
                position += 1
            }
            // The record being written when the kill came may be whole without being acknowledged.
            #expect(
                written == acknowledged[round] || written == acknowledged[round] + 1,
                "round \(round): \(acknowledged[round]) acknowledged, \(written) read")
            #expect(position < records.count && records[position] == Record(writer: -1, index: round, size: 0))
            position += 1
        }
        #expect(position == records.count)
    }

    /// Four processes append 1,000 records each to one file at once: each record reads back
    /// exactly once and intact, each writer's in its order.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func fourProcessesAppendingAtOnce(_ format: BinaryFormat) throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let children = try (0..<4).map {
            try Child(file: url, format: format, writer: $0, seed: UInt64($0), count: 1_000, large: false)
        }
        for child in children { child.finish() }
        for child in children {
            #expect(child.process.terminationStatus == 0)
            #expect(child.acknowledged.count == 1_000)
        }
        // The child's generator decides the sizes: only the fill bytes are checked.
        try Self.expectEachRecordOnce(url, format, writers: 4, count: 1_000, sized: nil)
    }

    /// Four encoders on four threads of one process, 1,000 records each, on one file.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func fourEncodersOnFourThreads(_ format: BinaryFormat) throws {
        let url = temporaryRecordFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let failures = LockedBox<[String]>([])
        let done = DispatchGroup()
        for writer in 0..<4 {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                do {
                    let encoder = try BinaryFileEncoder<Record>(fileAt: url, encoder: BinaryEncoder(format: format))
                    for index in 0..<1_000 {
                        try encoder.write(Record(writer: writer, index: index, size: index % 150))
                    }
                    try encoder.close()
                } catch {
                    failures.mutate { $0.append("writer \(writer): \(error)") }
                }
            }
            thread.start()
        }
        done.wait()
        #expect(failures.value.isEmpty)
        try Self.expectEachRecordOnce(url, format, writers: 4, count: 1_000) { _, index in index % 150 }
    }

    /// Reads the file and checks that each writer's records are all there, once, in order.
    static func expectEachRecordOnce(
        _ url: URL, _ format: BinaryFormat, writers: Int, count: Int, sized size: ((Int, Int) -> Int)?
    ) throws {
        let records = try BinaryFileDecoder<Record>(fileAt: url, decoder: BinaryDecoder(format: format)).readAll()
        #expect(records.count == writers * count)
        var next = [Int](repeating: 0, count: writers)
        for record in records {
            guard record.writer >= 0, record.writer < writers else {
                Issue.record("a record of an unknown writer \(record.writer)")
                continue
            }
            #expect(record.index == next[record.writer], "writer \(record.writer): in order, exactly once")
            next[record.writer] = record.index + 1
            let fill = UInt8(truncatingIfNeeded: record.index)
            #expect(record.payload.allSatisfy { $0 == fill }, "intact")
            if let size { #expect(record.payload.count == size(record.writer, record.index)) }
        }
        #expect(next == [Int](repeating: count, count: writers))
    }
}
