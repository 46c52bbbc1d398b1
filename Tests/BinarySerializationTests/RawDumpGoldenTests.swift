import BinarySerialization
import Foundation
import Testing

/// Golden annotated dumps: the text is part of the API (tools and people read it), so any change
/// to it shows up here.
@Suite struct RawDumpGoldenTests {
    /// Compares a dump with its golden text line by line and names the first line that differs.
    static func expectDump(
        _ actual: String, _ expected: String, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for (i, (x, y)) in zip(a, e).enumerated() where x != y {
            Issue.record("\(label) line \(i + 1):\n  got      \(x)\n  expected \(y)", sourceLocation: sourceLocation)
            return
        }
        if a.count != e.count {
            Issue.record(
                "\(label): \(a.count) lines, expected \(e.count); full dump:\n\(actual)", sourceLocation: sourceLocation
            )
        }
    }

    static func vector(_ name: String, _ format: BinaryFormat) -> Data {
        Data((format == .v3 ? Fixtures.v3 : Fixtures.v2).first { $0.name == name }?.bytes ?? [])
    }

    static let v3Dumps: [(String, String)] = [
        (
            "SMessage",
            #"""
            00                           keyed container (3 fields, 36 bytes)
            00  0d 69 73 52 65 61 64       key "isRead" (string key, 6 bytes)
            07  02 01                      isRead: Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte)
            09  0d 73 65 6e 64 65 72       key "sender" (string key, 6 bytes)
            10  0a 41 6c 69 63 65          sender: "Alice" | packed 5 varints [65, 108, 105, 99, 101] (zig-zag [-33, 54, -53, -50, -51]) (5 bytes)
            16  17 75 6e 72 65 61 64 ..    key "unreadCount" (string key, 11 bytes)
            22  02 54                      unreadCount: varint 84 (zig-zag 42) | UInt8 84 | "T" (1 byte)

            """#
        ),
        (
            "Message.seed",
            #"""
            00                           keyed container (3 fields, 13 bytes)
            00  02                         key 1 (int key)
            01  02 01                      1: Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte)
            03  04                         key 2 (int key)
            04  06 42 6f 62                2: "Bob" | packed 3 varints [66, 111, 98] (zig-zag [33, -56, 49]) (3 bytes)
            08  06                         key 3 (int key)
            09  06 06 af 04                3: packed 2 varints [6, 559] (zig-zag [3, -280]) (3 bytes)

            """#
        ),
        (
            "v3.UnkeyedMix.seed",
            #"""
            00                           unkeyed container (4 elements, 10 bytes)
            00  02 00                      [0]: Bool false | varint 0 (zig-zag 0) | UInt8 0 (1 byte)
            02  01                         [1]: nil
            03  0a 48 65 6c 6c 6f          [2]: "Hello" | packed 5 varints [72, 101, 108, 108, 111] (zig-zag [36, -51, 54, 54, -56]) (5 bytes)
            09  00                         [3]: empty (0 bytes: empty string, data, array or container)

            """#
        ),
        (
            "[[Int]]",
            #"""
            00                           unkeyed container (3 elements, 6 bytes); also fits keyed container (2 fields)
            00  04 02 04                   [0]: UInt16 LE 1026 | packed 2 varints [2, 4] (zig-zag [1, 2]) (2 bytes); also fits unkeyed container (1 element)
            03  00                         [1]: empty (0 bytes: empty string, data, array or container)
            04  02 05                      [2]: varint 5 (zig-zag -3) | UInt8 5 (1 byte)

            """#
        ),
    ]

    static let v2Dumps: [(String, String)] = [
        (
            "SMessage",
            #"""
            00                           keyed container (3 fields, 35 bytes)
            00  68 69 73 52 65 61 64       key "isRead" (string key, 6 bytes, varint)
            07  01                         isRead: Bool true | varint 1 (zig-zag -1) (1 byte)
            08  6a 73 65 6e 64 65 72       key "sender" (string key, 6 bytes, length-delimited)
            0f  05 41 6c 69 63 65          sender: "Alice" | packed 5 varints [65, 108, 105, 99, 101] (zig-zag [-33, 54, -53, -50, -51]) (5 bytes)
            15  b8 01 75 6e 72 65 61 ..    key "unreadCount" (string key, 11 bytes, varint)
            22  54                         unreadCount: varint 84 (zig-zag 42) (1 byte)

            """#
        ),
        (
            "Message.seed",
            #"""
            00                           keyed container (3 fields, 12 bytes)
            00  10                         key 1 (int key, varint)
            01  01                         1: Bool true | varint 1 (zig-zag -1) (1 byte)
            02  22                         key 2 (int key, length-delimited)
            03  03 42 6f 62                2: "Bob" | packed 3 varints [66, 111, 98] (zig-zag [33, -56, 49]) (3 bytes)
            07  32                         key 3 (int key, length-delimited)
            08  03 06 af 04                3: packed 2 varints [6, 559] (zig-zag [3, -280]) (3 bytes)

            """#
        ),
        (
            "Derived",
            #"""
            00                           keyed container (2 fields, 12 bytes)
            00  1a 62                      key "b" (string key, 1 byte, length-delimited)
            02  04 66 69 76 65             b: "five" | UInt32 LE 1702259046 | Float 2.7562385e+23 (4 bytes); also fits keyed container (2 fields)
            07  02                         key 0 (int key, length-delimited)
            08  03                         0: keyed container (1 field, 3 bytes)
            09  18 61                        key "a" (string key, 1 byte, varint)
            0b  0a                           a: varint 10 (zig-zag 5) (1 byte)

            """#
        ),
        (
            "Assoc.one",
            #"""
            00                           keyed container (1 field, 13 bytes)
            00  3a 6f 6e 65                key "one" (string key, 3 bytes, length-delimited)
            04  08                         one: keyed container (1 field, 8 bytes)
            05  2a 5f 30                     key "_0" (string key, 2 bytes, length-delimited)
            08  04 53 6f 6d 65               _0: "Some" | Float 1.0283325e+12 | UInt32 LE 1701670739 (4 bytes)

            """#
        ),
    ]

    @Test func v3Dumps() throws {
        for (name, golden) in Self.v3Dumps {
            let data = Self.vector(name, .v3)
            #expect(!data.isEmpty, "vector \(name)")
            Self.expectDump(try BinaryDecoder(format: .v3).explain(data), golden, "v3 \(name)")
        }
    }

    @Test func v2Dumps() throws {
        for (name, golden) in Self.v2Dumps {
            let data = Self.vector(name, .v2)
            #expect(!data.isEmpty, "vector \(name)")
            Self.expectDump(try BinaryDecoder(format: .v2).explain(data), golden, "v2 \(name)")
        }
    }

    @Test func typedV3DumpLabelsEveryField() throws {
        let dump = try BinaryDecoder(format: .v3).explain(Self.vector("Nested", .v3), as: Nested.self)
        Self.expectDump(
            dump,
            #"""
            00                           Nested: keyed container (3 fields, 127 bytes)
            00  0b 69 6e 6e 65 72          key "inner" (string key, 5 bytes)
            06  42                         inner: keyed container (3 fields, 33 bytes)
            07  0d 69 73 52 65 61 64         key "isRead" (string key, 6 bytes)
            0e  02 01                        isRead: true (1 byte)
            10  0d 73 65 6e 64 65 72         key "sender" (string key, 6 bytes)
            17  04 69 6e                     sender: "in" (2 bytes)
            1a  17 75 6e 72 65 61 64 ..      key "unreadCount" (string key, 11 bytes)
            26  02 01                        unreadCount: Int -1 (1 byte)
            28  09 6c 69 73 74             key "list" (string key, 4 bytes)
            2d  84 01                      list: unkeyed container (2 elements, 66 bytes)
            2f  40                           [0]: keyed container (3 fields, 32 bytes)
            30  0d 69 73 52 65 61 64           key "isRead" (string key, 6 bytes)
            37  02 00                          isRead: false (1 byte)
            39  0d 73 65 6e 64 65 72           key "sender" (string key, 6 bytes)
            40  02 61                          sender: "a" (1 byte)
            42  17 75 6e 72 65 61 64 ..        key "unreadCount" (string key, 11 bytes)
            4e  02 02                          unreadCount: Int 1 (1 byte)
            50  40                           [1]: keyed container (3 fields, 32 bytes)
            51  0d 69 73 52 65 61 64           key "isRead" (string key, 6 bytes)
            58  02 01                          isRead: true (1 byte)
            5a  0d 73 65 6e 64 65 72           key "sender" (string key, 6 bytes)
            61  02 62                          sender: "b" (1 byte)
            63  17 75 6e 72 65 61 64 ..        key "unreadCount" (string key, 11 bytes)
            6f  02 04                          unreadCount: Int 2 (1 byte)
            71  0d 6d 61 74 72 69 78       key "matrix" (string key, 6 bytes)
            78  0c                         matrix: unkeyed container (3 elements, 6 bytes)
            79  04 02 04                     [0]: [Int] (2) [1, 2] (2 bytes)
            7c  00                           [1]: [Int] (0) [] (0 bytes)
            7d  02 06                        [2]: [Int] (1) [3] (1 byte)

            """#, "typed v3 Nested")
    }

    @Test func typedV2DumpLabelsEveryField() throws {
        let dump = try BinaryDecoder(format: .v2).explain(Self.vector("Message.seed", .v2), as: Message.self)
        Self.expectDump(
            dump,
            #"""
            00                           Message: keyed container (3 fields, 12 bytes)
            00  10                         key 1 "isComplete" (int key, varint)
            01  01                         isComplete: true (1 byte)
            02  22                         key 2 "owner" (int key, length-delimited)
            03  03 42 6f 62                owner: "Bob" (3 bytes)
            07  32                         key 3 "references" (int key, length-delimited)
            08  03 06 af 04                references: [Int] (2) [3, -280] (3 bytes)

            """#, "typed v2 Message.seed")
    }

    /// A field the type does not know is explained without the type, and marked.
    @Test func typedDumpShowsFieldsTheTypeDoesNotRead() throws {
        struct OnlySender: Decodable { var sender: String }
        let dump = try BinaryDecoder(format: .v3).explain(Self.vector("SMessage", .v3), as: OnlySender.self)
        Self.expectDump(
            dump,
            #"""
            00                           OnlySender: keyed container (3 fields, 36 bytes)
            00  0d 69 73 52 65 61 64       key "isRead" (string key, 6 bytes)
            07  02 01                      isRead (not read by the type): Bool true | varint 1 (zig-zag -1) | UInt8 1 (1 byte)
            09  0d 73 65 6e 64 65 72       key "sender" (string key, 6 bytes)
            10  0a 41 6c 69 63 65          sender: "Alice" (5 bytes)
            16  17 75 6e 72 65 61 64 ..    key "unreadCount" (string key, 11 bytes)
            22  02 54                      unreadCount (not read by the type): varint 84 (zig-zag 42) | UInt8 84 | "T" (1 byte)

            """#, "typed v3 OnlySender")
    }

    /// Bytes that are not a valid `T` throw from the typed dump.
    @Test func typedDumpOfWrongBytesThrows() {
        #expect(throws: DecodingError.self) {
            try BinaryDecoder(format: .v3).explain(Data([0x0d, 0x69]), as: SMessage.self)
        }
    }

    /// Offsets widen with the input (three hex digits past 0xff), long runs are cut after seven bytes.
    @Test func longInputsWidenOffsetsAndCutRuns() throws {
        let text = String(repeating: "x", count: 300)
        var encoder = BinaryEncoder(format: .v3)
        encoder.sortKeysDuringEncoding = true
        let data = try encoder.encode(["long": text, "a": "b"])
        let dump = try BinaryDecoder(format: .v3).explain(data)
        #expect(
            dump.hasPrefix("000  " + String(repeating: " ", count: 25) + "keyed container (2 fields, 311 bytes)\n"),
            "\(dump)")
        #expect(dump.contains("  d8 04 78 78 78 78 78 .."), "\(dump)")
    }
}
