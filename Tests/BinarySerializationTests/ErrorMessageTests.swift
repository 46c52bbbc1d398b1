import BinarySerialization
import Foundation
import Testing

/// What a person reads when decoding fails: one row per representative failure, with the whole
/// text `print(error)` shows. Each states its message, coding path and byte offset once: the
/// message in the debug description, the offset in the underlying error.
@Suite struct ErrorMessageTests {
    struct Message: Codable {
        var sender: String
        var isRead: Bool
        var unreadCount: Int
    }
    struct Small: Codable {
        var tiny: Int8
    }
    struct Named: Codable {
        var name: String
    }
    struct Listed: Codable {
        var list: [Named]
    }
    struct Counted: Codable {
        var count: Int
    }
    struct Flags: Codable {
        var flag: Bool
    }
    struct Numbers: Codable {
        var values: [Int32]
    }
    struct Maybe: Codable {
        var value: Int?
    }
    struct Identified: Codable {
        var id: UUID
    }
    struct Fixed: Codable {
        @FixedSizeEncoded var hash: UInt32
    }

    static func bytes(_ hex: String) -> Data {
        Data(hex.split(separator: " ").compactMap { UInt8($0, radix: 16) })
    }

    static func message<T: Decodable>(_ type: T.Type, _ data: Data, _ format: BinaryFormat = .v3) -> String {
        do {
            _ = try BinaryDecoder(format: format).decode(T.self, from: data)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    /// What a stream of `Int8` elements throws, at the element or at `finish()`.
    static func streamMessage(_ data: Data) -> String {
        let stream = BinaryStreamDecoder<Int8>()
        do {
            for chunk in stride(from: 0, to: data.count, by: 4096) {
                stream.add(data[chunk..<Swift.min(chunk + 4096, data.count)])
                _ = try stream.decodeElements()
            }
            try stream.finish()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    /// What a file of `Int8` elements throws when read to the end.
    static func fileMessage(_ data: Data) -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("error-message-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            try data.write(to: url)
            _ = try BinaryFileDecoder<Int8>(fileAt: url, decoder: BinaryDecoder()).readAll()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    static func encoded<T: Encodable>(_ value: T, _ format: BinaryFormat = .v3) -> Data {
        (try? BinaryEncoder(format: format).encode(value)) ?? Data()
    }

    /// (label, actual message) for every row.
    static var rows: [(String, String)] {
        let alice = encoded(Message(sender: "Alice", isRead: true, unreadCount: 42))
        var badUTF8 = encoded(Listed(list: [Named(name: "ab"), Named(name: "cd")]))
        if let i = badUTF8.lastIndex(of: UInt8(ascii: "d")) { badUTF8[i] = 0xff }
        let uuidAsInt = encoded(Identified(id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()))
        return [
            ("empty input, struct", message(Message.self, Data())),
            ("empty input, Int", message(Int.self, Data())),
            ("empty input, v2 struct", message(Message.self, Data(), .v2)),
            ("trailing 00 after a struct", message(Message.self, alice + [0])),
            (
                "trailing 00 after a v2 struct",
                message(Message.self, encoded(Message(sender: "A", isRead: true, unreadCount: 1), .v2) + [0], .v2)
            ),
            ("trailing byte after an Int", message(Int.self, bytes("02 00"))),
            ("truncated struct", message(Message.self, alice.prefix(20))),
            (
                "truncated v2 struct",
                message(Message.self, encoded(Message(sender: "A", isRead: true, unreadCount: 1), .v2).prefix(10), .v2)
            ),
            ("missing field", message(Message.self, encoded(Named(name: "x")))),
            (
                "Int field over a UUID string",
                message(Counted.self, Data(uuidAsInt.map { $0 }).replacingKey("id", with: "count"))
            ),
            ("Int8 from 300", message(Small.self, encoded(Counted(count: 300)).replacingKey("count", with: "tiny"))),
            ("invalid UTF-8 in a list", message(Listed.self, badUTF8)),
            ("Bool byte 02", message(Flags.self, bytes("09 66 6c 61 67 02 02"))),
            ("over-long varint", message(Counted.self, bytes("0b 63 6f 75 6e 74 04 80 00"))),
            ("length past the end", message(Named.self, bytes("09 6e 61 6d 65 20 41"))),
            ("duplicate key", message(Counted.self, bytes("0b 63 6f 75 6e 74 02 02 0b 63 6f 75 6e 74 02 04"))),
            ("nil for a non-optional", message(Counted.self, bytes("0b 63 6f 75 6e 74 01"))),
            ("packed Int32 cut short", message(Numbers.self, bytes("0d 76 61 6c 75 65 73 04 80 80"))),
            ("UUID of 3 bytes", message(Identified.self, bytes("05 69 64 06 01 02 03"))),
            ("fixed UInt32 of 3 bytes", message(Fixed.self, bytes("09 68 61 73 68 06 01 02 03"))),
            ("v2 wrong wire type", message(Counted.self, bytes("5a 63 6f 75 6e 74 01 41"), .v2)),
            ("v2 unknown wire type", message(Counted.self, bytes("5b 63 6f 75 6e 74 01"), .v2)),
            ("too deep", message([[[[Int]]]].self, bytes("02 02 02 02"))),
            ("Int from a string at the root", message(Int.self, Data("hello".utf8))),
            ("UInt8 from 300", message(UInt8.self, bytes("ac 02"))),
            ("optional with bad flag", message(Maybe.self, bytes("0b 76 61 6c 75 65 05 02"))),
            ("stream ends inside an element", streamMessage(bytes("02 02 04 02"))),
            (
                "stream element 5000 has a trailing byte",
                streamMessage(Data(repeating: 0x02, count: 10_000) + bytes("04 05 05"))
            ),
            ("stream prefix with nil and length", streamMessage(bytes("02 02 03"))),
            ("file element 3 has a trailing byte", fileMessage(bytes("02 02 02 04 02 06 04 05 05"))),
        ]
    }

    /// The whole printed text of each row.
    static let expected: [String: String] = [
        "empty input, struct":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: empty input (Message needs the key \"sender\"). Underlying error: WireFormatError.truncated at byte offset 0",
        "empty input, Int":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: the data ends before a varint. Underlying error: WireFormatError.truncated at byte offset 0",
        "empty input, v2 struct":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: empty input (Message needs the key \"sender\"). Underlying error: WireFormatError.truncated at byte offset 0",
        "trailing 00 after a struct":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: trailing bytes: a 00 after the last field (as a key, key 0 with no value). Underlying error: WireFormatError.trailingBytes at byte offset 36",
        "trailing 00 after a v2 struct":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: trailing bytes: a 00 after the last field (as a key, key 0 with no value). Underlying error: WireFormatError.trailingBytes at byte offset 31",
        "trailing byte after an Int":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: trailing bytes: 1 byte after an Int (zigZag). Underlying error: WireFormatError.trailingBytes at byte offset 1",
        "truncated struct":
            "DecodingError.dataCorrupted: Data was corrupted. Path: isRead. Debug description: the data ends after a key, before its value. Underlying error: WireFormatError.truncated at byte offset 20",
        "truncated v2 struct":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: a key of 6 bytes exceeds the 0 bytes that remain. Underlying error: WireFormatError.truncated at byte offset 9",
        "missing field":
            "DecodingError.keyNotFound: Key 'sender' not found in keyed decoding container. Debug description: keys present: \"name\"",
        "Int field over a UUID string":
            "DecodingError.typeMismatch: expected value of type Int. Path: count. Debug description: expected an Int (zigZag), found 36 bytes of another type. Underlying error: WireFormatError.typeMismatch at byte offset 7",
        "Int8 from 300":
            "DecodingError.typeMismatch: expected value of type Int8. Path: tiny. Debug description: expected an Int8, found 2 bytes of another type. Underlying error: WireFormatError.typeMismatch at byte offset 6",
        "invalid UTF-8 in a list":
            "DecodingError.dataCorrupted: Data was corrupted. Path: list[1].name. Debug description: invalid UTF-8 in a string. Underlying error: WireFormatError.invalidBytes at byte offset 22",
        "Bool byte 02":
            "DecodingError.dataCorrupted: Data was corrupted. Path: flag. Debug description: a Bool must be 0 or 1, found 2. Underlying error: WireFormatError.invalidBytes at byte offset 6",
        "over-long varint":
            "DecodingError.dataCorrupted: Data was corrupted. Path: count. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 7",
        "length past the end":
            "DecodingError.dataCorrupted: Data was corrupted. Path: name. Debug description: an element of 16 bytes exceeds the 1 byte that remains. Underlying error: WireFormatError.truncated at byte offset 5",
        "duplicate key":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: the key \"count\" appears twice. Underlying error: WireFormatError.duplicateKey at byte offset 9",
        "nil for a non-optional":
            "DecodingError.valueNotFound: Expected value of type Int but found null instead. Path: count. Debug description: expected an Int (zigZag), found nil. Underlying error: WireFormatError.valueNotFound at byte offset 7",
        "packed Int32 cut short":
            "DecodingError.dataCorrupted: Data was corrupted. Path: values. Debug description: the data ends inside a varint. Underlying error: WireFormatError.truncated at byte offset 8",
        "UUID of 3 bytes":
            "DecodingError.dataCorrupted: Data was corrupted. Path: id. Debug description: Attempted to decode UUID from invalid UUID string.",
        "fixed UInt32 of 3 bytes":
            "DecodingError.dataCorrupted: Data was corrupted. Path: hash. Debug description: the data ends before 4 bytes. Underlying error: WireFormatError.truncated at byte offset 6",
        "v2 wrong wire type":
            "DecodingError.typeMismatch: expected value of type Int. Path: count. Debug description: expected an Int (zigZag) (wire type varint), found wire type length-delimited. Underlying error: WireFormatError.typeMismatch at byte offset 7",
        "v2 unknown wire type":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: unknown wire type 3. Underlying error: WireFormatError.invalidBytes at byte offset 0",
        "too deep":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [0][0]. Debug description: an element of 1 byte exceeds the 0 bytes that remain. Underlying error: WireFormatError.truncated at byte offset 1",
        "Int from a string at the root":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: trailing bytes: 4 bytes after an Int (zigZag). Underlying error: WireFormatError.trailingBytes at byte offset 1",
        "UInt8 from 300":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: trailing bytes: 1 byte after a UInt8. Underlying error: WireFormatError.trailingBytes at byte offset 1",
        "optional with bad flag":
            "DecodingError.dataCorrupted: Data was corrupted. Path: value. Debug description: a nil indicator with a length (prefix 5). Underlying error: WireFormatError.invalidBytes at byte offset 6",
        "stream ends inside an element":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: the input ends inside element 1 (2 bytes of it arrived). Underlying error: IncompleteElementError at byte offset 2",
        "stream element 5000 has a trailing byte":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: element 5000: trailing bytes: 1 byte after an Int8. Underlying error: WireFormatError.trailingBytes at byte offset 10002",
        "stream prefix with nil and length":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: element 1: a nil indicator with a length (prefix 3). Underlying error: WireFormatError.invalidBytes at byte offset 2",
        "file element 3 has a trailing byte":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: element 3: trailing bytes: 1 byte after an Int8. Underlying error: WireFormatError.trailingBytes at byte offset 8",
    ]

    @Test func everyMessage() {
        let rows = Self.rows
        #expect(rows.count == Self.expected.count)
        for (label, text) in rows {
            #expect(text == Self.expected[label], "\(label)")
        }
    }
}

extension Data {
    /// The bytes with the v3 string key `old` replaced by `new`.
    fileprivate func replacingKey(_ old: String, with new: String) -> Data {
        func key(_ s: String) -> [UInt8] { [UInt8(s.utf8.count << 1 | 1)] + Array(s.utf8) }
        let from = key(old)
        let to = key(new)
        var bytes = Array(self)
        guard let start = (0...(bytes.count - from.count)).first(where: { Array(bytes[$0..<$0 + from.count]) == from })
        else { return self }
        bytes.replaceSubrange(start..<start + from.count, with: to)
        return Data(bytes)
    }
}
