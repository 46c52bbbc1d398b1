import BinarySerialization
import Foundation
import Testing

/// The whole printed text of one error of each family, per format: each fact said once (the
/// reason in the debug description; the code and byte offset in the underlying error; the key
/// in the coding path), and the coding path of the value that failed.
@Suite struct ErrorTextTests {
    struct Named: Codable {
        var name: String
        var count: Int32
        enum CodingKeys: Int, CodingKey { case name = 1, count = 2 }
    }
    struct Wrapper: Codable {
        var inner: Named
        enum CodingKeys: Int, CodingKey { case inner = 3 }
    }
    struct Other: Codable {
        var id: Int32
        enum CodingKeys: Int, CodingKey { case id = 9 }
    }
    struct StringKeyed: Encodable { var a: Int32 = 150 }
    struct Small: Encodable {
        var small: Int8 = 3
        enum CodingKeys: Int, CodingKey { case small = 1 }
    }

    static func bytes(_ hex: String) -> Data {
        Data(hex.split(separator: " ").compactMap { UInt8($0, radix: 16) })
    }

    static func text(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ hex: String, _ format: BinaryFormat) -> String {
        text { _ = try BinaryDecoder(format: format).decode(T.self, from: bytes(hex)) }
    }

    static func protobuf<T: Decodable>(_ type: T.Type, _ hex: String) -> String {
        text { _ = try ProtobufDecoder().decode(T.self, from: bytes(hex)) }
    }

    /// `Named` with its name's place holding a number: the wrong type for `Named`.
    struct Misnamed: Codable {
        var name: Int32 = 7
        var count: Int32 = 5
        enum CodingKeys: Int, CodingKey { case name = 1, count = 2 }
    }

    static func encoded<T: Encodable>(_ value: T, _ format: BinaryFormat) -> [UInt8] {
        (try? [UInt8](BinaryEncoder(format: format).encode(value))) ?? []
    }

    static func decode<T: Decodable>(
        _ type: T.Type, _ bytes: [UInt8], _ format: BinaryFormat, maximumDepth: Int = 512
    ) -> String {
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = maximumDepth
        return text { _ = try decoder.decode(T.self, from: Data(bytes)) }
    }

    /// `bytes` with the first `A` (0x41) made 0xff: not UTF-8.
    static func badUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        if let i = out.firstIndex(of: 0x41) { out[i] = 0xff }
        return out
    }

    /// The rest of an over-long varint after its first byte: ten continuation bytes and a `00`.
    static let tenContinuations = "80 80 80 80 80 80 80 80 80 80 00"

    static var rows: [(String, String)] {
        let wrapper = Wrapper(inner: Named(name: "AB", count: 5))
        return [
            ("v3 truncated", decode(Wrapper.self, "06 06 02 0a 41 04 02 06", .v3)),
            ("v3 wrong type", decode(Named.self, "02 04 41 42 04 04 41 42", .v3)),
            ("v3 key missing", decode(Other.self, "02 02 41 42 04 02 06", .v3)),
            ("v3 depth", decode([[[Int32]]].self, encoded([[[Int32(1)]]], .v3), .v3, maximumDepth: 1)),
            ("v3 bad UTF-8", decode(Wrapper.self, badUTF8(encoded(wrapper, .v3)), .v3)),
            ("v2 truncated", decode(Wrapper.self, encoded(wrapper, .v2).dropLast(1), .v2)),
            ("v2 wrong type", decode(Named.self, encoded(Misnamed(), .v2), .v2)),
            ("v2 key missing", decode(Other.self, encoded(wrapper.inner, .v2), .v2)),
            ("v2 depth", decode([[[Int32]]].self, encoded([[[Int32(1)]]], .v2), .v2, maximumDepth: 1)),
            ("v2 bad UTF-8", decode(Wrapper.self, badUTF8(encoded(wrapper, .v2)), .v2)),
            ("protobuf truncated", protobuf(Wrapper.self, "1a 04 0a 05 41 42")),
            // Over-long varints: a byte of `Wrapper`'s bytes made 12 (its high bit set, ten `80`,
            // a `00`), the inner container's length made to cover them. v3 and v2 read at most 9
            // bytes (the 9th whole), so the rest is read as what follows: a key, in the key
            // position, which is none of `Named`'s (the error stays at the container's path).
            ("v3 overlong varint key", decode(Wrapper.self, "06 24 82 \(tenContinuations) 04 41 42 04 02 0a", .v3)),
            ("v3 overlong varint value", decode(Wrapper.self, "06 24 02 04 41 42 04 18 8a \(tenContinuations)", .v3)),
            // The value made longer without its container's length: the tail is read as a
            // field of the top level.
            (
                "v3 overlong varint spilling",
                decode(Wrapper.self, "06 0e 02 04 41 42 04 02 8a \(tenContinuations)", .v3)
            ),
            ("v2 overlong varint key", decode(Wrapper.self, "32 11 92 \(tenContinuations) 02 41 42 20 0a", .v2)),
            ("v2 overlong varint value", decode(Wrapper.self, "32 11 12 02 41 42 20 8a \(tenContinuations)", .v2)),
            ("v2 overlong varint spilling", decode(Wrapper.self, "32 06 12 02 41 42 20 8a \(tenContinuations)", .v2)),
            ("protobuf overlong tag", protobuf(Wrapper.self, "1a 11 8a \(tenContinuations) 02 41 42 10 05")),
            ("protobuf overlong length", protobuf(Wrapper.self, "1a 11 0a 82 \(tenContinuations) 41 42 10 05")),
            ("protobuf overlong varint", protobuf(Other.self, "48 80 80 80 80 80 80 80 80 80 80 00")),
            // Read without a type there is no coding path: the text names the field.
            (
                "protobuf raw truncated",
                text { _ = try ProtobufDecoder().decodeRaw(from: bytes("08 07 12 06 0a 02 41")) }
            ),
            ("protobuf wrong type", protobuf(Other.self, "4a 01 41")),
            ("protobuf bad UTF-8", protobuf(Wrapper.self, "1a 03 0a 01 ff")),
            ("protobuf string key", text { _ = try ProtobufEncoder().encode(StringKeyed()) }),
            ("protobuf Int8 field", text { _ = try ProtobufEncoder().encode(Small()) }),
        ]
    }

    static let expected: [String: String] = [
        "v3 truncated":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: an element of 5 bytes exceeds the 1 byte that remains. Underlying error: WireFormatError.truncated at byte offset 3",
        "v3 wrong type":
            "DecodingError.typeMismatch: expected value of type Int32. Path: [2]. Debug description: expected an Int32 (zigZag), found 2 bytes of another type. Underlying error: WireFormatError.typeMismatch at byte offset 6",
        "v3 key missing":
            "DecodingError.keyNotFound: Key '[9]' not found in keyed decoding container. Debug description: keys present: 1, 33",
        "v3 depth":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [0]. Debug description: the data is nested deeper than the maximum depth of 1. Underlying error: WireFormatError.limitExceeded at byte offset 1",
        "v3 bad UTF-8":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: invalid UTF-8 in a string. Underlying error: WireFormatError.invalidBytes at byte offset 4",
        "v2 truncated":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3]. Debug description: a value of 6 bytes exceeds the 5 bytes that remain. Underlying error: WireFormatError.truncated at byte offset 1",
        "v2 wrong type":
            "DecodingError.typeMismatch: expected value of type String. Path: [1]. Debug description: expected String (wire type length-delimited), found wire type varint. Underlying error: WireFormatError.typeMismatch at byte offset 1",
        "v2 key missing":
            "DecodingError.keyNotFound: Key '[9]' not found in keyed decoding container. Debug description: keys present: 1, 2",
        "v2 depth":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [0]. Debug description: the data is nested deeper than the maximum depth of 1. Underlying error: WireFormatError.limitExceeded at byte offset 0",
        "v2 bad UTF-8":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: invalid UTF-8 in a string. Underlying error: WireFormatError.invalidBytes at byte offset 4",
        "protobuf truncated":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: a value of 5 bytes exceeds the 2 bytes that remain. Underlying error: WireFormatError.truncated at byte offset 3",
        "v3 overlong varint key":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3]. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 11",
        "v3 overlong varint value":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][2]. Debug description: varint 9223372036854775818 does not fit UInt32. Underlying error: WireFormatError.invalidBytes at byte offset 8",
        "v3 overlong varint spilling":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 18",
        "v2 overlong varint key":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3]. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 11",
        "v2 overlong varint value":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3]. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 16",
        "v2 overlong varint spilling":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: over-long varint. Underlying error: WireFormatError.invalidBytes at byte offset 17",
        "protobuf overlong tag":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3]. Debug description: a varint longer than 64 bits. Underlying error: WireFormatError.invalidBytes at byte offset 2",
        "protobuf overlong length":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: a varint longer than 64 bits. Underlying error: WireFormatError.invalidBytes at byte offset 3",
        "protobuf overlong varint":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [9]. Debug description: a varint longer than 64 bits. Underlying error: WireFormatError.invalidBytes at byte offset 1",
        "protobuf raw truncated":
            "DecodingError.dataCorrupted: Data was corrupted. Debug description: Protobuf: field 2: a value of 6 bytes exceeds the 3 bytes that remain. Underlying error: WireFormatError.truncated at byte offset 3",
        "protobuf wrong type":
            "DecodingError.typeMismatch: expected value of type Int32. Path: [9]. Debug description: expected int32 (wire type varint), found wire type 2. Underlying error: WireFormatError.typeMismatch at byte offset 0",
        "protobuf bad UTF-8":
            "DecodingError.dataCorrupted: Data was corrupted. Path: [3][1]. Debug description: invalid UTF-8 in a string. Underlying error: WireFormatError.invalidBytes at byte offset 4",
        "protobuf string key":
            "EncodingError.invalidValue: 150 (Int32). Path: a. Debug description: Protobuf: the key has no integer value: fields need Int coding keys. Underlying error: ProtobufEncodingError.missingIntegerKey",
        "protobuf Int8 field":
            "EncodingError.invalidValue: 3 (Int8). Path: [1]. Debug description: Protobuf: proto3 has no scalar type for Int8 (use Int32, UInt32, Int64 or UInt64). Underlying error: ProtobufEncodingError.unsupportedType",
    ]

    @Test func everyText() {
        let rows = Self.rows
        #expect(rows.count == Self.expected.count)
        for (label, text) in rows {
            #expect(text == Self.expected[label], "\(label)")
        }
    }
}
