import BinarySerialization
import Foundation
import Testing

// Acceptance 4: one golden-byte table per v3 wire rule. Every hex string was worked out by hand
// from the rules (Docs/FormatV3.md, the BinaryCodable v3 spec; where they disagree the reference
// vectors win: floats are big-endian, "Hello" in a container has prefix 0a). Each row also checks
// that `encode(tree: encodeTree(v))` gives the same bytes and that decoding the golden bytes gives
// the value back.

extension V3GoldenBytesTests {
    /// Encodes `value` with a v3 encoder and compares with `hex` (spaces allowed); then decodes `hex`.
    static func expectBytes<T: Codable & Equatable>(
        _ value: T, _ hex: String, sorted: Bool = true, _ name: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let golden = bytes(hex)
        let encoder = v3Encoder(sorted: sorted)
        do {
            let data = try encoder.encode(value)
            #expect(spacedHex(data) == spacedHex(golden), "\(name): encoded bytes", sourceLocation: sourceLocation)
            let viaTree = try encoder.encode(tree: encoder.encodeTree(value))
            #expect(
                spacedHex(viaTree) == spacedHex(golden), "\(name): bytes through the tree",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(name): encoding threw \(error)", sourceLocation: sourceLocation)
        }
        do {
            let decoded = try BinaryDecoder().decode(T.self, from: golden)
            #expect(decoded == value, "\(name): decoding the golden bytes", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(name): decoding the golden bytes threw \(error)", sourceLocation: sourceLocation)
        }
    }

    /// One row of a golden table: the value is made by a closure, so non-`Sendable` values work too.
    struct Golden: Sendable, CustomTestStringConvertible {
        let name: String
        let hex: String
        let sorted: Bool
        let location: SourceLocation
        let run: @Sendable (Golden) -> Void

        init<T: Codable & Equatable & SendableMetatype>(
            _ name: String, _ hex: String, sorted: Bool = true,
            sourceLocation: SourceLocation = #_sourceLocation, _ make: @escaping @Sendable () -> T
        ) {
            self.name = name
            self.hex = hex
            self.sorted = sorted
            self.location = sourceLocation
            self.run = { row in
                V3GoldenBytesTests.expectBytes(
                    make(), row.hex, sorted: row.sorted, row.name, sourceLocation: row.location)
            }
        }

        var testDescription: String { name }
    }

    // MARK: Types used by the tables

    /// `encodeNil()` and values mixed in an unkeyed container.
    struct NilsInUnkeyed: Codable, Equatable {
        init() {}
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encodeNil()
            try c.encode(1 as Int)
            try c.encodeNil()
            try c.encode("")
        }
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            guard try c.decodeNil(), try c.decode(Int.self) == 1, try c.decodeNil(), try c.decode(String.self) == "",
                c.isAtEnd
            else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unexpected content")) }
        }
    }

    /// A custom single-value container that may hold nil.
    struct MaybeInt: Codable, Equatable {
        var value: Int?
        init(_ value: Int?) { self.value = value }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            if let value { try c.encode(value) } else { try c.encodeNil() }
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            value = c.decodeNil() ? nil : try c.decode(Int.self)
        }
    }

    /// Single-value types inside a keyed container: their nil flag folds into the element prefix.
    struct Folded: Codable, Equatable {
        var raw: IntRaw
        var date: Date
        var opt: Int?
        var wrapped: SingleWrapped
    }

    struct LongString: Codable, Equatable { var s: String }

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case rect(Int, Int)
        case empty
    }

    /// `superEncoder(forKey:)` holding a single value.
    struct SuperForKey: Codable, Equatable {
        var base: Int
        var own: Bool
        enum CodingKeys: String, CodingKey { case own, parent }
        init(base: Int, own: Bool) {
            self.base = base
            self.own = own
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(own, forKey: .own)
            var s = c.superEncoder(forKey: .parent).singleValueContainer()
            try s.encode(base)
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            own = try c.decode(Bool.self, forKey: .own)
            base = try c.superDecoder(forKey: .parent).singleValueContainer().decode(Int.self)
        }
    }

    class Animal: Codable {
        var legs: Int
        init(legs: Int) { self.legs = legs }
    }

    /// Writes the superclass first, so unsorted and sorted output differ.
    final class Dog: Animal, Equatable {
        var name: String
        init(legs: Int, name: String) {
            self.name = name
            super.init(legs: legs)
        }
        enum CodingKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            try super.init(from: c.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try super.encode(to: c.superEncoder())
            try c.encode(name, forKey: .name)
        }
        static func == (l: Dog, r: Dog) -> Bool { l.legs == r.legs && l.name == r.name }
    }

    struct Wrappers: Codable, Equatable {
        @FixedSizeEncoded var f: Int32
        @VariableLengthEncoded var v: Int16
        @ZigZagEncoded var z: Int16
    }

    /// Integer keys declared out of order: sorted by value, 1 < 2 < 10 (as strings "10" < "2").
    struct IntOrder: Codable, Equatable {
        var c: Bool
        var a: Bool
        var b: Bool
        enum CodingKeys: Int, CodingKey { case c = 10, a = 2, b = 1 }
    }

    /// String keys sort by Swift string order: "B" < "a" < "aa" < "b".
    struct StringOrder: Codable, Equatable {
        var b: Int
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var B: Int  // the key "B", which sorts before the lowercase ones
        var aa: Int
        var a: Int
    }
}

// MARK: - Tables

@Suite struct V3GoldenBytesTests {
    @Test(arguments: [
        Golden("true", "01") { true },
        Golden("false", "00") { false },
    ])
    func bool(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("Int8 -1", "ff") { Int8(-1) },
        Golden("Int8 min", "80") { Int8.min },
        Golden("Int8 max", "7f") { Int8.max },
        Golden("UInt8 0", "00") { UInt8(0) },
        Golden("UInt8 200", "c8") { UInt8(200) },
        Golden("UInt8 max", "ff") { UInt8.max },
    ])
    func singleBytes(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("Int16 300", "2c 01") { Int16(300) },
        Golden("Int16 -2", "fe ff") { Int16(-2) },
        Golden("Int16 min", "00 80") { Int16.min },
        Golden("UInt16 0x1234", "34 12") { UInt16(0x1234) },
        Golden("UInt16 max", "ff ff") { UInt16.max },
    ])
    func littleEndian16(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("Int 0", "00") { 0 },
        Golden("Int -1", "01") { -1 },
        Golden("Int 1", "02") { 1 },
        Golden("Int 63", "7e") { 63 },
        Golden("Int 64 (zz 128)", "80 01") { 64 },
        Golden("Int -64 (zz 127)", "7f") { -64 },
        Golden("Int -65 (zz 129)", "81 01") { -65 },
        Golden("Int -280 (zz 559)", "af 04") { -280 },
        // zz(max) = 2^64 - 2: eight 7-bit groups then the top byte whole.
        Golden("Int64 max", "fe ff ff ff ff ff ff ff ff") { Int64.max },
        Golden("Int64 min", "ff ff ff ff ff ff ff ff ff") { Int64.min },
        Golden("Int max", "fe ff ff ff ff ff ff ff ff") { Int.max },
        Golden("Int min", "ff ff ff ff ff ff ff ff ff") { Int.min },
        Golden("Int64 2^56 (zz 2^57)", "80 80 80 80 80 80 80 80 02") { Int64(1) << 56 },
        Golden("Int32 -1", "01") { Int32(-1) },
        Golden("Int32 64", "80 01") { Int32(64) },
        Golden("Int32 max", "fe ff ff ff 0f") { Int32.max },
        Golden("Int32 min", "ff ff ff ff 0f") { Int32.min },
    ])
    func zigZagVarints(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("UInt64 0", "00") { UInt64(0) },
        Golden("UInt64 127", "7f") { UInt64(127) },
        Golden("UInt64 128", "80 01") { UInt64(128) },
        Golden("UInt64 300", "ac 02") { UInt64(300) },
        Golden("UInt64 2^56-1 (8 bytes)", "ff ff ff ff ff ff ff 7f") { (UInt64(1) << 56) - 1 },
        Golden("UInt64 2^56 (9 bytes)", "80 80 80 80 80 80 80 80 01") { UInt64(1) << 56 },
        Golden("UInt64 max (9 bytes, not 10)", "ff ff ff ff ff ff ff ff ff") { UInt64.max },
        Golden("UInt max", "ff ff ff ff ff ff ff ff ff") { UInt.max },
        Golden("UInt 255", "ff 01") { UInt(255) },
        Golden("UInt32 300", "ac 02") { UInt32(300) },
        Golden("UInt32 max", "ff ff ff ff 0f") { UInt32.max },
    ])
    func plainVarints(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("Float 1", "3f 80 00 00") { Float(1) },
        Golden("Float -1.5", "bf c0 00 00") { Float(-1.5) },
        Golden("Float infinity", "7f 80 00 00") { Float.infinity },
        Golden("Double 1", "3f f0 00 00 00 00 00 00") { 1.0 },
        Golden("Double -2.5", "c0 04 00 00 00 00 00 00") { -2.5 },
        Golden("Double -0", "80 00 00 00 00 00 00 00") { -0.0 },
        Golden("Double least nonzero", "00 00 00 00 00 00 00 01") { Double.leastNonzeroMagnitude },
    ])
    func bigEndianFloats(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("empty String", "") { "" },
        Golden("Hello", "48 65 6c 6c 6f") { "Hello" },
        Golden("é (2 bytes)", "c3 a9") { "é" },
        Golden("👋 (4 bytes)", "f0 9f 91 8b") { "👋" },
        Golden("empty Data", "") { Data() },
        Golden("Data", "00 01 ff") { Data([0, 1, 0xff]) },
    ])
    func stringsAndData(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden(
            "SMessage",
            """
            0d 69 73 52 65 61 64  02 01     // "isRead" (6 << 1 | 1): length 1, true
            0d 73 65 6e 64 65 72  0a 41 6c 69 63 65  // "sender": length 5, "Alice"
            17 75 6e 72 65 61 64 43 6f 75 6e 74  02 54  // "unreadCount" (11): zz(42) = 0x54
            """
        ) { SMessage(sender: "Alice", isRead: true, unreadCount: 42) },
        Golden("non-ASCII key: UTF-8 byte count", "05 c3 a9  02 02") { ["é": 1] },
        Golden(
            "64-byte key: two-byte key varint 81 01",
            "81 01" + String(repeating: "6b", count: 64) + "02 01"
        ) { [String(repeating: "k", count: 64): true] },
        Golden(
            "IntKeyed: keys 1, 2, 123, 100000",
            """
            02  02 0d          // key 1: length 1, zz(-7) = 13
            04  06 62 65 65    // key 2: length 3, "bee"
            f6 01  02 01       // key 123 (246 = f6 01): true
            c0 9a 0c  10 3f e0 00 00 00 00 00 00  // key 100000 (200000 = c0 9a 0c): 0.5
            """
        ) { IntKeyed(a: -7, b: "bee", c: true, d: 0.5) },
        Golden(
            "Message (prose example, corrected length)",
            """
            02 02 01          // key 1: true
            04 06 42 6f 62    // key 2: "Bob"
            06 06 06 af 04    // key 3: length 3, packed [3, -280]
            """
        ) { Message(isComplete: true, owner: "Bob", references: [3, -280]) },
        Golden("nil optional property writes no key", "") { Optionals(a: nil, b: nil, c: nil, d: nil, e: nil, f: nil) },
    ])
    func keyed(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden(
            "64-byte element: two-byte prefix 80 01",
            "03 73  80 01" + String(repeating: "61", count: 64)
        ) { LongString(s: String(repeating: "a", count: 64)) },
        Golden("[Int?] nil marker", "01  02 02") { [nil, 1] as [Int?] },
        Golden("[String?]", "01  02 61  00") { [nil, "a", ""] as [String?] },
        Golden("[String] Hello: prefix 0a, not 14", "0a 48 65 6c 6c 6f") { ["Hello"] },
        Golden(
            "unkeyed encodeNil()",
            """
            01        // nil
            02 02     // length 1, Int 1
            01        // nil
            00        // length 0, ""
            """
        ) { NilsInUnkeyed() },
        Golden("UnkeyedMix (prose example)", "02 00  01  0a 48 65 6c 6c 6f  00") { UnkeyedMix() },
        Golden("[[Int]]", "04 02 04  00  02 05") { [[1, 2], [], [-3]] },
    ])
    func elements(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("[Bool]", "01 00 01") { [true, false, true] },
        Golden("[Int8]", "ff 00 7f") { [Int8(-1), 0, 127] },
        Golden("[UInt8]", "00 80 ff") { [UInt8(0), 128, 255] },
        Golden("[Int16]", "ff ff 2c 01") { [Int16(-1), 300] },
        Golden("[UInt16]", "01 00 ff ff") { [UInt16(1), 65535] },
        Golden("[Int32]", "01 80 01") { [Int32(-1), 64] },
        Golden("[UInt32]", "01 ff ff ff ff 0f") { [UInt32(1), .max] },
        Golden("[Int64]", "ff ff ff ff ff ff ff ff ff 0a") { [Int64.min, 5] },
        Golden("[UInt64]", "ff ff ff ff ff ff ff ff ff 00") { [UInt64.max, 0] },
        Golden("[Int]", "06 af 04") { [3, -280] },
        Golden("[UInt]", "01 ac 02") { [UInt(1), 300] },
        Golden("[Float]", "3f c0 00 00 c0 00 00 00") { [Float(1.5), -2] },
        Golden("[Double]", "3f f0 00 00 00 00 00 00 c0 04 00 00 00 00 00 00") { [1.0, -2.5] },
        Golden("Set<Int> one element", "54") { Set([42]) },
        Golden("empty [Int]", "") { [Int]() },
        Golden("[String] is not packed", "00  02 61") { ["", "a"] },
        Golden("[FixedSizeEncoded<Int32>] is not packed", "08 01 00 00 00  08 ff ff ff ff") {
            [FixedSizeEncoded<Int32>(wrappedValue: 1), FixedSizeEncoded(wrappedValue: -1)]
        },
        Golden("[VariableLengthEncoded<UInt16>] is not packed", "02 01  04 e8 07") {
            [VariableLengthEncoded<UInt16>(wrappedValue: 1), VariableLengthEncoded(wrappedValue: 1000)]
        },
    ])
    func packed(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("bare Int: no flag", "02") { 1 },
        Golden("IntRaw.one", "00 02") { IntRaw.one },
        Golden("IntRaw.big", "00 d0 0f") { IntRaw.big },
        Golden("Plain.beta", "00 62 65 74 61") { Plain.beta },
        Golden("Int? nil", "01") { Int?.none },
        Golden("Int? 5", "00 0a") { Int?.some(5) },
        Golden("Int?? .some(nil)", "00 01") { Int??.some(nil) },
        Golden("Int?? nil", "01") { Int??.none },
        Golden("Int?? 4", "00 00 08") { Int??.some(4) },
        Golden("String? abc", "00 61 62 63") { String?.some("abc") },
        Golden("[Int]? [1, 2]", "00 02 04") { [Int]?.some([1, 2]) },
        Golden("Date reference 0", "00 00 00 00 00 00 00 00 00") { Date(timeIntervalSinceReferenceDate: 0) },
        Golden("Date reference 1.5", "00 3f f8 00 00 00 00 00 00") { Date(timeIntervalSinceReferenceDate: 1.5) },
        Golden(
            "UUID: flag, then uuidString",
            "00"
                + "30 30 30 30 30 30 30 30 2d 30 30 30 30 2d 30 30 30 30 2d 30 30 30 30 2d"
                + "30 30 30 30 30 30 30 30 30 30 30 31"
        ) { UUID(uuidString: "00000000-0000-0000-0000-000000000001")! },
        Golden("custom single value", "00 99 01") { SingleWrapped(-77) },
        Golden("custom single-value encodeNil()", "01") { MaybeInt(nil) },
        Golden("custom single value 3", "00 06") { MaybeInt(3) },
        Golden("wrapper: no flag", "05 00 00 00 00 00 00 00") { FixedSizeEncoded<Int64>(wrappedValue: 5) },
    ])
    func topLevelSingleValues(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden(
            "single values in a struct",
            """
            09 64 61 74 65  10 3f f0 00 00 00 00 00 00  // "date": length 8, no flag byte
            07 6f 70 74  02 0a                           // "opt": length 1, zz(5)
            07 72 61 77  04 d0 0f                        // "raw": length 2, zz(1000) = 2000
            0f 77 72 61 70 70 65 64  04 99 01           // "wrapped": length 2, zz(-77) = 153
            """
        ) { Folded(raw: .big, date: Date(timeIntervalSinceReferenceDate: 1), opt: 5, wrapped: SingleWrapped(-77)) },
        Golden("[IntRaw]", "02 02  04 d0 0f") { [IntRaw.one, .big] },
        Golden("[Date]", "10 bf f0 00 00 00 00 00 00") { [Date(timeIntervalSinceReferenceDate: -1)] },
        Golden("[MaybeInt]", "01  02 06") { [MaybeInt(nil), MaybeInt(3)] },
        // Only the outer optional folds; inner levels keep their byte.
        Golden("[Int??]", "02 01  01  04 00 02") { [.some(nil), nil, .some(.some(1))] as [Int??] },
    ])
    func foldedSingleValues(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("[String: Int]", "03 61 02 02  03 62 02 04") { ["b": 2, "a": 1] },
        Golden("numeric String keys are int keys", "02 02 02  2c 02 04") { ["1": 1, "22": 2] },
        Golden(
            "[Int: String]",
            """
            02  06 6f 6e 65        // key 1: "one"
            d8 04  1a 74 68 72 65 65 20 68 75 6e 64 72 65 64  // key 300 (600 = d8 04): length 13
            """
        ) { [1: "one", 300: "three hundred"] },
        Golden("[Bool: Int]: unkeyed key, value", "02 01  02 02") { [true: 1] },
        Golden("[Double: String]: unkeyed", "10 3f f8 00 00 00 00 00 00  02 78") { [1.5: "x"] },
        Golden("[String: [Int]]", "05 78 73  06 02 04 06") { ["xs": [1, 2, 3]] },
        Golden("[String: Int?] nil value", "03 61  01") { ["a": nil] as [String: Int?] },
        Golden("empty dictionary", "") { [String: String]() },
    ])
    func dictionaries(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden(
            "circle(radius:)",
            """
            0d 63 69 72 63 6c 65  20                       // "circle": length 16
            0d 72 61 64 69 75 73  10 3f f0 00 00 00 00 00 00  // "radius": 1.0
            """
        ) { Shape.circle(radius: 1) },
        Golden(
            "rect(_, _)",
            """
            09 72 65 63 74  14     // "rect": length 10
            05 5f 30  02 06        // "_0": 3
            05 5f 31  02 07        // "_1": -4
            """
        ) { Shape.rect(3, -4) },
        Golden("case without values", "0b 65 6d 70 74 79  00") { Shape.empty },
        Golden("int case keys", "04 14  05 5f 30 02 01  05 5f 31 02 7b") { AssocIntKeys.two(true, 123) },
    ])
    func enumsWithAssociatedValues(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden(
            "superEncoder(): key 0",
            """
            03 62  08 66 69 76 65   // "b": "five"
            00  08  03 61 02 0a     // key 0 ("super"): length 4, {"a": 5}
            """
        ) { Derived(a: 5, b: "five") },
        Golden(
            "superEncoder() written first, unsorted",
            """
            00  0e  09 6c 65 67 73 02 08   // key 0: length 7, {"legs": 4}
            09 6e 61 6d 65  06 52 65 78    // "name": "Rex"
            """, sorted: false
        ) { Dog(legs: 4, name: "Rex") },
        Golden(
            "superEncoder() written first, sorted: \"name\" < \"super\"",
            """
            09 6e 61 6d 65  06 52 65 78
            00  0e  09 6c 65 67 73 02 08
            """
        ) { Dog(legs: 4, name: "Rex") },
        Golden(
            "superEncoder(forKey:) with a single value",
            """
            07 6f 77 6e  02 01                 // "own": true
            0d 70 61 72 65 6e 74  02 0e        // "parent": length 1, zz(7); flag folded
            """
        ) { SuperForKey(base: 7, own: true) },
    ])
    func superEncoders(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("FixedSizeEncoded<Int32>", "fe ff ff ff") { FixedSizeEncoded<Int32>(wrappedValue: -2) },
        Golden("FixedSizeEncoded<UInt32>", "07 00 00 00") { FixedSizeEncoded<UInt32>(wrappedValue: 7) },
        Golden("FixedSizeEncoded<Int64>", "00 00 00 00 00 01 00 00") { FixedSizeEncoded<Int64>(wrappedValue: 1 << 40) },
        Golden("FixedSizeEncoded<UInt64>", "ff ff ff ff ff ff ff ff") { FixedSizeEncoded<UInt64>(wrappedValue: .max) },
        Golden("FixedSizeEncoded<Int>", "ff ff ff ff ff ff ff ff") { FixedSizeEncoded<Int>(wrappedValue: -1) },
        Golden("FixedSizeEncoded<UInt>", "01 00 00 00 00 00 00 00") { FixedSizeEncoded<UInt>(wrappedValue: 1) },
        Golden("VariableLengthEncoded<Int16> -1", "ff ff 03") { VariableLengthEncoded<Int16>(wrappedValue: -1) },
        Golden("VariableLengthEncoded<UInt16>", "ac 02") { VariableLengthEncoded<UInt16>(wrappedValue: 300) },
        Golden("VariableLengthEncoded<Int32> -1", "ff ff ff ff 0f") { VariableLengthEncoded<Int32>(wrappedValue: -1) },
        Golden("VariableLengthEncoded<Int64> -1", "ff ff ff ff ff ff ff ff ff") {
            VariableLengthEncoded<Int64>(wrappedValue: -1)
        },
        Golden("VariableLengthEncoded<Int> 5", "05") { VariableLengthEncoded<Int>(wrappedValue: 5) },
        Golden("ZigZagEncoded<Int16> -64", "7f") { ZigZagEncoded<Int16>(wrappedValue: -64) },
        Golden("ZigZagEncoded<Int16> min", "ff ff 03") { ZigZagEncoded<Int16>(wrappedValue: .min) },
        Golden("ZigZagEncoded<Int> 64", "80 01") { noEffectWrapper(64) as ZigZagEncoded<Int> },
        Golden(
            "wrappers in a struct",
            """
            03 66  08 01 00 00 00   // "f": fixed Int32 1
            03 76  02 64            // "v": varint Int16 100
            03 7a  02 05            // "z": zig-zag Int16 -3
            """
        ) { Wrappers(f: 1, v: 100, z: -3) },
    ])
    func propertyWrappers(_ row: Golden) { row.run(row) }

    @Test(arguments: [
        Golden("int keys, declaration order", "14 02 01  04 02 00  02 02 01", sorted: false) {
            IntOrder(c: true, a: false, b: true)
        },
        Golden("int keys sort by value", "02 02 01  04 02 00  14 02 01") { IntOrder(c: true, a: false, b: true) },
        Golden(
            "string keys sort by string",
            """
            03 42  02 04      // "B": 2
            03 61  02 08      // "a": 4
            05 61 61  02 06   // "aa": 3
            03 62  02 02      // "b": 1
            """
        ) { StringOrder(b: 1, B: 2, aa: 3, a: 4) },
        Golden("int vs string keys compare by string", "12 02 08  14 02 06  03 61 02 02") {
            ["a": 1, "10": 3, "9": 4]
        },
    ])
    func sortOrder(_ row: Golden) { row.run(row) }
}
