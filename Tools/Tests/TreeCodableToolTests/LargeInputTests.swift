import BinarySerialization
import Foundation
import Testing

/// The built binary on a generated 64 MiB v3 stream, under a virtual-memory limit far below what
/// reading the whole input as a tree would take: every command reads in chunks and keeps at most
/// `--max-bytes` of one value or element.
@Suite(.serialized) struct LargeInputTests {
    /// A record whose payload sizes straddle the default `--max-bytes` (1 MiB).
    struct Record: Codable {
        var name: String
        var payload: Data
        var values: [Int]
    }

    /// The virtual-memory limit in KiB (`ulimit -v`): the runtime reserves some address space up
    /// front, so this is well above the resident size, yet far below the input's size times 30.
    static let memoryLimitKiB = 512 << 10

    /// Writes the stream to a temporary file and returns its path and element count.
    static func makeLargeStream(bytes target: Int) throws -> (path: String, elements: Int) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-large-\(UUID()).stream")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let encoder = BinaryStreamEncoder<Record>()
        var generator = SystemRandomNumberGenerator()
        var written = 0
        var count = 0
        while written < target {
            // Every eighth payload is larger than --max-bytes, the others a few KiB to 256 KiB.
            let size = count % 8 == 7 ? (3 << 19) : Int.random(in: 1 << 12...1 << 18, using: &generator)
            let payload = Self.randomData(count: size, using: &generator)
            let record = Record(name: "record \(count)", payload: payload, values: Array(0..<(count % 100)))
            let bytes = try encoder.encode(record)
            try handle.write(contentsOf: bytes)
            written += bytes.count
            count += 1
        }
        return (url.path, count)
    }

    /// `count` random bytes, drawn eight at a time.
    static func randomData(count: Int, using generator: inout SystemRandomNumberGenerator) -> Data {
        var words = (0..<(count + 7) / 8).map { _ in generator.next() }
        return words.withUnsafeMutableBytes { Data($0.prefix(count)) }
    }

    /// Runs the binary under the memory limit.
    func runLimited(_ executable: URL, _ arguments: [String]) throws -> Outcome {
        let script = "ulimit -v \(Self.memoryLimitKiB) && exec \"$0\" \"$@\""
        return try runBinary(URL(fileURLWithPath: "/bin/sh"), ["-c", script, executable.path] + arguments)
    }

    @Test(.enabled(if: builtExecutable() != nil)) func everyCommandInBoundedMemory() throws {
        let executable = try #require(builtExecutable())
        let (path, elements) = try Self.makeLargeStream(bytes: 64 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let detect = try runLimited(executable, ["detect", path])
        #expect(detect.status == 0, "\(detect)")
        #expect(detect.output.contains("v3 stream: \(elements) elements"))
        #expect(detect.output.contains("it was not read as one value"))

        let inspect = try runLimited(executable, ["inspect", path])
        #expect(inspect.status == 1, "\(inspect)")
        #expect(inspect.errorOutput.contains("stopped early"))

        let hex = try runLimited(executable, ["hex", path])
        #expect(hex.status == 1, "\(hex)")
        #expect(hex.errorOutput.contains("stopped early"))

        let stream = try runLimited(executable, ["inspect", "--stream", path])
        #expect(stream.status == 0, "\(stream.errorOutput)")
        #expect(stream.output.hasSuffix("\(elements) elements\n"))
        #expect(stream.output.contains("element 7 at "))
        #expect(stream.output.contains("not read (larger than --max-bytes 1048576)"))

        let json = try runLimited(executable, ["inspect", "--stream", "--json", "--limit", "20", path])
        #expect(json.status == 0, "\(json.errorOutput)")
        #expect(json.output.split(separator: "\n").count == 21)

        let hexStream = try runLimited(executable, ["hex", "--stream", "--element", "3", path])
        #expect(hexStream.status == 0, "\(hexStream.errorOutput)")
        #expect(hexStream.output.contains("stopped early after element 3"))
    }

    @Test func randomBytesHaveNoStructure() {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let outcome = runInProcess(["detect"], stdin: data)
        let error = "treecodable: error: no structure found in 4096 bytes\n"
        #expect(outcome == Outcome(status: 1, output: "", errorOutput: error))
    }
}
