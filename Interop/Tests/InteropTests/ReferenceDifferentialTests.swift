import BinarySerialization
import Foundation
import Testing

// The differential against Google's own protobuf (Python, upb backend), a second oracle beside
// swift-protobuf. Reference/reference.py writes 20,000 random `reference.Root` messages
// (Proto/reference.proto), reshaped as writers may (packed fields unpacked or split, fields
// reordered, unknown fields of every wire type spliced in at every level, messages concatenated);
// we read each one twice, with the typed path (`decode`, then `encode`) and the tree path
// (`decodeTree`, then `encode(tree:)`), and the script checks both outputs against its own parse of
// the input: the typed one without the unknown fields, the tree one with them. Everything goes
// through files, one Python process to generate and one to check.
//
// INTEROP_SEED=n repeats a run (the seed is random otherwise, and printed); INTEROP_REFERENCE_COUNT=n
// changes the number of messages. Needs python3 with `pip install protobuf grpcio-tools`.
@Suite struct ReferenceDifferentialTests {
    static let seed: UInt64 =
        ProcessInfo.processInfo.environment["INTEROP_SEED"].flatMap { UInt64($0) } ?? .random(in: 0...UInt64.max)
    static let count = ProcessInfo.processInfo.environment["INTEROP_REFERENCE_COUNT"].flatMap { Int($0) } ?? 20_000

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Reference/reference.py")

    @Test func googleProtobufAgreesWithBothPaths() throws {
        let seed = Self.seed
        let repeatWith =
            "repeat with: INTEROP_SEED=\(seed) swift test --package-path Interop --filter ReferenceDifferentialTests"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("interop-reference-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("inputs.hex")
        let typed = folder.appendingPathComponent("typed.hex")
        let tree = folder.appendingPathComponent("tree.hex")

        let generated = try Self.python(
            ["generate", "--seed", "\(seed)", "--count", "\(Self.count)", "--out", inputs.path], in: folder)
        guard generated.status == 0 else {
            Issue.record("seed \(seed): the reference could not generate the inputs.\n\(generated.explained)")
            return
        }
        print(generated.output, terminator: "")

        let lines = try Self.lines(of: inputs)
        #expect(lines.count == Self.count)
        // Both paths, on every core: a run of lines each, with its own encoder and decoder.
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let results = Results(chunks: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let encoder = ProtobufEncoder()
            let decoder = ProtobufDecoder()
            var typedOut = ""
            var treeOut = ""
            var errors: [String] = []
            for index in lines.count * chunk / chunks..<lines.count * (chunk + 1) / chunks {
                let line = lines[index]
                let input = Self.bytes(hex: line)
                typedOut += Self.result(line: index + 1, input: line, path: "typed", errors: &errors) {
                    try encoder.encode(decoder.decode(Root.self, from: input))
                }
                typedOut += "\n"
                treeOut += Self.result(line: index + 1, input: line, path: "tree", errors: &errors) {
                    try encoder.encode(tree: decoder.decodeTree(Root.self, from: input))
                }
                treeOut += "\n"
            }
            results.store(chunk: chunk, typed: typedOut, tree: treeOut, errors: errors)
        }
        try results.joined(\.typed).write(to: typed, atomically: false, encoding: .utf8)
        try results.joined(\.tree).write(to: tree, atomically: false, encoding: .utf8)
        let errors = results.errors

        let checked = try Self.python(
            ["check", "--in", inputs.path, "--ours", typed.path, "--tree", tree.path], in: folder)
        if checked.status == 0 {
            print("reference differential: seed \(seed)\n\(checked.output)", terminator: "")
        } else {
            let thrown = errors.isEmpty ? "" : "\nFirst errors we threw:\n" + errors.prefix(5).joined(separator: "\n")
            Issue.record(
                "seed \(seed): Google's protobuf disagrees with our output (\(repeatWith)):\n\(checked.explained)\(thrown)"
            )
        }
    }

    /// The outputs of the chunks of lines, in the order of the lines.
    final class Results: @unchecked Sendable {
        struct Chunk {
            var typed = "", tree = "", errors: [String] = []
        }
        private let lock = NSLock()
        private var chunks: [Chunk]
        init(chunks: Int) { self.chunks = Array(repeating: Chunk(), count: chunks) }

        func store(chunk: Int, typed: String, tree: String, errors: [String]) {
            lock.withLock { chunks[chunk] = Chunk(typed: typed, tree: tree, errors: errors) }
        }
        func joined(_ part: KeyPath<Chunk, String>) -> String {
            lock.withLock { chunks.map { $0[keyPath: part] }.joined() }
        }
        var errors: [String] { lock.withLock { chunks.flatMap(\.errors) } }
    }

    /// Our output for one input, in hex, or `!` and the error we threw.
    static func result(
        line: Int, input: String, path: String, errors: inout [String], _ body: () throws -> Data
    ) -> String {
        do {
            return hex(try body())
        } catch {
            let text = "\(error)".replacingOccurrences(of: "\n", with: " ")
            if errors.count < 5 { errors.append("  line \(line), \(path) path, input \(input): \(text)") }
            return "!" + text
        }
    }

    struct Run {
        var status: Int32
        var output: String
        var errorOutput: String
        var explained: String {
            switch status {
            case 127:
                "python3 is not on the PATH (/usr/bin/env python3 exits 127). This test needs Python 3 with "
                    + "Google's protobuf and protoc: pip install protobuf grpcio-tools\n\(errorOutput)"
            case 3: "\(errorOutput)"  // reference.py: google.protobuf or grpc_tools is missing, or protoc failed
            default: "reference.py exits \(status)\n\(output)\(errorOutput)"
            }
        }
    }

    /// Runs `python3 reference.py arguments`, its output going through files (it can be long).
    static func python(_ arguments: [String], in folder: URL) throws -> Run {
        let out = folder.appendingPathComponent("stdout-\(arguments[0])")
        let err = folder.appendingPathComponent("stderr-\(arguments[0])")
        guard FileManager.default.createFile(atPath: out.path, contents: nil),
            FileManager.default.createFile(atPath: err.path, contents: nil)
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: out.path]) }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        try outHandle.close()
        try errHandle.close()
        return Run(
            status: process.terminationStatus,
            output: try String(contentsOf: out, encoding: .utf8),
            errorOutput: try String(contentsOf: err, encoding: .utf8))
    }

    static func lines(of file: URL) throws -> [String] {
        var lines = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines.map(String.init)
    }

    static func bytes(hex: String) -> Data {
        func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c &- 0x30 : (c | 0x20) &- 0x57 }
        let utf8 = Array(hex.utf8)
        var data = Data(count: utf8.count / 2)
        data.withUnsafeMutableBytes { out in
            for i in 0..<out.count { out[i] = nibble(utf8[2 * i]) << 4 | nibble(utf8[2 * i + 1]) }
        }
        return data
    }

    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(data.count * 2)
        for byte in data {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
