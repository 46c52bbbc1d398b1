import Foundation
import TreeCodableTool

/// The fixture files, found next to this source file.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

/// The text of Tools/README.md.
func readmeText() throws -> String {
    let readme = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")
    return try String(contentsOf: readme, encoding: .utf8)
}

/// What a run printed and returned.
struct Outcome: Equatable, CustomStringConvertible {
    var status: Int32
    var output: String
    var errorOutput: String

    var description: String { "status \(status)\n--- stdout\n\(output)--- stderr\n\(errorOutput)" }
}

/// Collects output written from any thread.
final class Collector: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func append(_ s: String) { lock.lock(); text += s; lock.unlock() }
    var value: String { lock.lock(); defer { lock.unlock() }; return text }
}

/// Runs the command in-process with `arguments` and `stdin` as standard input.
func runInProcess(_ arguments: [String], stdin: Data = Data()) -> Outcome {
    let out = Collector(), err = Collector()
    let context = ToolContext(
        standardInput: { DataSource(stdin) }, output: { out.append($0) }, errorOutput: { err.append($0) })
    let status = TreeCodableTool.run(arguments, context: context)
    return Outcome(status: status, output: out.value, errorOutput: err.value)
}

/// The `treecodable` binary built next to the test bundle (`swift test` builds it: the test
/// target depends on it), or nil if it is not there.
func builtExecutable() -> URL? {
    var starts: [URL] = [Bundle.main.bundleURL]
    if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
    starts.append(contentsOf: Bundle.allBundles.map(\.bundleURL))
    for start in starts {
        var dir = start.resolvingSymlinksInPath()
        for _ in 0..<5 {
            let candidate = dir.appendingPathComponent("treecodable")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
            dir = dir.deletingLastPathComponent()
        }
    }
    return nil
}

/// Runs the built binary with `arguments`, and the file at `stdinPath` (if any) as standard input.
func runBinary(_ executable: URL, _ arguments: [String], stdinPath: String? = nil) throws -> Outcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    if let stdinPath { process.standardInput = FileHandle(forReadingAtPath: stdinPath) }
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let errorOutput = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
        status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
        errorOutput: String(decoding: errorOutput, as: UTF8.self))
}
