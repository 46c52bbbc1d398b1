import BinarySerialization
import Foundation
import Testing

// Reading protobuf bytes without the type, as `protoc --decode_raw` does.
@Suite struct ProtobufRawTests {
    @Test func everyWireType() throws {
        let hex = """
            08 96 01                     // 1: varint 150
            12 07 74 65 73 74 69 6e 67   // 2: "testing" (does not frame as a message)
            1a 03 08 96 01               // 3: a message holding 1: 150
            21 00 00 00 00 00 00 f0 3f   // 4: fixed64
            2d 00 00 80 3f               // 5: fixed32
            33 08 01 34                  // 6: a group holding 1: 1
            3a 00                        // 7: empty bytes
            42 02 ff 00                  // 8: bytes that are not UTF-8
            """
        let data = Data(bytes(hex))
        let raw = try ProtobufDecoder().decodeRaw(from: data)
        #expect(raw.fields.map(\.number) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(raw.fields.map(\.offset) == [0, 3, 12, 17, 26, 31, 35, 37])
        #expect(raw.fields[0].value == .varint(150))
        #expect(raw.fields[3].value == .fixed64(0x3ff0_0000_0000_0000))
        #expect(raw.fields[4].value == .fixed32(0x3f80_0000))
        let expected = """
            1: 150
            2: "testing"
            3 {
              1: 150
            }
            4: 0x3ff0000000000000
            5: 0x3f800000
            6 {
              1: 1
            }
            7: ""
            8: "\\377\\000"

            """
        #expect(raw.description == expected)
        #expect(raw.serialized() == data)
    }

    @Test func encodedValuesReadBack() throws {
        let value = PBComposite(
            id: 3, name: "x", inner: PBInner(a: 1), list: [PBInner(b: 2)], doubles: [1], map: ["k": PBInner()],
            colors: [.blue], choice: .number(7))
        let data = try ProtobufEncoder().encode(value)
        let raw = try ProtobufDecoder().decodeRaw(from: data)
        #expect(raw.serialized() == data)
        #expect(raw.fields.first?.value == .varint(3))
    }

    @Test func malformedInputThrows() {
        for hex in ["08", "0a 05 61", "00 01", "0e 00", "0c"] {
            #expect(throws: DecodingError.self, "\(hex)") { try ProtobufDecoder().decodeRaw(from: Data(bytes(hex))) }
        }
    }

    @Test func deepNestingIsBytesPastTheLimit() throws {
        // 300 messages each holding the next in field 1: past the depth limit (100) the bytes are
        // kept as bytes, not an error.
        var data: [UInt8] = [0x08, 0x01]
        for _ in 0..<300 {
            data = [0x0a] + base128Varint(UInt64(data.count)) + data
        }
        let raw = try ProtobufDecoder().decodeRaw(from: Data(data))
        #expect(raw.serialized() == Data(data))
        var depth = 0
        var node = raw
        while case .lengthDelimited(_, let inner?) = node.fields.first?.value {
            depth += 1
            node = inner
        }
        #expect(depth == 100)
    }

    /// `explain`: a line per tag, value and end tag of a group, nested by depth; malformed bytes are
    /// a `DecodingError`, not a partial dump.
    @Test func explainShowsGroupsAndRejectsMalformedBytes() throws {
        // Group 1 { 2: varint 5 }, then 3: "a!" (61 is a fixed64 tag without its eight bytes, so
        // the value does not frame as a message).
        let data = Data([0x0b, 0x10, 0x05, 0x0c, 0x1a, 0x02, 0x61, 0x21])
        let lines = try ProtobufDecoder().explain(data).split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines.joined(separator: "\n"))")
        let expected = [
            ("00  0b", "field 1 (start group)"), ("01  10", "  field 2 (varint)"), ("02  05", "    varint 5 (sint -3)"),
            ("03  0c", "end of group 1"), ("04  1a", "field 3 (length-delimited)"), ("05  02", "  length 2"),
            ("06  61 21", "  \"a!\" (2 bytes)"),
        ]
        for (line, (start, end)) in zip(lines, expected) {
            #expect(line.hasPrefix(start) && line.hasSuffix(end), "\(line)")
        }
        #expect(throws: DecodingError.self) { try ProtobufDecoder().explain(Data([0x12, 0x09, 0x61])) }
    }
}
