import BinarySerialization
import Foundation
import Testing

// Acceptance 4: malformed v3 input throws a `DecodingError` of the right case, with the coding
// path of the bad value and the byte offset in the message; it never traps.

extension MalformedInputV3Tests {
    /// One malformed input: the bytes (commented byte by byte), the type it is decoded as, and the
    /// error expected.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let input: [UInt8]
        let expectedCase: String
        /// The expected `codingPath` (as strings); `nil` where the path is not meaningful.
        let path: [String]?
        /// For `keyNotFound`: the missing key.
        let key: String?
        /// The offset in the `WireFormatError` underlying the error, when checked.
        let offset: Int?
        let decode: @Sendable ([UInt8]) throws -> Void
        let location: SourceLocation

        init<T: Decodable & SendableMetatype>(
            _ name: String, _ type: T.Type, _ hex: String, _ expectedCase: String, path: [String]? = nil,
            key: String? = nil, offset: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            self.name = name
            self.input = bytes(hex)
            self.expectedCase = expectedCase
            self.path = path
            self.key = key
            self.offset = offset
            self.decode = { _ = try BinaryDecoder().decode(T.self, from: $0) }
            self.location = sourceLocation
        }

        var testDescription: String { name }
    }

    /// A chain of optional links, to build inputs nested deeper than any limit.
    final class Chain: Decodable {
        let n: Chain?
    }

    struct Flags: Codable, Equatable { var flags: [Bool] }
    struct Coords: Codable, Equatable { var values: [Double] }

}

@Suite struct MalformedInputV3Tests {
    static let rows: [Malformed] = [
        Malformed(
            "empty input for a struct with required fields", SMessage.self, "", "dataCorrupted", path: [], offset: 0),
        Malformed(
            "a length past the end", SMessage.self,
            """
            0d 69 73 52 65 61 64   // key "isRead"
            02 01                  // length 1, true
            0d 73 65 6e 64 65 72   // key "sender"
            0a 41 6c               // length 5, but only 2 bytes follow
            """, "dataCorrupted", offset: 16),
        Malformed(
            "huge key length", SMessage.self,
            """
            ff ff ff ff ff ff ff ff ff   // string key (bit 0 set) of 2^63 - 1 bytes
            """, "dataCorrupted", offset: 0),
        Malformed(
            "huge element length in a keyed container", [String: Int].self,
            """
            03 61                        // key "a"
            fe ff ff ff ff ff ff ff ff   // element of 2^63 - 1 bytes
            """, "dataCorrupted", offset: 2),
        Malformed(
            "huge element length in an unkeyed container", [String].self,
            """
            fe ff ff ff ff ff ff ff ff   // element of 2^63 - 1 bytes
            """, "dataCorrupted", path: ["Index 0"], offset: 0),
        Malformed(
            "huge odd element prefix (nil with a length)", [String: Int].self,
            """
            03 61                        // key "a"
            ff ff ff ff ff ff ff ff ff   // bit 0 set but not 01
            """, "dataCorrupted", offset: 2),
        Malformed(
            "element prefix 03 (nil with a length)", [String].self,
            """
            03 61                        // bit 0 set but not 01
            """, "dataCorrupted", path: ["Index 0"], offset: 0),
        Malformed(
            "a nil element in [String] (the one-loop path)", [String].self,
            """
            02 61                        // "a"
            01                           // nil
            """, "valueNotFound", path: ["Index 1"], offset: 3),
        Malformed(
            "the data ends after a key", [String: Int].self,
            """
            03 61                        // key "a", then nothing
            """, "dataCorrupted"),
        Malformed(
            "invalid UTF-8 in a String field", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 73 65 6e 64 65 72         // key "sender"
            04 c3 28                     // length 2: c3 starts a 2-byte sequence, 28 cannot continue it
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 02  // "unreadCount": 1
            """, "dataCorrupted", path: ["sender"], offset: 17),
        Malformed(
            "a Bool byte of 2", SMessage.self,
            """
            0d 69 73 52 65 61 64         // key "isRead"
            02 02                        // length 1, Bool 2
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 02  // "unreadCount": 1
            """, "dataCorrupted", path: ["isRead"], offset: 8),
        Malformed(
            "a Bool element of 2 bytes", SMessage.self,
            """
            0d 69 73 52 65 61 64         // key "isRead"
            04 01 00                     // length 2: true, then a stray byte
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 02  // "unreadCount": 1
            """, "typeMismatch", path: ["isRead"], offset: 8),
        Malformed(
            "an Int element of 0 bytes", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"
            17 75 6e 72 65 61 64 43 6f 75 6e 74   // key "unreadCount"
            00                           // length 0: no varint
            """, "dataCorrupted", path: ["unreadCount"]),
        Malformed(
            "over-long varint for an Int", Int.self,
            """
            80                           // 0 with a continuation bit
            00                           // last byte 0: a longer form of 0
            """, "dataCorrupted", path: [], offset: 0),
        Malformed(
            "over-long varint in a field", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"
            17 75 6e 72 65 61 64 43 6f 75 6e 74   // key "unreadCount"
            04 80 00                     // length 2, over-long 0
            """, "dataCorrupted", path: ["unreadCount"], offset: 31),
        Malformed(
            "over-long 9-byte varint", UInt64.self,
            """
            80 80 80 80 80 80 80 80      // eight continued zero groups
            00                           // ninth byte 0
            """, "dataCorrupted", path: [], offset: 0),
        Malformed("truncated varint", Int.self, "80  // continuation bit, then the end", "dataCorrupted", path: []),
        Malformed("truncated Int16", Int16.self, "01  // 1 of 2 bytes", "dataCorrupted", path: []),
        Malformed("truncated Double", Double.self, "3f f0 00 00 00 00 00  // 7 of 8 bytes", "dataCorrupted", path: []),
        Malformed(
            "varint too large for Int32", Int32.self,
            """
            80 80 80 80 10               // 2^32: zz value above UInt32.max
            """, "dataCorrupted", path: [], offset: 0),
        Malformed(
            "varint too large for UInt32", UInt32.self,
            """
            80 80 80 80 10               // 2^32
            """, "dataCorrupted", path: [], offset: 0),
        Malformed(
            "varint too large for packed [Int32]", [Int32].self,
            """
            02                           // 1
            80 80 80 80 10               // 2^32
            """, "dataCorrupted", path: [], offset: 1),
        Malformed(
            "varint too large for packed [UInt32]", [UInt32].self,
            """
            ff ff ff ff 1f               // 2^33 - 1
            """, "dataCorrupted", path: []),
        Malformed(
            "varint too large for VariableLengthEncoded<UInt16>", VariableLengthEncoded<UInt16>.self,
            """
            80 80 04                     // 65536
            """, "dataCorrupted", path: []),
        Malformed(
            "a missing key", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"; no "unreadCount"
            """, "keyNotFound", path: [], key: "unreadCount"),
        Malformed(
            "a missing key inside an array element", [SMessage].self,
            """
            24                           // element: length 18
            0d 69 73 52 65 61 64  02 01  //   "isRead": true
            0d 73 65 6e 64 65 72  02 61  //   "sender": "a"; no "unreadCount"
            """, "keyNotFound", path: ["Index 0"], key: "unreadCount"),
        Malformed(
            "a duplicate string key", [String: Int].self,
            """
            03 61  02 02                 // "a": 1
            03 61  02 04                 // "a": 2 again
            """, "dataCorrupted", offset: 5),  // a string key's offset is that of its UTF-8 bytes
        Malformed(
            "a string key holding a surrogate", [String: Int].self,
            """
            07 ed a0 80  02 02           // U+D800, which UTF-8 cannot spell: 1
            """, "dataCorrupted", offset: 1),
        Malformed(
            "a string key in an overlong form", [String: Int].self,
            """
            03 61  02 02                 // "a": 1
            05 c0 af  02 04              // "/" in two bytes: 2
            """, "dataCorrupted", offset: 5),
        Malformed(
            "a string key ending inside a character", [String: Int].self,
            """
            03 61  02 02                 // "a": 1
            05 e2 82  02 04              // the first two of "€"'s three bytes: 2
            """, "dataCorrupted", offset: 5),
        Malformed(
            "a duplicate struct field", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 69 73 52 65 61 64  02 00  // "isRead": false again
            0d 73 65 6e 64 65 72  02 61  // "sender": "a"
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 02  // "unreadCount": 1
            """, "dataCorrupted", offset: 10),
        Malformed(
            "a duplicate int key", Message.self,
            """
            02  02 01                    // key 1: true
            02  02 00                    // key 1 again: false
            06  00                       // key 3: []
            """, "dataCorrupted", offset: 3),
        Malformed(
            "trailing bytes after a top-level Int", Int.self,
            """
            02                           // 1
            00                           // extra
            """, "dataCorrupted", path: [], offset: 1),
        Malformed(
            "trailing bytes after a top-level nil", Int?.self,
            """
            01                           // nil
            00                           // extra
            """, "dataCorrupted", path: [], offset: 1),
        Malformed(
            "nil indicator 2 at a top-level Optional", Int?.self,
            """
            02                           // neither 00 nor 01
            02                           // 1
            """, "dataCorrupted", path: [], offset: 0),
        Malformed(
            "nil indicator 5 at a top-level enum", IntRaw.self,
            """
            05                           // neither 00 nor 01
            02                           // 1
            """, "dataCorrupted", path: [], offset: 0),
        Malformed("empty input for a top-level Optional", Int?.self, "", "dataCorrupted", path: []),
        Malformed(
            "packed [Double] of 7 bytes", [Double].self,
            """
            3f f0 00 00 00 00 00         // not a multiple of 8
            """, "dataCorrupted", path: [], offset: 0),
        Malformed(
            "packed [Double] of 15 bytes in a field", Coords.self,
            """
            0d 76 61 6c 75 65 73         // key "values"
            1e                           // length 15
            3f f0 00 00 00 00 00 00      // 1.0
            3f f0 00 00 00 00 00         // 7 bytes
            """, "dataCorrupted", path: ["values"]),
        Malformed("packed [Float] of 5 bytes", [Float].self, "3f 80 00 00 3f", "dataCorrupted", path: []),
        Malformed("packed [Int16] of 3 bytes", [Int16].self, "01 00 02", "dataCorrupted", path: []),
        Malformed(
            "packed [Bool] with a 2", [Bool].self,
            """
            01                           // true
            02                           // not a Bool
            00                           // false
            """, "dataCorrupted", path: [], offset: 1),
        Malformed(
            "packed [Bool] with a 2 in a field", Flags.self,
            """
            0b 66 6c 61 67 73            // key "flags"
            04 00 02                     // length 2: false, 2
            """, "dataCorrupted", path: ["flags"], offset: 8),
        Malformed(
            "a bad element at index 2", [SMessage].self,
            """
            40                           // element 0: length 32
            0d 69 73 52 65 61 64  02 01
            0d 73 65 6e 64 65 72  02 78
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 06
            40                           // element 1: length 32
            0d 69 73 52 65 61 64  02 00
            0d 73 65 6e 64 65 72  02 79
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 05
            40                           // element 2: length 32
            0d 69 73 52 65 61 64  02 02  //   "isRead": Bool 2
            0d 73 65 6e 64 65 72  02 7a
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 04
            """, "dataCorrupted", path: ["Index 2", "isRead"], offset: 75),
        Malformed(
            "nil for a required field", SMessage.self,
            """
            0d 69 73 52 65 61 64  02 01  // "isRead": true
            0d 73 65 6e 64 65 72  01     // "sender": nil
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 02  // "unreadCount": 1
            """, "valueNotFound", path: ["sender"]),
        Malformed(
            "nil for a required array element", [SMessage].self,
            """
            01                           // element 0: nil
            """, "valueNotFound", path: ["Index 0"]),
        Malformed(
            "nil for a nested container", Coords.self,
            """
            0d 76 61 6c 75 65 73  01     // "values": nil
            """, "valueNotFound", path: ["values"]),
    ]

    @Test(arguments: rows)
    func malformed(_ row: Malformed) throws {
        let loc = row.location
        let error = #expect(throws: DecodingError.self, "\(row.name)", sourceLocation: loc) {
            try row.decode(row.input)
        }
        guard let error else { return }
        #expect(error.caseName == row.expectedCase, "\(row.name): \(error)", sourceLocation: loc)
        if let path = row.path {
            #expect(error.pathStrings == path, "\(row.name): coding path", sourceLocation: loc)
        }
        if let key = row.key {
            guard case .keyNotFound(let missing, _) = error else { return }
            #expect(missing.stringValue == key, "\(row.name): missing key", sourceLocation: loc)
        }
        let context = try #require(error.context)
        if row.expectedCase == "dataCorrupted" {
            #expect(
                (context.underlyingError as? WireFormatError)?.offset != nil,
                "\(row.name): \(context.debugDescription)",
                sourceLocation: loc)
        }
        if let offset = row.offset {
            let wire = context.underlyingError as? WireFormatError
            #expect(wire?.offset == offset, "\(row.name): offset in \(String(describing: wire))", sourceLocation: loc)
        }
    }

    /// Every proper prefix of a valid encoding fails cleanly (these types have no optional field
    /// last, so no prefix is itself valid).
    @Test(arguments: [
        "SMessage", "Message.seed", "AllPrimitives", "AllPrimitivesIntKeys", "Nested", "IntKeyed",
        "v3.Wrapped", "Assoc.four", "Derived", "ManualNested",
    ])
    func everyPrefixFails(_ name: String) throws {
        let c = try #require(Fixtures.casesByName[name])
        let codec = ProjectCodec(format: .v3)
        let full = try c.encode(codec)
        #expect(try c.decodesEqual(codec, full))
        for n in 0..<full.count {
            let prefix = Array(full.prefix(n))
            #expect(throws: DecodingError.self, "\(name): prefix of \(n) bytes: \(spacedHex(prefix))") {
                _ = try c.decodesEqual(codec, prefix)
            }
        }
    }

    /// Overwriting any byte with a value that changes its meaning never traps, and any error is a
    /// `DecodingError`.
    @Test(arguments: ["SMessage", "Nested", "Optionals.allSet", "[Int??]", "Expr", "WithCollections", "[Date]"])
    func byteMutationsNeverTrap(_ name: String) throws {
        let c = try #require(Fixtures.casesByName[name])
        let codec = ProjectCodec(format: .v3)
        let full = try c.encode(codec)
        for i in full.indices {
            for b: UInt8 in [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff] where b != full[i] {
                var mutated = full
                mutated[i] = b
                do {
                    _ = try c.decodesEqual(codec, mutated)
                } catch {
                    #expect(error is DecodingError, "\(name): byte \(i) = \(b): \(error)")
                }
            }
        }
    }

    @Test func inputNestedBeyondTheDepthLimitThrows() throws {
        // Each level: key "n" (03 6e), then an element holding the next level; the last is empty.
        let levels = 100_000
        var contentLengths = [0]
        for _ in 0..<levels {
            let inner = contentLengths.last!
            contentLengths.append(2 + binaryCodableVarint(UInt64(inner) << 1).count + inner)
        }
        var input: [UInt8] = []
        input.reserveCapacity(contentLengths[levels])
        for level in stride(from: levels - 1, through: 0, by: -1) {
            input += [0x03, 0x6e] + binaryCodableVarint(UInt64(contentLengths[level]) << 1)
        }
        #expect(input.count == contentLengths[levels])
        let error = #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Chain.self, from: input) }
        #expect(error?.caseName == "dataCorrupted")
        #expect((error?.context?.underlyingError as? WireFormatError)?.code == .limitExceeded)

        // Within the limit the same shape decodes.
        var shallow = BinaryDecoder()
        shallow.limits = DecodingLimits(maximumDepth: 512)
        let few = Array(input.suffix(contentLengths[10]))
        var chain: Chain? = try shallow.decode(Chain.self, from: few)
        var depth = 0
        while let c = chain {
            depth += 1
            chain = c.n
        }
        #expect(depth == 11)

        // The error names the first value past the limit, by its path and where it starts: each
        // level is 3 bytes ("n", its key, and a one-byte length), so the value at a path of k keys
        // starts at byte 3k.
        var strict = BinaryDecoder()
        strict.limits = DecodingLimits(maximumDepth: 3)
        let five = Array(input.suffix(contentLengths[5]))
        #expect(five == [0x03, 0x6e, 0x18, 0x03, 0x6e, 0x12, 0x03, 0x6e, 0x0c, 0x03, 0x6e, 0x06, 0x03, 0x6e, 0x00])
        let tooDeep = #expect(throws: DecodingError.self) { try strict.decode(Chain.self, from: five) }
        let context = try #require(tooDeep?.context)
        let wire = try #require(context.underlyingError as? WireFormatError)
        #expect(wire.code == .limitExceeded)
        #expect(context.codingPath.map(\.stringValue) == ["n", "n", "n"])
        #expect(wire.offset == 3 * context.codingPath.count)
    }

    @Test func dataSliceWithNonZeroStartIndex() throws {
        let value = SMessage(sender: "Alice", isRead: true, unreadCount: 42)
        let encoded = try BinaryEncoder().encode(value)
        let framed = Data([0xaa, 0xbb]) + encoded + Data([0xcc])
        let slice = framed[2..<(2 + encoded.count)]
        #expect(slice.startIndex == 2)
        #expect(try BinaryDecoder().decode(SMessage.self, from: slice) == value)

        // Offsets in errors count from the start of the slice.
        let bad = Data([0xaa, 0x05, 0x02])[1...]
        let error = #expect(throws: DecodingError.self) { try BinaryDecoder().decode(IntRaw.self, from: bad) }
        #expect((error?.context?.underlyingError as? WireFormatError)?.offset == 0)
    }

    @Test func decodeFromByteArray() throws {
        let value = Nested(
            inner: SMessage(sender: "in", isRead: true, unreadCount: -1), list: [], opt: nil, matrix: [[1]])
        let encoded: [UInt8] = Array(try BinaryEncoder().encode(value))
        #expect(try BinaryDecoder().decode(Nested.self, from: encoded) == value)
        #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Nested.self, from: Array(encoded.dropLast())) }
    }
}
