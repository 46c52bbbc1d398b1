import Foundation
import Testing
import TreeCodableTool

/// The exit statuses `--help` and Tools/README.md give: the same for every command, with
/// "no structure found" as bad input (1) and an empty input as an empty value (0).
@Suite struct ExitStatusTests {
    /// `ff ff ff`: no varint ends, no container frames, not UTF-8, no fixed-size reading; no
    /// protobuf field either (the tag's varint does not end).
    static let unstructured = Data([0xff, 0xff, 0xff])

    static let noStructure =
        "treecodable: error: no structure found: 3 bytes that frame as no container and read as no value\n"

    /// What was found comes first on standard output, then the reason on standard error.
    @Test(arguments: [
        (
            ["inspect"],
            "format: v3 (detected)\nbytes ff ff ff (3 bytes at 0)\n", noStructure
        ),
        (["inspect", "--format", "v2"], "bytes ff ff ff (3 bytes at 0)\n", noStructure),
        (
            ["inspect", "--json"],
            #"{"type":"value","format":"v3","detected":true,"structureFound":false,"value":{"offset":0,"size":3,"kind":"bytes","hex":"ffffff","readings":[],"alsoFits":[]}}"#
                + "\n", noStructure
        ),
        (
            ["hex"],
            "format: v3 (detected)\n00  ff ff ff                 value: bytes (3 bytes)\n", noStructure
        ),
        (["hex", "--format", "v3"], "00  ff ff ff                 value: bytes (3 bytes)\n", noStructure),
        (["detect"], "", "treecodable: error: no structure found in 3 bytes\n"),
        (
            ["detect", "--json"],
            #"{"type":"detect","structureFound":false,"size":3,"readAsValue":true,"formats":[],"stream":null,"possible":[]}"#
                + "\n", "treecodable: error: no structure found in 3 bytes\n"
        ),
        (
            ["inspect", "--format", "protobuf"], "",
            "treecodable: error: the data ends before a varint at byte offset 0\n"
        ),
    ])
    func noStructureFoundExits1(_ arguments: [String], _ output: String, _ errorOutput: String) {
        let outcome = runInProcess(arguments, stdin: Self.unstructured)
        #expect(outcome == Outcome(status: 1, output: output, errorOutput: errorOutput))
    }

    /// An empty input is the encoding of an empty value in every format: not bad input.
    @Test(arguments: [
        (["inspect"], "format: v3 (detected)\nempty (0 bytes at 0)\n"),
        (
            ["hex"],
            "format: v3 (detected)\n00                           value: empty (0 bytes: empty string, data, array or container)\n"
        ),
        (["detect"], "empty: 0 bytes (an empty string, data, array, container or message in every format)\n"),
        (
            ["detect", "--json"],
            #"{"type":"detect","structureFound":false,"size":0,"readAsValue":true,"formats":[],"stream":null,"possible":[]}"#
                + "\n"
        ),
        (["inspect", "--format", "protobuf"], ""),
        (["hex", "--format", "protobuf"], ""),
        (["inspect", "--stream"], "format: v3 stream (only v3 streams can be split without a type)\n0 elements\n"),
    ])
    func emptyInputExits0(_ arguments: [String], _ output: String) {
        #expect(runInProcess(arguments) == Outcome(status: 0, output: output, errorOutput: ""))
    }

    /// `s` with every run of whitespace made one space: help text is wrapped to the terminal.
    static func unwrapped(_ s: String) -> String {
        s.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static let exitStatusText = """
        Exit status: 0 success; 1 bad input: a file that cannot be read, bytes that do not frame in the \
        format asked for, a value larger than --max-bytes, or bytes that are not empty and show no structure \
        ('no structure found'; an empty input is an empty value, not bad input); 2 usage error. With 1, \
        what was found is printed first and the reason follows on standard error, with the byte offset \
        when there is one.
        """

    @Test(arguments: [[], ["inspect"], ["hex"], ["detect"]])
    func helpGivesTheExitStatuses(_ command: [String]) {
        let outcome = runInProcess(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(Self.unwrapped(outcome.output).contains(Self.exitStatusText))
    }

    @Test func readmeGivesTheExitStatuses() throws {
        let text = Self.unwrapped(try readmeText())
        #expect(text.contains("Exit status, the same for every command (`--help` gives it too): - 0: success."))
        #expect(text.contains("or bytes that are not empty and show no structure (`no structure found`:"))
        #expect(text.contains("- 2: usage error."))
    }

    /// The built binary exits with the status `run` returns.
    @Test(.enabled(if: builtExecutable() != nil)) func binaryExitsWith1WhenNothingIsFound() throws {
        let executable = try #require(builtExecutable())
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-\(UUID()).bin")
        try Self.unstructured.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        for command in ["inspect", "hex", "detect"] {
            let outcome = try runBinary(executable, [command, url.path])
            #expect(outcome.status == 1, "\(command)")
            #expect(outcome.errorOutput.hasPrefix("treecodable: error: no structure found"), "\(command)")
        }
    }
}
