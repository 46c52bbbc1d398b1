import BinarySerialization
import Foundation
import Testing

/// Named hostile inputs. The decoder's contract: every input either decodes or throws a
/// `DecodingError` — it never traps, hangs, recurses without bound or allocates far more than
/// the input size. Bytes are written one annotated group per line where that helps.
///
/// Reminders of the two formats (see Docs/):
/// - v3 element in a container: `varint(length << 1)` + bytes, or `01` for nil; keys are
///   `varint(k << 1)` or `varint(len << 1 | 1)` + UTF-8.
/// - v2 key: `varint(k << 4 | wireType)` or `varint(len << 4 | 8 | wireType)` + UTF-8;
///   length-delimited values (wire type 2) are `varint(length)` + bytes.
/// - The reader takes varints of at most 9 bytes (the 9th byte whole), and rejects
///   non-minimal (over-long) encodings.
@Suite struct HostileInputTests {
    // MARK: - Helpers

    /// Bytes from hex text: whitespace is ignored and `//` starts a comment to the end of the line.
    static func hx(_ text: String) -> [UInt8] {
        var digits: [UInt8] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
            for c in code.utf8 where !(c == 0x20 || c == 0x09 || c == 0x0d) { digits.append(c) }
        }
        precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: preconditionFailure("not a hex digit: \(c)")
            }
        }
        return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }

    static func utf8(_ s: String) -> [UInt8] { Array(s.utf8) }

    static func show(_ bytes: [UInt8]) -> String {
        let shown = bytes.prefix(64).map { String(format: "%02x", $0) }.joined(separator: " ")
        return bytes.count > 64 ? "\(shown) ... (\(bytes.count) bytes)" : shown
    }

    static let formats: [BinaryFormat] = [.v3, .v2]

    /// Decodes `input` as `type`, expecting a `DecodingError`, which it returns.
    /// Records an issue if the input decodes or throws anything else.
    @discardableResult
    static func expectDecodingError<T: Decodable>(
        _ type: T.Type, _ format: BinaryFormat, _ input: [UInt8], _ label: String,
        decoder custom: BinaryDecoder? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingError? {
        let decoder = custom ?? BinaryDecoder(format: format)
        do {
            let value = try decoder.decode(T.self, from: input)
            Issue.record(
                "\(format) \(label): decoded as \(T.self) = \(String(describing: value).prefix(200)), expected a DecodingError; input \(show(input))",
                sourceLocation: sourceLocation)
            return nil
        } catch let error as DecodingError {
            return error
        } catch {
            Issue.record(
                "\(format) \(label): \(T.self) threw \(Swift.type(of: error)) (\(error)), not DecodingError; input \(show(input))",
                sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Like ``expectDecodingError(_:_:_:_:decoder:sourceLocation:)``, and the error must be `dataCorrupted`.
    @discardableResult
    static func expectCorrupted<T: Decodable>(
        _ type: T.Type, _ format: BinaryFormat, _ input: [UInt8], _ label: String,
        decoder: BinaryDecoder? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingError.Context? {
        guard
            let error = expectDecodingError(
                type, format, input, label, decoder: decoder, sourceLocation: sourceLocation)
        else { return nil }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("\(format) \(label): expected dataCorrupted, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return context
    }

    /// Decodes `input` as `type`: any value or a `DecodingError` is fine, anything else is not.
    static func expectDecodesOrDecodingError<T: Decodable>(
        _ type: T.Type, _ format: BinaryFormat, _ input: [UInt8], _ label: String,
        decoder custom: BinaryDecoder? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let decoder = custom ?? BinaryDecoder(format: format)
        do {
            _ = try decoder.decode(T.self, from: input)
        } catch is DecodingError {
        } catch {
            Issue.record(
                "\(format) \(label): \(T.self) threw \(Swift.type(of: error)) (\(error)), not DecodingError; input \(show(input))",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: - Huge length prefixes

    /// Length prefixes and counts far larger than the input. The references crash on the first
    /// one (integer overflow); each must throw, without reserving memory for the claimed size.
    static let hugePrefixes: [(name: String, bytes: [UInt8])] = [
        (
            "ff×9 01: a 9-byte varint of UInt64.max, then 01",
            hx("ff ff ff ff ff ff ff ff ff  01")
        ),
        (
            "fe ff×7 7f: a 9-byte even varint, (2^63 - 1) << 1 (v3: a length, not nil)",
            hx("fe ff ff ff ff ff ff ff 7f")
        ),
        (
            "80×9 01: 9th byte taken whole = 2^63, then 01",
            hx("80 80 80 80 80 80 80 80 80  01")
        ),
        (
            "ff ff ff ff 0f 61: 2^32 - 1, then 'a'",
            hx("ff ff ff ff 0f  61")
        ),
        (
            "varint(2^41) 61: v3 length 2^40, v2 length 2^41, then 'a'",
            base128Varint(1 << 41) + hx("61")
        ),
        (
            "varint(2^40) 61 62: v3 string key of 2^39 bytes / v2 length 2^40",
            base128Varint(1 << 40) + hx("61 62")
        ),
        (
            "varint(2^40 << 4 | 8 | 2) 61: v2 string key of 2^40 bytes",
            base128Varint(1 << 44 | 8 | 2) + hx("61")
        ),
    ]

    @Test(arguments: formats)
    func hugeLengthPrefixes(_ format: BinaryFormat) {
        for (name, input) in Self.hugePrefixes {
            do {
                Self.expectDecodingError(String.self, format, input, name)
                Self.expectDecodingError([String].self, format, input, name)
                Self.expectDecodingError(SMessage.self, format, input, name)
                Self.expectDecodingError([SMessage].self, format, input, name)
                Self.expectDecodingError([Int: String].self, format, input, name)
                // A v2 dictionary with String keys also reads integer keys (as their decimal strings).
                Self.expectDecodesOrDecodingError([String: Int].self, format, input, name)
                Self.expectDecodingError([[Int]].self, format, input, name)
                Self.expectDecodesOrDecodingError(Data.self, format, input, name)
                Self.expectDecodesOrDecodingError([UInt8].self, format, input, name)
                Self.expectDecodesOrDecodingError(SIMD2<Float>.self, format, input, name)
                Self.expectDecodesOrDecodingError(Set<String>.self, format, input, name)
                Self.expectDecodesOrDecodingError([Bool: Int].self, format, input, name)
            }
        }
    }

    /// A huge length inside a valid container: the `sender` of an SMessage claims 2^40 bytes.
    @Test func hugeLengthInsideAField() {
        let v3 =
            Self.hx(
                """
                0d 73656e646572          // key "sender"
                """) + base128Varint(1 << 41) + Self.hx("41 6c 69 63 65")  // element of 2^40 bytes, "Alice"
        Self.expectCorrupted(SMessage.self, .v3, v3, "v3 sender of 2^40 bytes")
        let v2 =
            Self.hx(
                """
                6a 73656e646572          // key "sender", wire type 2
                """) + base128Varint(1 << 40) + Self.hx("41 6c 69 63 65")  // length 2^40, "Alice"
        Self.expectCorrupted(SMessage.self, .v2, v2, "v2 sender of 2^40 bytes")
    }

    /// An element count of 2^40: the v2 nil index set is a count and then that many indices.
    @Test func nilIndexSetClaiming2To40Entries() {
        var decoder = BinaryDecoder(format: .v2)
        decoder.prependNilIndexSetForUnkeyedContainers = true
        let input = base128Varint(1 << 40) + Self.hx("00 01 02")  // count 2^40, then indices 0, 1, 2
        do {
            Self.expectCorrupted([Int?].self, .v2, input, "nil index set of 2^40", decoder: decoder)
            Self.expectCorrupted([String].self, .v2, input, "nil index set of 2^40", decoder: decoder)
            Self.expectDecodingError([SMessage?].self, .v2, input, "nil index set of 2^40", decoder: decoder)
        }
        // Indices out of order, or beyond any plausible count.
        Self.expectCorrupted([Int?].self, .v2, Self.hx("02 05 01"), "nil indices out of order", decoder: decoder)
        Self.expectDecodesOrDecodingError(
            [Int?].self, .v2, Self.hx("01") + base128Varint(1 << 40), "nil index 2^40", decoder: decoder)
    }

    // MARK: - Varints

    @Test(arguments: formats)
    func overLongVarints(_ format: BinaryFormat) {
        Self.expectCorrupted(Int.self, format, Self.hx("80 00"), "0 in two bytes")
        Self.expectCorrupted(Int.self, format, Self.hx("ff 00"), "0x7f with a zero continuation")
        Self.expectCorrupted(UInt64.self, format, Self.hx("80 80 80 80 80 80 80 80 00"), "0 in nine bytes")
        Self.expectCorrupted(UInt32.self, format, Self.hx("81 80 80 80 00"), "1 in five bytes")
        Self.expectCorrupted([Int].self, format, Self.hx("02 80 00 04"), "over-long middle element of [Int]")
    }

    @Test func overLongLengthPrefixes() {
        // v3 [String]: "a", then "Hello" whose length prefix 0a is written over-long as 8a 00.
        Self.expectCorrupted([String].self, .v3, Self.hx("02 61  8a 00 48656c6c6f"), "v3 over-long element length")
        // v3 SMessage with the first key (0d "isRead") written as 8d 00.
        Self.expectDecodingError(
            SMessage.self, .v3,
            Self.hx("8d 00 697352656164 0201  0d 73656e646572 0a 416c696365  17 756e72656164436f756e74 0254"),
            "v3 over-long key")
        // v2 [String]: "a", then "Hello" with its length 05 written as 85 00.
        Self.expectCorrupted([String].self, .v2, Self.hx("01 61  85 00 48656c6c6f"), "v2 over-long element length")
    }

    /// More than 64 bits: the reader stops after 9 bytes, so the 10th is left over.
    @Test(arguments: formats)
    func varintsPast64Bits(_ format: BinaryFormat) {
        let ten = Self.hx("ff ff ff ff ff ff ff ff ff ff")
        Self.expectCorrupted(Int.self, format, ten, "10 × ff as Int")
        Self.expectCorrupted(UInt64.self, format, ten, "10 × ff as UInt64")
        Self.expectCorrupted(Int64.self, format, ten + [0x01], "10 × ff, 01 as Int64")
        Self.expectCorrupted(UInt.self, format, Self.hx("80 80 80 80 80 80 80 80 80 01"), "80×9 01 as UInt")
        // Nine bytes are a whole varint: UInt64.max.
        #expect((try? BinaryDecoder(format: format).decode(UInt64.self, from: Array(ten.prefix(9)))) == UInt64.max)
        // Wider than the type asked for.
        Self.expectCorrupted(UInt32.self, format, Self.hx("ff ff ff ff 1f"), "2^33 - 1 as UInt32")
        Self.expectCorrupted(Int32.self, format, Self.hx("ff ff ff ff 1f"), "2^33 - 1 as Int32")
        Self.expectCorrupted(UInt16.self, format, Self.hx("ff ff 07"), "3 bytes as UInt16")
        // In a packed array: [Int] of one 10-byte varint and [UInt32] with a too-wide element.
        Self.expectDecodingError([Int].self, format, ten, "10 × ff as [Int]")
        Self.expectCorrupted([UInt32].self, format, Self.hx("01 ff ff ff ff 1f"), "[UInt32] with 2^33 - 1")
        Self.expectCorrupted([Int32].self, format, Self.hx("01 ff ff ff ff 1f"), "[Int32] with 2^33 - 1")
    }

    @Test func varintPast64BitsInAField() {
        // v3 SMessage whose unreadCount element is 10 bytes of ff (length prefix 14 = 10 << 1).
        let v3 = Self.hx(
            """
            0d 697352656164 02 01        // "isRead": true
            0d 73656e646572 0a 416c696365 // "sender": "Alice"
            17 756e72656164436f756e74    // "unreadCount"
            14 ffffffffffffffffffff      // 10 bytes
            """)
        Self.expectCorrupted(SMessage.self, .v3, v3, "v3 unreadCount of 10 × ff")
        // v2: the varint field just runs on; the 10th byte is then read as a key.
        let v2 = Self.hx(
            """
            68 697352656164 01           // "isRead" (wire type 0): 1
            6a 73656e646572 05 416c696365 // "sender" (wire type 2): "Alice"
            b801 756e72656164436f756e74  // "unreadCount" (wire type 0)
            ffffffffffffffffffff         // 10 bytes
            """)
        Self.expectDecodingError(SMessage.self, .v2, v2, "v2 unreadCount of 10 × ff")
    }

    // MARK: - Invalid UTF-8, Bool

    static let invalidUTF8: [(String, [UInt8])] = [
        ("c3 28: a 2-byte lead then ASCII", hx("c3 28")),
        ("ff fe: bytes never valid in UTF-8", hx("ff fe")),
        ("ed a0 80: a UTF-16 surrogate", hx("ed a0 80")),
        ("c0 af: over-long '/'", hx("c0 af")),
        ("f4 90 80 80: above U+10FFFF", hx("f4 90 80 80")),
        ("e2 82: a truncated sequence", hx("e2 82")),
    ]

    @Test(arguments: formats)
    func invalidUTF8(_ format: BinaryFormat) {
        for (name, bad) in Self.invalidUTF8 {
            // A top-level String is all the input in both formats.
            Self.expectCorrupted(String.self, format, bad, "String \(name)")
            // An element of [String].
            let list =
                (format == .v3
                    ? Self.hx("02 61") + base128Varint(UInt64(bad.count) << 1)
                    : Self.hx("01 61") + base128Varint(UInt64(bad.count))) + bad
            Self.expectCorrupted([String].self, format, list, "[String] with \(name)")
            // The sender of an SMessage.
            let message =
                format == .v3
                ? Self.hx("0d 697352656164 0201  0d 73656e646572") + base128Varint(UInt64(bad.count) << 1) + bad
                    + Self.hx("17 756e72656164436f756e74 0254")
                : Self.hx("68 697352656164 01  6a 73656e646572") + base128Varint(UInt64(bad.count)) + bad
                    + Self.hx("b801 756e72656164436f756e74 54")
            Self.expectCorrupted(SMessage.self, format, message, "SMessage.sender \(name)")
        }
    }

    @Test(arguments: formats)
    func badBools(_ format: BinaryFormat) {
        Self.expectCorrupted(Bool.self, format, Self.hx("02"), "Bool 02")
        Self.expectCorrupted(Bool.self, format, Self.hx("ff"), "Bool ff")
        Self.expectCorrupted([Bool].self, format, Self.hx("01 02 00"), "[Bool] with 02")
        let message =
            format == .v3
            ? Self.hx("0d 697352656164 02 02  0d 73656e646572 0a 416c696365  17 756e72656164436f756e74 0254")
            : Self.hx("68 697352656164 02  6a 73656e646572 05 416c696365  b801 756e72656164436f756e74 54")
        Self.expectCorrupted(SMessage.self, format, message, "SMessage.isRead = 02")
    }

    // MARK: - v2 wire types

    /// Wire types 3 and 4 (protobuf's group markers) are not used by v2: a key carrying one is corrupt.
    @Test(arguments: [UInt8(3), 4])
    func badV2WireType(_ wireType: UInt8) {
        // "isRead" key is 6 << 4 | 8 | type.
        let stringKey =
            [0x68 | wireType]
            + Self.hx(
                """
                697352656164 01               // "isRead", 1
                6a 73656e646572 05 416c696365 // "sender": "Alice"
                b801 756e72656164436f756e74 54 // "unreadCount": 42
                """)
        Self.expectCorrupted(SMessage.self, .v2, stringKey, "string key with wire type \(wireType)")
        // IntKeyed: key 1 << 4 | type.
        let intKey = [0x10 | wireType] + Self.hx("0d  22 03 626565  b00f 01  81d461 3fe0000000000000")
        Self.expectCorrupted(IntKeyed.self, .v2, intKey, "int key with wire type \(wireType)")
        // A dictionary with String keys reads every key.
        Self.expectCorrupted(
            [String: Int].self, .v2, [0x18 | wireType] + Self.hx("61 02"), "[String: Int] key wire type \(wireType)")
    }

    // MARK: - Duplicate keys

    @Test func duplicateKeysV3() {
        Self.expectCorrupted(
            SMessage.self, .v3,
            Self.hx(
                """
                0d 697352656164 02 01        // "isRead": true
                0d 697352656164 02 00        // "isRead" again: false
                0d 73656e646572 0a 416c696365 // "sender": "Alice"
                17 756e72656164436f756e74 02 54
                """), "v3 SMessage with isRead twice")
        Self.expectCorrupted(
            IntKeyed.self, .v3,
            Self.hx(
                """
                02 02 0d                     // 1: -7
                04 06 626565                 // 2: "bee"
                f601 02 01                   // 123: true
                c09a0c 10 3fe0000000000000   // 100000: 0.5
                02 02 0e                     // 1 again: 7
                """), "v3 IntKeyed with key 1 twice")
        Self.expectCorrupted(
            [String: Int].self, .v3, Self.hx("03 61 02 02  03 61 02 04"), "v3 [String: Int] with \"a\" twice")
        Self.expectCorrupted([Int: String].self, .v3, Self.hx("02 02 61  02 02 62"), "v3 [Int: String] with 1 twice")
        // More than 16 entries takes the hashed path: 17 distinct keys "a"..."q", then "a" again.
        var many: [UInt8] = []
        for c in UInt8(ascii: "a")...UInt8(ascii: "q") { many += [0x03, c, 0x02, 0x02] }
        #expect((try? BinaryDecoder(format: .v3).decode([String: Int].self, from: many))?.count == 17)
        Self.expectCorrupted([String: Int].self, .v3, many + Self.hx("03 61 02 04"), "v3 18 entries, \"a\" twice")
    }

    @Test func duplicateKeysV2() {
        Self.expectCorrupted(
            SMessage.self, .v2,
            Self.hx(
                """
                68 697352656164 01           // "isRead": 1
                68 697352656164 00           // "isRead" again: 0
                6a 73656e646572 05 416c696365 // "sender": "Alice"
                b801 756e72656164436f756e74 54
                """), "v2 SMessage with isRead twice")
        Self.expectCorrupted(
            IntKeyed.self, .v2,
            Self.hx(
                """
                10 0d                        // 1: -7
                22 03 626565                 // 2: "bee"
                b00f 01                      // 123: true
                81d461 3fe0000000000000      // 100000: 0.5
                10 0e                        // 1 again: 7
                """), "v2 IntKeyed with key 1 twice")
        Self.expectCorrupted(
            [String: Int].self, .v2, Self.hx("18 61 02  18 61 04"), "v2 [String: Int] with \"a\" twice")
    }

    // MARK: - Trailing bytes

    @Test func trailingBytesAfterTopLevelValue() {
        let v3: [(String, [UInt8], (BinaryFormat, [UInt8], String) -> Void)] = [
            ("Int 06 + 00", Self.hx("06 00"), { Self.expectCorrupted(Int.self, $0, $1, $2) }),
            ("Bool 01 + 00", Self.hx("01 00"), { Self.expectCorrupted(Bool.self, $0, $1, $2) }),
            ("Double + 00", Self.hx("3ff0000000000000 00"), { Self.expectCorrupted(Double.self, $0, $1, $2) }),
            ("Int? 00 0a + 00", Self.hx("00 0a 00"), { Self.expectCorrupted(Int?.self, $0, $1, $2) }),
            ("Int? nil 01 + 00", Self.hx("01 00"), { Self.expectCorrupted(Int?.self, $0, $1, $2) }),
            ("IntRaw 00 02 + 00", Self.hx("00 02 00"), { Self.expectCorrupted(IntRaw.self, $0, $1, $2) }),
            ("Date + 00", Self.hx("00 41c5821440400000 00"), { Self.expectCorrupted(Date.self, $0, $1, $2) }),
            (
                "SMessage + 00",
                Self.hx("0d 697352656164 0201  0d 73656e646572 0a 416c696365  17 756e72656164436f756e74 0254  00"),
                { Self.expectDecodingError(SMessage.self, $0, $1, $2) }
            ),
            (
                "SIMD2<Float> + 00", Self.hx("08 3f800000 08 c0000000 00"),
                { Self.expectDecodingError(SIMD2<Float>.self, $0, $1, $2) }
            ),
        ]
        for (name, input, check) in v3 { check(.v3, input, "v3 \(name)") }
        let v2: [(String, [UInt8], (BinaryFormat, [UInt8], String) -> Void)] = [
            ("Int 06 + 00", Self.hx("06 00"), { Self.expectCorrupted(Int.self, $0, $1, $2) }),
            ("Bool 01 + 00", Self.hx("01 00"), { Self.expectCorrupted(Bool.self, $0, $1, $2) }),
            ("Double + 00", Self.hx("3ff0000000000000 00"), { Self.expectCorrupted(Double.self, $0, $1, $2) }),
            ("Int? 01 0a + 00", Self.hx("01 0a 00"), { Self.expectCorrupted(Int?.self, $0, $1, $2) }),
            ("Int? nil 00 + 00", Self.hx("00 00"), { Self.expectCorrupted(Int?.self, $0, $1, $2) }),
            ("IntRaw 02 + 00", Self.hx("02 00"), { Self.expectCorrupted(IntRaw.self, $0, $1, $2) }),
            ("Date + 00", Self.hx("41c5821440400000 00"), { Self.expectCorrupted(Date.self, $0, $1, $2) }),
            (
                "SMessage + 00",
                Self.hx("68 697352656164 01  6a 73656e646572 05 416c696365  b801 756e72656164436f756e74 54  00"),
                { Self.expectDecodingError(SMessage.self, $0, $1, $2) }
            ),
        ]
        for (name, input, check) in v2 { check(.v2, input, "v2 \(name)") }
    }

    // MARK: - Deep nesting

    /// A recursive struct: `{"next": [Deep]}`.
    struct Deep: Codable, Equatable {
        var next: [Deep]
    }

    /// A recursive unkeyed container: `[[[...]]]`.
    struct Nest: Codable, Equatable {
        var children: [Nest]
        init(_ children: [Nest]) { self.children = children }
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            var out: [Nest] = []
            while !c.isAtEnd { out.append(try c.decode(Nest.self)) }
            children = out
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            for child in children { try c.encode(child) }
        }
    }

    /// The length prefix of a container element: `varint(n << 1)` in v3, `varint(n)` in v2.
    static func prefix(_ n: Int, _ format: BinaryFormat) -> [UInt8] {
        base128Varint(format == .v3 ? UInt64(n) << 1 : UInt64(n))
    }

    /// The bytes of `Deep` nested `depth` times below the top (depth 0 is `{"next": []}`), built
    /// without the library and without recursion: sizes bottom-up in a loop, then bytes top-down.
    ///
    /// Level k: key "next", the length of the array, the length of its one element, level k-1.
    /// Level 0: key "next", an empty array (`00`).
    static func deepBytes(depth: Int, _ format: BinaryFormat) -> [UInt8] {
        let key = format == .v3 ? hx("09 6e657874") : hx("4a 6e657874")  // "next": v3 4<<1|1, v2 4<<4|8|2
        var levelSize = [key.count + 1]  // L0
        var arraySize = [0]  // A0 (unused)
        for k in 1...max(depth, 1) {
            let element = levelSize[k - 1]
            let array = prefix(element, format).count + element
            arraySize.append(array)
            levelSize.append(key.count + prefix(array, format).count + array)
        }
        var out: [UInt8] = []
        out.reserveCapacity(levelSize[depth])
        var k = depth
        while k > 0 {
            out += key
            out += prefix(arraySize[k], format)
            out += prefix(levelSize[k - 1], format)
            k -= 1
        }
        out += key
        out.append(0)
        precondition(out.count == levelSize[depth])
        return out
    }

    /// `Nest` nested `depth` times: each level is one element holding the level below;
    /// the innermost is empty. Built bottom-up from sizes, then written top-down.
    static func nestBytes(depth: Int, _ format: BinaryFormat) -> [UInt8] {
        var sizes = [0]  // C0 = []
        for k in 1...max(depth, 1) { sizes.append(prefix(sizes[k - 1], format).count + sizes[k - 1]) }
        var out: [UInt8] = []
        out.reserveCapacity(sizes[depth])
        var k = depth
        while k > 0 {
            out += prefix(sizes[k - 1], format)
            k -= 1
        }
        precondition(out.count == sizes[depth])
        return out
    }

    static func deepValue(_ depth: Int) -> Deep {
        var d = Deep(next: [])
        for _ in 0..<depth { d = Deep(next: [d]) }
        return d
    }

    static func nestValue(_ depth: Int) -> Nest {
        var n = Nest([])
        for _ in 1..<max(depth, 1) { n = Nest([n]) }
        return depth == 0 ? Nest([]) : Nest([n])
    }

    /// The byte builders agree with the encoder on small depths.
    @Test(arguments: formats)
    func deepByteBuildersMatchEncoder(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        for depth in [0, 1, 2, 3, 10, 70] {
            #expect(
                Array(try encoder.encode(Self.deepValue(depth))) == Self.deepBytes(depth: depth, format),
                "Deep \(depth)")
            #expect(
                Array(try encoder.encode(Self.nestValue(depth))) == Self.nestBytes(depth: depth, format),
                "Nest \(depth)")
        }
        // Well within the default limit of 512, both decode.
        let decoder = BinaryDecoder(format: format)
        #expect(try decoder.decode(Deep.self, from: Self.deepBytes(depth: 200, format)) == Self.deepValue(200))
        #expect(try decoder.decode(Nest.self, from: Self.nestBytes(depth: 400, format)) == Self.nestValue(400))
    }

    /// 100,000 levels: the references overflow the stack. The depth limit (512) throws first.
    @Test(arguments: formats)
    func hundredThousandDeepInput(_ format: BinaryFormat) throws {
        let deep = Self.deepBytes(depth: 100_000, format)
        let nest = Self.nestBytes(depth: 100_000, format)
        do {
            for (name, context) in [
                ("Deep", Self.expectCorrupted(Deep.self, format, deep, "Deep × 100,000")),
                ("Nest", Self.expectCorrupted(Nest.self, format, nest, "Nest × 100,000")),
            ] {
                guard let context else { continue }
                #expect(context.debugDescription.contains("maximum depth"), "\(name): \(context.debugDescription)")
                #expect(context.codingPath.count >= 256, "\(name): path of \(context.codingPath.count)")
            }
        }
        // decodeTree and transcoding go through the same limit.
        #expect(throws: DecodingError.self) {
            try BinaryDecoder(format: format).decodeTree(Deep.self, from: Data(deep))
        }
        #expect(throws: DecodingError.self) {
            try BinaryTranscoder(from: format, to: format == .v3 ? .v2 : .v3).transcode(Nest.self, from: Data(nest))
        }
    }

    @Test(arguments: formats)
    func loweredDepthLimit(_ format: BinaryFormat) throws {
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = 10
        Self.expectCorrupted(
            Nest.self, format, Self.nestBytes(depth: 11, format), "Nest × 11, limit 10", decoder: decoder)
        #expect(try decoder.decode(Nest.self, from: Self.nestBytes(depth: 9, format)) == Self.nestValue(9))
        Self.expectCorrupted(
            Tree.self, format, Array(try BinaryEncoder(format: format).encode(Self.tree(depth: 40))),
            "Tree × 40, limit 10", decoder: decoder)
    }

    static func tree(depth: Int) -> Tree {
        var t = Tree(value: 0, children: [])
        for i in 1...depth { t = Tree(value: i, children: [t]) }
        return t
    }

    // MARK: - Encoding deep values

    /// A linked list of classes: built and torn down iteratively, so a 100,000-deep value
    /// can exist without overflowing the stack in its (otherwise recursive) deinit.
    final class Link: Encodable {
        var value: Int
        var next: Link?
        init(_ value: Int, next: Link?) {
            self.value = value
            self.next = next
        }

        static func chain(_ count: Int) -> Link {
            var head = Link(0, next: nil)
            for i in 1..<count { head = Link(i, next: head) }
            return head
        }

        /// Unlinks the list front to back so each node is freed with no successor.
        static func dismantle(_ head: Link) {
            var current = head
            while let n = current.next {
                current.next = nil
                current = n
            }
        }
    }

    @Test(arguments: formats)
    func encodingAValueDeeperThanTheLimitThrows(_ format: BinaryFormat) {
        let head = Link.chain(100_000)
        defer { Link.dismantle(head) }
        let encoder = BinaryEncoder(format: format)
        #expect(throws: EncodingError.self) { try encoder.encode(head) }
        #expect(throws: EncodingError.self) { try encoder.encodeTree(head) }
        // A cycle is infinitely deep.
        let loop = Link(1, next: nil)
        loop.next = loop
        defer { loop.next = nil }
        #expect(throws: EncodingError.self) { try encoder.encode(loop) }
        // Below the limit it encodes; with the limit lowered it does not.
        let short = Link.chain(100)
        #expect((try? encoder.encode(short)) != nil)
        var strict = encoder
        strict.maximumDepth = 50
        #expect(throws: EncodingError.self) { try strict.encode(short) }
    }

    // MARK: - Error details

    @Test(arguments: formats)
    func errorsNameByteOffsetAndIndex(_ format: BinaryFormat) throws {
        // ["a", "b", <ff>]: the third element is not UTF-8.
        let list = format == .v3 ? Self.hx("02 61  02 62  02 ff") : Self.hx("01 61  01 62  01 ff")
        let context = try #require(Self.expectCorrupted([String].self, format, list, "[String] bad third element"))
        #expect((context.underlyingError as? WireFormatError)?.offset != nil, "\(context.debugDescription)")
        #expect(context.codingPath.map(\.intValue) == [2], "path \(context.codingPath.map(\.stringValue))")
        #expect(context.underlyingError != nil)

        // [SMessage]: the second message's isRead is 05.
        let good =
            format == .v3
            ? Self.hx("0d 697352656164 0201  0d 73656e646572 02 78  17 756e72656164436f756e74 0206")
            : Self.hx("68 697352656164 01  6a 73656e646572 01 78  b801 756e72656164436f756e74 06")
        let bad =
            format == .v3
            ? Self.hx("0d 697352656164 0205  0d 73656e646572 02 79  17 756e72656164436f756e74 0205")
            : Self.hx("68 697352656164 05  6a 73656e646572 01 79  b801 756e72656164436f756e74 05")
        let messages = Self.prefix(good.count, format) + good + Self.prefix(bad.count, format) + bad
        #expect(
            try BinaryDecoder(format: format).decode([SMessage].self, from: Self.prefix(good.count, format) + good)
                .count == 1)
        let nested = try #require(
            Self.expectCorrupted([SMessage].self, format, messages, "[SMessage] bad isRead in #1"))
        #expect((nested.underlyingError as? WireFormatError)?.offset != nil, "\(nested.debugDescription)")
        #expect(nested.codingPath.map(\.stringValue) == ["Index 1", "isRead"])
        #expect(nested.codingPath.first?.intValue == 1)
    }

    /// An element of an array of structs whose framing is bad (found as the decoder moves to it)
    /// is named by its index. (The `[SMessage]` case above fails inside the element, whose own
    /// path names it.)
    @Test(arguments: formats)
    func badElementFramingNamesTheIndex(_ format: BinaryFormat) throws {
        let good =
            format == .v3
            ? Self.hx("0d 697352656164 0201  0d 73656e646572 02 78  17 756e72656164436f756e74 0206")
            : Self.hx("68 697352656164 01  6a 73656e646572 01 78  b801 756e72656164436f756e74 06")
        // The second element's length claims 100 bytes where 2 remain.
        let truncated = Self.prefix(good.count, format) + good + Self.prefix(100, format) + Self.hx("0d 69")
        let context = try #require(
            Self.expectCorrupted([SMessage].self, format, truncated, "[SMessage] #1 longer than the input"))
        #expect(context.codingPath.map(\.intValue) == [1], "path \(context.codingPath.map(\.stringValue))")
        #expect((context.underlyingError as? WireFormatError)?.offset != nil, "\(context.debugDescription)")
    }

    /// A v2 element that reads no byte (it opens a single-value container and reads nothing)
    /// fails the check after it, which names its index: v2 elements carry no length, so such an
    /// element would leave the next one where it started.
    @Test func v2ElementThatReadsNothingNamesItsIndex() throws {
        struct OpensOnly: Decodable {
            init(from decoder: any Decoder) throws { _ = try decoder.singleValueContainer() }
        }
        let context = try #require(
            Self.expectCorrupted([OpensOnly].self, .v2, Self.hx("05 05"), "[OpensOnly] reading no byte"))
        #expect(context.codingPath.map(\.intValue) == [0], "path \(context.codingPath.map(\.stringValue))")
        #expect(context.debugDescription.contains("without reading any bytes"), "\(context.debugDescription)")
        // v3 elements carry their lengths: the same type skips each element's bytes.
        #expect(try BinaryDecoder(format: .v3).decode([OpensOnly].self, from: Self.hx("02 05  02 05")).count == 2)
    }

    /// With nil index sets, the element that read nothing is still the one named when the
    /// container's next index is a nil (`[OpensOnly]`, nil index set `{1}`, then `05 05`):
    /// the check runs as the decoder moves on, whatever the next element is.
    @Test func v2ElementThatReadsNothingBeforeANilNamesItsIndex() throws {
        struct OpensOnly: Decodable {
            init(from decoder: any Decoder) throws { _ = try decoder.singleValueContainer() }
        }
        var decoder = BinaryDecoder(format: .v2)
        decoder.prependNilIndexSetForUnkeyedContainers = true
        let context = try #require(
            Self.expectCorrupted(
                [OpensOnly].self, .v2, Self.hx("01 01  05 05"), "[OpensOnly] reading no byte before a nil",
                decoder: decoder))
        #expect(context.codingPath.map(\.intValue) == [0], "path \(context.codingPath.map(\.stringValue))")
        #expect(context.debugDescription.contains("without reading any bytes"), "\(context.debugDescription)")
    }

    /// An unkeyed container's `superDecoder()` reads the next element as a value of its own.
    /// v2 elements carry no length: the element is read when the super decoder is used, so the
    /// check that it read bytes waits until the container moves on.
    @Test(arguments: formats)
    func unkeyedSuperDecoderReadsTheNextElement(_ format: BinaryFormat) throws {
        struct Pair: Codable, Equatable {
            var message: SMessage
            var after: Int
            init(message: SMessage, after: Int) {
                self.message = message
                self.after = after
            }
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                message = try SMessage(from: c.superDecoder())
                after = try c.decode(Int.self)
            }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.unkeyedContainer()
                try message.encode(to: c.superEncoder())
                try c.encode(after)
            }
        }
        let value = Pair(message: SMessage(sender: "x", isRead: true, unreadCount: 3), after: -5)
        let bytes = try BinaryEncoder(format: format).encode(value)
        #expect(try BinaryDecoder(format: format).decode(Pair.self, from: bytes) == value)
    }

    // MARK: - Data slices

    /// A `Data` slice (non-zero `startIndex`) whose neighbouring bytes would complete a truncated
    /// value: the decoder must read only the slice, so each slice decodes exactly like the same
    /// bytes in an array of their own.
    @Test(arguments: formats)
    func dataSlicesStayInBounds(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        let decoder = BinaryDecoder(format: format)
        func check<T: Codable & Equatable>(_ value: T) throws {
            let full = Array(try encoder.encode(value))
            let padded = Data([0xEE, 0xEE] + full + full)
            for cut in 0...full.count {
                let slice = padded[2..<(2 + cut)]
                #expect(slice.startIndex == 2)
                let fromSlice = Result { try decoder.decode(T.self, from: slice) }
                let fromArray = Result { try decoder.decode(T.self, from: Array(full[..<cut])) }
                switch (fromSlice, fromArray) {
                case (.success(let a), .success(let b)):
                    #expect(a == b, "\(format) \(T.self) cut \(cut)")
                case (.failure(let e), .failure):
                    #expect(e is DecodingError, "\(format) \(T.self) cut \(cut): \(e)")
                default:
                    Issue.record("\(format) \(T.self) cut \(cut): slice \(fromSlice), array \(fromArray)")
                }
            }
        }
        try check(SMessage(sender: "Alice", isRead: true, unreadCount: 42))
        try check(["a", "", "Hello"])
        try check([3, -280, Int.max])
        try check(Tree(value: 1, children: [Tree(value: 2, children: [])]))
        try check("Grüße")
        try check(Int?.some(5))
        try check([1: "one", 300: "three hundred"])
    }

    // MARK: - Keys that are not UTF-8

    /// A dictionary's String keys are read as Strings, so a key that is not UTF-8 is as corrupt as
    /// a value that is not. Regression: such a key used to be repaired to U+FFFD (`String(decoding:)`),
    /// and then depending on the container size and format it was "not found" (keyNotFound for a
    /// key that is in the data), "appears twice" (two different invalid keys), or accepted silently
    /// (more than 16 entries in v3: the hashed index found the repaired key). Fixed in 1b02f41.
    @Test func invalidUTF8InDictionaryKeys() {
        let v3Bad = Self.hx("03 ff  02 02")  // key of 1 byte: ff; element 02 (len 1): 1
        var v3Many: [UInt8] = []
        for c in UInt8(ascii: "a")...UInt8(ascii: "q") { v3Many += [0x03, c, 0x02, 0x02] }  // 17 good keys
        let v2Bad = Self.hx("18 ff  02")  // key of 1 byte (1 << 4 | 8 | varint): ff; value 1
        let inputs: [(BinaryFormat, [UInt8], String)] = [
            (.v3, v3Bad, "v3 one key ff"),
            (.v3, v3Many + v3Bad, "v3 17 keys and ff"),
            (.v3, v3Bad + Self.hx("03 fe 02 04"), "v3 keys ff and fe"),
            (.v2, v2Bad, "v2 one key ff"),
        ]
        // The contract holds: a value or a DecodingError.
        for (format, input, name) in inputs {
            Self.expectDecodesOrDecodingError([String: Int].self, format, input, name)
        }
        for (format, input, name) in inputs {
            let context = Self.expectCorrupted([String: Int].self, format, input, name)
            #expect(
                context?.debugDescription.contains("UTF-8") == true,
                "\(name): \(String(describing: context?.debugDescription))")
        }
    }

    /// Keys of every length from 1 to 20 bytes (the check reads eight at a time, then the rest
    /// one at a time), each with an invalid byte at every position in turn: the byte is found
    /// wherever it is. The value after the key has a byte above 0x7f (150 is the varint
    /// `ac 02`), so a check that read past the key would fail the valid key.
    @Test func invalidUTF8AtEveryPositionOfAKey() throws {
        for length in 1...20 {
            let name = String(repeating: "k", count: length)
            let valid = Array(try BinaryEncoder(format: .v3).encode([name: 150]))
            #expect(valid.contains(0xac), "the value's varint follows the key")
            #expect(try BinaryDecoder(format: .v3).decode([String: Int].self, from: Data(valid)) == [name: 150])
            let keyStart = try #require(valid.firstIndex(of: UInt8(ascii: "k")))
            for position in 0..<length {
                var bad = valid
                bad[keyStart + position] = 0xff
                let label = "length \(length), ff at \(position)"
                let context = Self.expectCorrupted([String: Int].self, .v3, bad, label)
                #expect(context?.debugDescription.contains("UTF-8") == true, "\(label)")
            }
        }
    }

    // MARK: - decodeTree and transcoding cost

    /// Regression: `decodeTree` and `BinaryTranscoder` recorded each keyed field through a linear
    /// search of the recorded keys, so a keyed container of n entries cost O(n²) (n = 32,000 took
    /// 113 s in a debug build; fixed in 011162a). Speed is the benchmarks' business; this checks
    /// that a large container goes through every path intact.
    @Test(arguments: formats)
    func decodeTreeOfManyKeys(_ format: BinaryFormat) throws {
        var dict: [String: Int] = [:]
        for i in 0..<4_000 { dict["k\(i)"] = i }
        let encoder = BinaryEncoder(format: format)
        let data = try encoder.encode(dict)
        let decoder = BinaryDecoder(format: format)
        #expect(try decoder.decode([String: Int].self, from: data) == dict)
        #expect(try encoder.encode(tree: decoder.decodeTree([String: Int].self, from: data)) == data)
        let target: BinaryFormat = format == .v3 ? .v2 : .v3
        let transcoded = try BinaryTranscoder(from: format, to: target).transcode([String: Int].self, from: data)
        #expect(try BinaryDecoder(format: target).decode([String: Int].self, from: transcoded) == dict)
    }

    // MARK: - Big hostile buffers

    /// 1 MB of 0x80: every varint runs on for 9 bytes, and the last one is cut off.
    @Test(arguments: formats)
    func megabyteOfContinuationBytes(_ format: BinaryFormat) {
        let input = [UInt8](repeating: 0x80, count: 1 << 20)  // 1,048,576 = 9 × 116,508 + 4
        do {
            Self.expectCorrupted([Int].self, format, input, "1 MB of 80 as [Int]")
            Self.expectCorrupted([UInt64].self, format, input, "1 MB of 80 as [UInt64]")
            Self.expectDecodingError([Int32].self, format, input, "1 MB of 80 as [Int32]")
            Self.expectDecodingError(Int.self, format, input, "1 MB of 80 as Int")
            Self.expectDecodingError(String.self, format, input, "1 MB of 80 as String")
            Self.expectDecodingError([String].self, format, input, "1 MB of 80 as [String]")
            Self.expectDecodingError(SMessage.self, format, input, "1 MB of 80 as SMessage")
            Self.expectDecodingError([SMessage].self, format, input, "1 MB of 80 as [SMessage]")
            Self.expectDecodingError([String: Int].self, format, input, "1 MB of 80 as [String: Int]")
            Self.expectDecodingError(Tree.self, format, input, "1 MB of 80 as Tree")
        }
        // A whole number of 9-byte varints is valid: 2^63 each.
        let whole = [UInt8](repeating: 0x80, count: 9 * 1000)
        #expect(
            (try? BinaryDecoder(format: format).decode([UInt64].self, from: whole))
                == [UInt64](repeating: 1 << 63, count: 1000))
    }

    /// Many small elements: memory and time stay proportional to the input.
    @Test(arguments: formats)
    func manyEmptyElements(_ format: BinaryFormat) {
        // v3: 500,000 nil elements (01) of [Int?]; v2: 500,000 "absent" flags (00).
        let nils = [UInt8](repeating: format == .v3 ? 0x01 : 0x00, count: 500_000)
        do {
            Self.expectDecodesOrDecodingError([Int?].self, format, nils, "500k nils")
            Self.expectDecodesOrDecodingError(
                [[Int]].self, format, [UInt8](repeating: 0, count: 500_000), "500k empty arrays")
            Self.expectDecodesOrDecodingError(
                [Bool: Int].self, format, [UInt8](repeating: 0, count: 500_000), "500k zero bytes")
        }
    }
}
