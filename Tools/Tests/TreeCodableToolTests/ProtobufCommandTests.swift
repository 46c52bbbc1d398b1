import BinarySerialization
import Foundation
import Testing
import TreeCodableTool

/// `--format protobuf`: a proto3 message read without its type, as `protoc --decode_raw` reads it.
@Suite struct ProtobufCommandTests {
    /// Field 1 = 150 (varint), field 2 = "testing" (length-delimited, not a message), field 3 = a
    /// nested message {1: 1}, field 4 = fixed32 0x01020304: hand-made bytes.
    static let message = Data(
        [0x08, 0x96, 0x01]  // 1: varint 150
            + [0x12, 0x07] + Array("testing".utf8)  // 2: "testing"
            + [0x1a, 0x02, 0x08, 0x01]  // 3: { 1: 1 }
            + [0x25, 0x04, 0x03, 0x02, 0x01])  // 4: fixed32

    @Test func inspectPrintsAFieldPerLineWithEveryReading() {
        let outcome = runInProcess(["inspect", "--format", "protobuf"], stdin: Self.message)
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        #expect(
            outcome.output == #"""
                1: 150
                2: "testing"
                3: message (1 field) | "\010\001"
                  1: 1
                4: 0x01020304

                """#)
    }

    /// A length-delimited value of each kind, a group and a fixed64.
    static let readings = Data(
        [0x12, 0x02, 0x68, 0x69]  // 2: "hi", which also frames as { 13: 105 }
            + [0x1a, 0x03, 0x08, 0x96, 0x01]  // 3: { 1: 150 }, not UTF-8 (96 continues no character)
            + [0x22, 0x02, 0xff, 0x00]  // 4: not UTF-8, no message (ff 00 is a tag of wire type 7)
            + [0x2a, 0x00]  // 5: empty
            + [0x33, 0x08, 0x01, 0x34]  // 6: a group { 1: 1 }
            + [0x39, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])  // 7: fixed64 1

    @Test func lengthDelimitedValuesListEveryReading() {
        let outcome = runInProcess(["inspect", "--format", "protobuf"], stdin: Self.readings)
        #expect(
            outcome
                == Outcome(
                    status: 0,
                    output: """
                        2: "hi" | message (1 field)
                          13: 105
                        3: message (1 field) | bytes 08 96 01
                          1: 150
                        4: bytes ff 00
                        5: ""
                        6: group (1 field)
                          1: 1
                        7: 0x0000000000000001

                        """, errorOutput: ""))
    }

    @Test func detectListsProtobufAsAPossibility() {
        let text = runInProcess(["detect"], stdin: Self.message)
        let expected = "v3: bytes\nv2: bytes\nprotobuf (possible): message (4 fields)\n"
        #expect(text == Outcome(status: 0, output: expected, errorOutput: ""))
        let json = runInProcess(["detect", "--json"], stdin: Self.message)
        #expect(
            json.output
                == #"{"type":"detect","structureFound":true,"size":21,"readAsValue":true,"formats":[{"format":"v3","shape":"bytes"},{"format":"v2","shape":"bytes"}],"stream":null,"possible":[{"format":"protobuf","shape":"message (4 fields)"}]}"#
                + "\n")
        // Bytes that only frame as a protobuf message show structure: exit status 0.
        let only = runInProcess(["detect"], stdin: Data([0x08, 0x01]))
        #expect(only.status == 0)
        #expect(only.output == "v3: bytes\nv2: bytes\nprotobuf (possible): message (1 field)\n")
    }

    /// Bytes `inspect --format protobuf` reads, which are still not listed: they are not what a
    /// proto3 encoder writes.
    static let strictCases: [[UInt8]] = [
        [0x0b, 0x08, 0x01, 0x0c],  // a group (wire types 3 and 4: proto2 only)
        [0xc0, 0xa3, 0x09, 0x01],  // field 19000 (reserved by protobuf) = 1
        [0x08, 0x81, 0x00],  // field 1 = 1 in a two-byte varint
    ]

    @Test(arguments: strictCases)
    func detectIsStrictAboutProtobuf(_ bytes: [UInt8]) {
        #expect(runInProcess(["inspect", "--format", "protobuf"], stdin: Data(bytes)).status == 0)
        let outcome = runInProcess(["detect"], stdin: Data(bytes))
        #expect(!outcome.output.contains("protobuf"), "\(outcome)")
    }

    @Test func detectDoesNotListAV3MessageAsProtobuf() {
        #expect(
            runInProcess(["detect", fixture("message-v3.bin")])
                == Outcome(status: 0, output: "v3: keyed container (3 fields)\nv2: bytes\n", errorOutput: ""))
    }

    @Test func helpCoversProtobuf() {
        let help = ExitStatusTests.unwrapped(runInProcess(["--help"]).output)
        #expect(
            help.hasPrefix(
                "OVERVIEW: Look at BinaryCodable (v3), legacy BinaryCodable 2.x (v2) or protobuf (proto3) bytes "
                    + "without their Swift type."))
        #expect(help.contains("--format auto picks v3 or v2, never protobuf"))
        let detect = ExitStatusTests.unwrapped(runInProcess(["detect", "--help"]).output)
        #expect(detect.contains("'protobuf (possible)' means the bytes frame cleanly as a proto3 message"))
    }

    /// Each command's usage line in Tools/README.md lists the formats its --help gives.
    @Test(arguments: ["inspect", "hex"])
    func readmeUsageListsTheRealFormats(_ command: String) throws {
        let help = ExitStatusTests.unwrapped(runInProcess([command, "--help"]).output)
        let values = try #require(help.range(of: "(values: ")).upperBound
        let formats = help[values...].prefix { $0 != ";" }.replacingOccurrences(of: ", ", with: "|")
        #expect(formats == "v3|v2|protobuf|auto")
        #expect(try readmeText().contains("`treecodable \(command) [--format \(formats)] "))
    }

    /// `message` and `readings` with the JSON `inspect --format protobuf --json` prints for them.
    static let jsonCases: [(Data, String)] = [
        (
            message,
            #"""
            {"type":"value","format":"protobuf","detected":false,"structureFound":true,"value":{"fields":[\#
            {"number":1,"offset":0,"wireType":0,"varint":150},\#
            {"number":2,"offset":3,"wireType":2,"bytes":"74657374696e67","message":null,"string":"testing"},\#
            {"number":3,"offset":12,"wireType":2,"bytes":"0801","message":{"fields":[{"number":1,"offset":14,"wireType":0,"varint":1}]},"string":"\u0008\u0001"},\#
            {"number":4,"offset":16,"wireType":5,"fixed32":16909060}]}}

            """#
        ),
        (
            readings,
            #"""
            {"type":"value","format":"protobuf","detected":false,"structureFound":true,"value":{"fields":[\#
            {"number":2,"offset":0,"wireType":2,"bytes":"6869","message":{"fields":[{"number":13,"offset":2,"wireType":0,"varint":105}]},"string":"hi"},\#
            {"number":3,"offset":4,"wireType":2,"bytes":"089601","message":{"fields":[{"number":1,"offset":6,"wireType":0,"varint":150}]},"string":null},\#
            {"number":4,"offset":9,"wireType":2,"bytes":"ff00","message":null,"string":null},\#
            {"number":5,"offset":13,"wireType":2,"bytes":"","message":null,"string":""},\#
            {"number":6,"offset":15,"wireType":3,"group":{"fields":[{"number":1,"offset":16,"wireType":0,"varint":1}]}},\#
            {"number":7,"offset":19,"wireType":1,"fixed64":1}]}}

            """#
        ),
    ]

    /// Each field with its offset and wire type; a length-delimited one with its bytes in hex, the
    /// message they frame as and their text.
    @Test(arguments: jsonCases)
    func inspectJSONGivesEachFieldWithItsReadings(_ input: Data, _ expected: String) {
        let outcome = runInProcess(["inspect", "--format", "protobuf", "--json"], stdin: input)
        #expect(outcome == Outcome(status: 0, output: expected, errorOutput: ""))
    }

    @Test func malformedBytesAreAnErrorWithTheOffset() {
        // Field 2, length 9, but 2 bytes follow.
        let outcome = runInProcess(["inspect", "--format", "protobuf"], stdin: Data([0x12, 0x09, 0x61, 0x62]))
        #expect(outcome.status == 1)
        #expect(outcome.output == "")
        #expect(outcome.errorOutput.contains("at byte offset 1"), "\(outcome.errorOutput)")
    }

    @Test func hexAnnotatesEveryTagLengthAndValue() {
        let outcome = runInProcess(["hex", "--format", "protobuf"], stdin: Self.message)
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        #expect(
            outcome.output == """
                00  08                       field 1 (varint)
                01  96 01                      varint 150 (sint 75)
                03  12                       field 2 (length-delimited)
                04  07                         length 7
                05  74 65 73 74 69 6e 67       "testing" (7 bytes)
                0c  1a                       field 3 (length-delimited)
                0d  02                         length 2
                0e  08                         field 1 (varint)
                0f  01                           varint 1 (sint -1)
                10  25                       field 4 (fixed32)
                11  04 03 02 01                fixed32 16909060 | float 2.3879393e-38

                """)
    }

    @Test func streamsAreRefused() {
        for command in ["inspect", "hex"] {
            let outcome = runInProcess([command, "--format", "protobuf", "--stream"], stdin: Self.message)
            #expect(outcome.status == 1)
            #expect(outcome.errorOutput.contains("a protobuf message has no element framing"))
        }
    }
}
