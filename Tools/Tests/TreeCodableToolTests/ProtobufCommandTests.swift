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

    @Test func inspectPrintsTheFieldsAsDecodeRawDoes() {
        let outcome = runInProcess(["inspect", "--format", "protobuf"], stdin: Self.message)
        #expect(outcome.status == 0)
        #expect(outcome.errorOutput == "")
        #expect(
            outcome.output == """
                1: 150
                2: "testing"
                3 {
                  1: 1
                }
                4: 0x01020304

                """)
    }

    @Test func inspectJSONGivesEachFieldWithItsOffsetAndWireType() {
        let outcome = runInProcess(["inspect", "--format", "protobuf", "--json"], stdin: Self.message)
        #expect(outcome.status == 0)
        #expect(
            outcome.output == #"""
                {"type":"value","format":"protobuf","detected":false,"structureFound":true,"value":{"fields":[\#
                {"number":1,"offset":0,"wireType":0,"varint":150},\#
                {"number":2,"offset":3,"wireType":2,"bytes":"74657374696e67","message":null},\#
                {"number":3,"offset":12,"wireType":2,"bytes":"0801","message":{"fields":[{"number":1,"offset":14,"wireType":0,"varint":1}]}},\#
                {"number":4,"offset":16,"wireType":5,"fixed32":16909060}]}}

                """#)
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
