import Foundation
import Testing
import TreeCodableTool

/// The command run in-process through `TreeCodableTool.run`.
@Suite struct InProcessTests {
    @Test func inspectV3Value() {
        let outcome = runInProcess(["inspect", fixture("message-v3.bin")])
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        #expect(
            outcome.output == """
                format: v3 (detected)
                keyed container (3 fields, 36 bytes at 0)
                  "isRead": Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte at 8)
                  "sender": "Alice" | packed 5 varints [65, 108, 105, 99, 101] (zig-zag [-33, 54, -53, -50, -51]) (5 bytes at 17)
                  "unreadCount": varint 84 (zig-zag 42) | UInt8 84 | "T" (1 byte at 35)

                """)
    }

    @Test func inspectNestedV3Value() {
        let outcome = runInProcess(["inspect", "--format", "v3", fixture("nested-v3.bin")])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "keyed container (3 fields, 127 bytes at 0)")
        #expect(lines.contains("  \"inner\": keyed container (3 fields, 33 bytes at 7)"))
        #expect(lines.contains("  \"list\": unkeyed container (2 elements, 66 bytes at 47)"))
        #expect(lines.contains("    [0]: keyed container (3 fields, 32 bytes at 48)"))
        #expect(lines.contains("      \"sender\": varint 98 (zig-zag 49) | UInt8 98 | \"b\" (1 byte at 98)"))
        #expect(lines.contains("    [1]: empty (0 bytes at 125)"))
    }

    @Test func inspectV2Value() {
        let outcome = runInProcess(["inspect", fixture("message-v2.bin")])
        #expect(outcome.status == 0)
        #expect(
            outcome.output == """
                format: v2 (detected)
                keyed container (3 fields, 35 bytes at 0)
                  "isRead" (wire type 0 varint): Bool true | varint 1 (zig-zag -1) (1 byte at 7)
                  "sender" (wire type 2 length-delimited): "Alice" | packed 5 varints [65, 108, 105, 99, 101] (zig-zag [-33, 54, -53, -50, -51]) (5 bytes at 16)
                  "unreadCount" (wire type 0 varint): varint 84 (zig-zag 42) (1 byte at 34)

                """)
    }

    static let streamOutput = """
        element 0 at 0:
          keyed container (3 fields, 32 bytes at 1)
            "isRead": Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte at 9)
            "sender": varint 97 (zig-zag -49) | UInt8 97 | "a" (1 byte at 18)
            "unreadCount": varint 2 (zig-zag 1) | UInt8 2 (1 byte at 32)
        element 1 at 33:
          keyed container (3 fields, 33 bytes at 34)
            "isRead": Bool false | varint 0 (zig-zag 0) | UInt8 0 (1 byte at 42)
            "sender": "bb" | UInt16 LE 25186 | packed 2 varints [98, 98] (zig-zag [49, 49]) (2 bytes at 51)
            "unreadCount": varint 3 (zig-zag -2) | UInt8 3 (1 byte at 66)
        element 2 at 67:
          keyed container (3 fields, 31 bytes at 68)
            "isRead": Bool false | varint 0 (zig-zag 0) | UInt8 0 (1 byte at 76)
            "sender": empty (0 bytes at 85)
            "unreadCount": Bool false | varint 0 (zig-zag 0) | UInt8 0 (1 byte at 98)

        """

    @Test func inspectV3Stream() {
        let outcome = runInProcess(["inspect", "--stream", "--format", "v3", fixture("messages-v3.stream")])
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        #expect(outcome.output == Self.streamOutput + "3 elements\n")
    }

    @Test func inspectStreamWithNilAndManyElements() throws {
        // 20,000 elements read in 64 KiB chunks: nil (01), Int 5 (02 0a), an empty element (00).
        var data = Data()
        for _ in 0..<20_000 { data.append(contentsOf: [0x01, 0x02, 0x0a, 0x00]) }
        let outcome = runInProcess(["inspect", "--stream", "--format", "v3"], stdin: data)
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.last == "60000 elements")
        #expect(lines[0] == "element 0 at 0: nil")
        #expect(lines[1] == "element 1 at 1:")
        #expect(lines[2] == #"  varint 10 (zig-zag 5) | UInt8 10 | "\n" (1 byte at 2)"#)
        #expect(lines[3] == "element 2 at 3:")
        #expect(lines[4] == "  empty (0 bytes at 4)")
    }

    @Test func inspectCorruptStream() {
        let outcome = runInProcess(["inspect", "--stream", fixture("corrupt.stream")])
        #expect(outcome.status == 1)
        #expect(outcome.output.hasPrefix("format: v3 stream"))
        #expect(outcome.output.contains("element 1 at 33:"))
        #expect(!outcome.output.contains("element 2"))
        #expect(outcome.errorOutput.hasPrefix("treecodable: error: the input ends inside element 2: 27 bytes of it arrived"))
        #expect(outcome.errorOutput.contains("at byte offset 67"))
    }

    @Test func invalidStreamPrefixGivesOffset() {
        // Element 1 starts at offset 2 with 03: a nil indicator with a length.
        let outcome = runInProcess(["inspect", "--stream", "--format", "v3", "-"], stdin: Data([0x02, 0x01, 0x03, 0x00]))
        #expect(outcome.status == 1)
        #expect(outcome.errorOutput.contains("element 1: a nil indicator with a length (prefix 3) at byte offset 2"))
    }

    @Test func v2StreamCannotBeSplit() {
        let outcome = runInProcess(["inspect", "--stream", "--format", "v2", fixture("messages-v2.stream")])
        #expect(outcome.status == 1)
        #expect(outcome.output == "")
        #expect(outcome.errorOutput.contains("a v2 stream cannot be split without the element type"))
    }

    @Test func tooDeepGivesOffset() {
        // 5,000 nested length-delimited values, read as v3 as 2,500 nested containers: deeper than
        // the 2,048 that the limit of 512 allows bytes read without a type.
        var bytes: [UInt8] = [0x02, 0x01]
        for _ in 0..<5000 {
            var n = bytes.count << 1
            var prefix: [UInt8] = []
            repeat {
                prefix.append(UInt8(n & 0x7f) | (n > 0x7f ? 0x80 : 0))
                n >>= 7
            } while n > 0
            bytes = prefix + bytes
        }
        for command in ["inspect", "hex"] {
            let outcome = runInProcess([command, "--format", "v3"], stdin: Data(bytes))
            #expect(outcome.status == 1, "\(command)")
            #expect(
                outcome.errorOutput.contains(
                    "containers nested deeper than 2048 (4 per level of the maximum depth of 512) at byte offset "),
                "\(command)")
        }
    }

    static let hexOutput = """
        00                           keyed container (3 fields, 36 bytes)
        00  0d 69 73 52 65 61 64       key "isRead" (string key, 6 bytes)
        07  02 01                      isRead: Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte)
        09  0d 73 65 6e 64 65 72       key "sender" (string key, 6 bytes)
        10  0a 41 6c 69 63 65          sender: "Alice" | packed 5 varints [65, 108, 105, 99, 101] (zig-zag [-33, 54, -53, -50, -51]) (5 bytes)
        16  17 75 6e 72 65 61 64 ..    key "unreadCount" (string key, 11 bytes)
        22  02 54                      unreadCount: varint 84 (zig-zag 42) | UInt8 84 | "T" (1 byte)

        """

    @Test func hexAndDumpAlias() {
        let hex = runInProcess(["hex", fixture("message-v3.bin")])
        #expect(hex.status == 0)
        #expect(hex.output == "format: v3 (detected)\n" + Self.hexOutput)
        let explicit = runInProcess(["hex", "--format", "v3", fixture("message-v3.bin")])
        #expect(explicit.output == Self.hexOutput)
        #expect(runInProcess(["dump", "--format", "v3", fixture("message-v3.bin")]) == explicit)
        #expect(!runInProcess(["--help"]).output.contains("  dump "))
    }

    @Test func detect() {
        #expect(
            runInProcess(["detect", fixture("message-v2.bin")])
                == Outcome(status: 0, output: "v2: keyed container (3 fields)\nv3: bytes\n", errorOutput: ""))
        #expect(runInProcess(["detect", fixture("message-v3.bin")]).output.hasPrefix("v3: keyed container (3 fields)\n"))
    }

    @Test func standardInput() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture("message-v3.bin")))
        let fromFile = runInProcess(["inspect", fixture("message-v3.bin")])
        #expect(runInProcess(["inspect", "-"], stdin: data) == fromFile)
        #expect(runInProcess(["inspect"], stdin: data) == fromFile)
        #expect(runInProcess(["detect"], stdin: data).status == 0)
    }

    @Test(arguments: [
        ["inspect", "--format", "v4"],
        ["inspect", "--bogus"],
        ["inspect", "a", "b"],
        ["frobnicate"],
        [],
        ["hex", "--limit", "2"],
        ["inspect", "--stream", "--element", "-1"],
        ["detect", "a", "b"],
    ])
    func usageErrorsExit2(_ arguments: [String]) {
        let outcome = runInProcess(arguments)
        #expect(outcome.status == 2)
        #expect(outcome.errorOutput.contains("Usage: treecodable"))
        #expect(outcome.output == "")
    }

    @Test(arguments: [[], ["inspect"], ["hex"], ["detect"]])
    func help(_ command: [String]) {
        let outcome = runInProcess(command + ["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("USAGE: treecodable"))
        #expect(outcome.errorOutput == "")
    }

    @Test func unreadableFiles() {
        let missing = runInProcess(["inspect", "/nonexistent/file.bin"])
        #expect(missing.status == 1)
        #expect(missing.errorOutput == "treecodable: error: /nonexistent/file.bin: no such file\n")
        #expect(runInProcess(["hex", NSTemporaryDirectory()]).status == 1)
    }

    @Test func neverCrashesOnArbitraryBytes() {
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 2, 3, 7, 64, 1000] {
            for _ in 0..<20 {
                let data = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
                for arguments in [
                    ["inspect"], ["inspect", "--format", "v2"], ["inspect", "--stream"], ["hex"], ["hex", "--format", "v2"],
                    ["detect"],
                ] {
                    let outcome = runInProcess(arguments, stdin: data)
                    #expect(outcome.status == 0 || outcome.status == 1)
                    #expect(!outcome.output.contains("\u{1B}"))
                }
            }
        }
    }
}

/// The built `treecodable` binary, run as a process.
@Suite struct BinaryTests {
    let executable: URL

    init() throws {
        executable = try #require(builtExecutable(), "the treecodable binary next to the test bundle")
    }

    @Test func streamMatchesInProcess() throws {
        let arguments = ["inspect", "--stream", "--format", "v3", fixture("messages-v3.stream")]
        let outcome = try runBinary(executable, arguments)
        #expect(outcome.status == 0)
        #expect(outcome.output == InProcessTests.streamOutput + "3 elements\n")
        #expect(outcome == runInProcess(arguments))
    }

    @Test func standardInputAndNoColours() throws {
        let outcome = try runBinary(executable, ["hex", "--format", "v3", "-"], stdinPath: fixture("message-v3.bin"))
        #expect(outcome == Outcome(status: 0, output: InProcessTests.hexOutput, errorOutput: ""))
        #expect(!outcome.output.contains("\u{1B}"))
    }

    @Test func exitCodes() throws {
        let corrupt = try runBinary(executable, ["inspect", "--stream", fixture("corrupt.stream")])
        #expect(corrupt.status == 1)
        #expect(corrupt.errorOutput.contains("at byte offset 67"))
        let usage = try runBinary(executable, ["inspect", "--format", "v9", fixture("message-v3.bin")])
        #expect(usage.status == 2)
        #expect(usage.errorOutput.contains("Usage: treecodable inspect"))
        let detect = try runBinary(executable, ["detect", fixture("message-v2.bin")])
        #expect(detect == Outcome(status: 0, output: "v2: keyed container (3 fields)\nv3: bytes\n", errorOutput: ""))
        let help = try runBinary(executable, ["inspect", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("--stream"))
    }
}
