import BinarySerialization
import Foundation
import Testing

/// Golden bytes for each rule of the legacy v2 format, written from the format description and
/// checked against the reference vectors (big-endian floats, UTF-8 byte counts for string keys),
/// and malformed v2 inputs, each a `DecodingError` with its path.
@Suite struct V2GoldenBytesTests {
    struct Row<T: Codable & Equatable & Sendable>: Sendable, CustomTestStringConvertible {
        let name: String
        let value: T
        let hex: String
        var testDescription: String { name }
    }

    static func check<T: Codable & Equatable>(
        _ value: T, _ hex: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var encoder = BinaryEncoder(format: .v2)
        encoder.sortKeysDuringEncoding = true
        let expected = bytes(hex)
        let got = Array(try encoder.encode(value))
        #expect(spacedHex(got) == spacedHex(expected), "\(name)", sourceLocation: sourceLocation)
        #expect(
            try BinaryDecoder(format: .v2).decode(T.self, from: expected) == value, "\(name) decodes",
            sourceLocation: sourceLocation)
    }

    struct Byte: Codable, Equatable { var x: UInt8 }
    struct Two: Codable, Equatable { var x: Int16 }
    struct Four: Codable, Equatable { var x: Float }
    struct Eight: Codable, Equatable { var x: Double }
    struct Var: Codable, Equatable { var x: Int }
    struct Flag: Codable, Equatable { var x: Bool }
    struct Text: Codable, Equatable { var x: String }
    struct IntKey: Codable, Equatable {
        var a: UInt8
        enum CodingKeys: Int, CodingKey { case a = 2 }
    }
    struct Fixed: Codable, Equatable {
        @FixedSizeEncoded var a: Int32
        @FixedSizeEncoded var b: UInt64
    }
    struct Maybe: Codable, Equatable {
        var a: Int?
        var b: Int??
    }
    struct Unicode: Codable, Equatable { var ü: Int }

    @Test func wireTypesInKeys() throws {
        // Key "x" (length 1, string flag 8): the low three bits carry the wire type.
        try Self.check(Byte(x: 123), "1e 78 7b", "byte: 1<<4 | 8 | 6")
        try Self.check(Two(x: 300), "1f 78 2c 01", "two bytes: 1<<4 | 8 | 7, little-endian")
        try Self.check(Four(x: 1.5), "1d 78 3f c0 00 00", "four bytes: 1<<4 | 8 | 5, big-endian float")
        try Self.check(Eight(x: -1.5), "19 78 bf f8 00 00 00 00 00 00", "eight bytes: 1<<4 | 8 | 1, big-endian double")
        try Self.check(Var(x: -2), "18 78 03", "varint: 1<<4 | 8 | 0, zig-zag")
        try Self.check(Flag(x: true), "18 78 01", "Bool: varint wire type")
        try Self.check(Text(x: "hi"), "1a 78 02 68 69", "length-delimited: 1<<4 | 8 | 2, plain length 02")
    }

    @Test func integerAndUnicodeKeys() throws {
        try Self.check(IntKey(a: 7), "26 07", "int key 2: 2<<4 | 6")
        // "ü" is one Character but two UTF-8 bytes: the length is 2 (2<<4 | 8 | 0 = 0x28).
        try Self.check(Unicode(ü: 1), "28 c3 bc 02", "UTF-8 byte count")
    }

    @Test func fixedSizeWrapper() throws {
        try Self.check(
            Fixed(a: -2, b: 1),
            """
            1d 61 fe ff ff ff              // "a": 1<<4 | 8 | 5 (four bytes), -2 little-endian
            19 62 01 00 00 00 00 00 00 00  // "b": 1<<4 | 8 | 1 (eight bytes), 1 little-endian
            """, "FixedSizeEncoded")
    }

    @Test func optionals() throws {
        // An absent optional property is omitted; a present Int? is the plain value; an Int?? is
        // length-delimited with the inner flag (01 present, 00 nil). A nil optional in a keyed
        // container is omitted, as BinaryCodable 2.0.3 does, so Int?? `.some(nil)` reads back as nil.
        try Self.check(Maybe(a: nil, b: nil), "", "all nil")
        let lossy = Maybe(a: 5, b: .some(nil))
        #expect(spacedHex(try BinaryEncoder(format: .v2).encode(lossy)) == "18 61 0a")
        #expect(try BinaryDecoder(format: .v2).decode(Maybe.self, from: bytes("18 61 0a")) == Maybe(a: 5, b: nil))
        try Self.check(Maybe(a: nil, b: .some(5)), "1a 62 02 01 0a", "Int?? .some(5)")
        try Self.check(Int?.none, "00", "top-level nil")
        try Self.check(Int?.some(5), "01 0a", "top-level flag then varint")
        try Self.check([Int?.none, 3], "00 01 06", "optionals in an unkeyed container")
    }

    @Test func unkeyedAndPacked() throws {
        try Self.check([1, -1], "02 01", "packed varints")
        try Self.check(["a", ""], "01 61 00", "strings with plain lengths")
        try Self.check([[1], []], "01 02 00", "nested arrays with lengths")
        try Self.check([Byte(x: 1)], "03 1e 78 01", "structs with lengths")
        try Self.check([true: 1], "01 02", "Bool keys: alternating key and value")
    }

    @Test func enumsAndSuper() throws {
        try Self.check(
            Assoc.one("a"), "3a 6f 6e 65 05 2a 5f 30 01 61", "case key, then _0 as a length-delimited string")
        try Self.check(
            Derived(a: 1, b: "x") as Derived, "1a 62 01 78  02 03 18 61 02", "super at int key 0 (0<<4 | 2), length 3")
    }

    // MARK: Malformed v2 input

    static func expectError<T: Decodable>(
        _ type: T.Type, _ hex: String, _ expectedCase: String, path: [String]? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try BinaryDecoder(format: .v2).decode(T.self, from: bytes(hex))
            Issue.record("\(hex): expected \(expectedCase)", sourceLocation: sourceLocation)
        } catch let error as DecodingError {
            #expect(error.caseName == expectedCase, "\(hex): \(error)", sourceLocation: sourceLocation)
            if let path { #expect(error.pathStrings == path, "\(hex): path", sourceLocation: sourceLocation) }
        } catch {
            Issue.record("\(hex): not a DecodingError: \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func malformed() {
        Self.expectError(Byte.self, "1b 78 01", "dataCorrupted")  // wire type 3 does not exist
        Self.expectError(Byte.self, "1c 78 01", "dataCorrupted")  // wire type 4 does not exist
        // UInt8 requested, key says length-delimited
        Self.expectError(Byte.self, "1a 78 01 05", "typeMismatch", path: ["x"])
        Self.expectError(Text.self, "18 78 05", "typeMismatch", path: ["x"])  // String requested, key says varint
        Self.expectError(Text.self, "1a 78 05 68", "dataCorrupted")  // length 5, one byte left
        Self.expectError(Text.self, "1a 78 ff ff ff ff ff ff ff ff 7f", "dataCorrupted")  // huge length
        Self.expectError(Text.self, "1a 78 01 ff", "dataCorrupted", path: ["x"])  // invalid UTF-8
        Self.expectError(Flag.self, "18 78 02", "dataCorrupted", path: ["x"])  // Bool byte 2
        Self.expectError(Var.self, "18 78 80 00", "dataCorrupted")  // over-long varint
        Self.expectError(Var.self, "18 78 01 18 78 01", "dataCorrupted")  // duplicate key
        Self.expectError(Var.self, "", "dataCorrupted")  // empty input (a struct with a required key)
        Self.expectError(Int?.self, "02", "dataCorrupted")  // optional flag 2
        Self.expectError(Int?.self, "01 02 03", "dataCorrupted")  // trailing byte after the value
        Self.expectError([String].self, "01 61 05 61", "dataCorrupted", path: ["Index 1"])  // second element truncated
    }

    /// Every prefix of every v2 vector: decodes or throws a DecodingError, never traps.
    @Test func truncationAtEveryByte() throws {
        var mutants = 0
        for v in Fixtures.v2 where v.roundtrip {
            guard let c = Fixtures.casesByName[v.name] else { continue }
            let full = v.bytes
            for cut in stride(from: 0, to: full.count, by: max(1, full.count / 200)) {
                do { _ = try c.decodesEqual(ProjectCodec(format: .v2), Array(full.prefix(cut))) } catch is DecodingError
                {
                } catch { Issue.record("\(v.name) cut at \(cut): \(error)") }
                mutants += 1
            }
        }
        #expect(mutants > 1000)
    }
}
