import BinarySerialization
import Foundation
import Testing

/// Behaviours BinaryCodable users rely on (the drop-in issue), each with the bytes BinaryCodable
/// writes where bytes matter, in both formats where both apply.
@Suite struct DropInBehaviourTests {
    static let formats: [BinaryFormat] = [.v3, .v2]

    static func encoder(_ format: BinaryFormat, nilIndexSets: Bool = false) -> BinaryEncoder {
        var e = BinaryEncoder(format: format)
        e.sortKeysDuringEncoding = true
        e.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        return e
    }

    static func decoder(_ format: BinaryFormat, nilIndexSets: Bool = false) -> BinaryDecoder {
        var d = BinaryDecoder(format: format)
        d.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        return d
    }

    // MARK: 1. Double optionals in a struct

    struct DoubleOpt<T: Codable & Equatable>: Codable, Equatable { var opt: T?? }
    struct TripleOpt: Codable, Equatable { var opt: Int??? }

    @Test func doubleOptionalSomeNilInAStruct() throws {
        let e = Self.encoder(.v3)
        let d = Self.decoder(.v3)
        let value = DoubleOpt<Int>(opt: .some(nil))
        #expect(spacedHex(try e.encode(value)) == "07 6f 70 74 01")  // "opt", then nil
        #expect(try d.decode(DoubleOpt<Int>.self, from: bytes("07 6f 70 74 01")) == value)
        #expect(try d.decode(DoubleOpt<Int>.self, fromTree: e.encodeTree(value)) == value)
        #expect(try d.decode(DoubleOpt<Int>.self, from: bytes("")) == DoubleOpt<Int>(opt: nil))
        #expect(spacedHex(try e.encode(DoubleOpt<Int>(opt: 5))) == "07 6f 70 74 02 0a")
        #expect(try d.decode(DoubleOpt<Int>.self, from: bytes("07 6f 70 74 02 0a")) == DoubleOpt<Int>(opt: 5))
        for value in [DoubleOpt<String>(opt: .some(nil)), DoubleOpt<String>(opt: "x"), DoubleOpt<String>(opt: nil)] {
            #expect(try d.decode(DoubleOpt<String>.self, from: e.encode(value)) == value)
            #expect(try d.decode(DoubleOpt<String>.self, fromTree: e.encodeTree(value)) == value)
        }
        for value in [DoubleOpt<[Int]>(opt: .some(nil)), DoubleOpt<[Int]>(opt: [1, 2]), DoubleOpt<[Int]>(opt: nil)] {
            #expect(try d.decode(DoubleOpt<[Int]>.self, from: e.encode(value)) == value)
        }
        for value in [
            TripleOpt(opt: .some(nil)), TripleOpt(opt: .some(.some(nil))), TripleOpt(opt: 3), TripleOpt(opt: nil),
        ] {
            #expect(try d.decode(TripleOpt.self, from: e.encode(value)) == value, "\(value)")
            #expect(try d.decode(TripleOpt.self, fromTree: e.encodeTree(value)) == value, "\(value)")
        }
    }

    // MARK: 2. encodeNil(forKey:) reads back

    struct NilPair: Codable, Equatable {
        var a: Int?
        enum CodingKeys: String, CodingKey { case a }
        init(a: Int?) { self.a = a }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            if let a { try c.encode(a, forKey: .a) } else { try c.encodeNil(forKey: .a) }
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            a = try c.decodeNil(forKey: .a) ? nil : try c.decode(Int.self, forKey: .a)
        }
    }

    @Test(arguments: formats)
    func encodeNilForKeyReadsBack(_ format: BinaryFormat) throws {
        let e = Self.encoder(format)
        let d = Self.decoder(format)
        #expect(try e.encode(NilPair(a: nil)).isEmpty)  // nothing written, as BinaryCodable
        #expect(try d.decode(NilPair.self, from: Data()) == NilPair(a: nil))
        #expect(try d.decode(NilPair.self, from: e.encode(NilPair(a: 4))) == NilPair(a: 4))
    }

    // MARK: 3. v2: a nil optional through encode(_:forKey:) is left out

    struct Dated: Codable, Equatable {
        var name: String
        var date: String?
        enum CodingKeys: Int, CodingKey { case name = 1, date = 2 }
        init(name: String, date: String?) { (self.name, self.date) = (name, date) }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(name, forKey: .name)
            try c.encode(date, forKey: .date)
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            date = try c.decode(String?.self, forKey: .date)
        }
    }

    @Test func v2NilOptionalFieldIsOmitted() throws {
        let value = Dated(name: "Bob", date: nil)
        // Key 1, length-delimited (1 << 4 | 2), 3 bytes "Bob"; nothing for the nil date.
        #expect(spacedHex(try Self.encoder(.v2).encode(value)) == "12 03 42 6f 62")
        #expect(try Self.decoder(.v2).decode(Dated.self, from: bytes("12 03 42 6f 62")) == value)
        let dated = Dated(name: "Bob", date: "x")
        #expect(try Self.decoder(.v2).decode(Dated.self, from: Self.encoder(.v2).encode(dated)) == dated)
        // v3 writes the nil (as BinaryCodable 4) and reads both spellings.
        #expect(spacedHex(try Self.encoder(.v3).encode(value)) == "02 06 42 6f 62 04 01")
        #expect(try Self.decoder(.v3).decode(Dated.self, from: bytes("02 06 42 6f 62")) == value)
    }

    // MARK: 4. v2 nil index set before packed arrays

    @Test func v2NilIndexSetBeforePackedArrays() throws {
        let e = Self.encoder(.v2, nilIndexSets: true)
        let d = Self.decoder(.v2, nilIndexSets: true)
        let rows: [([Int], String)] = [([1, 2, 3], "00 02 04 06"), ([], "00")]
        for (value, hex) in rows {
            #expect(spacedHex(try e.encode(value)) == hex)
            #expect(try d.decode([Int].self, from: bytes(hex)) == value)
        }
        #expect(spacedHex(try e.encode([Double]())) == "00")
        #expect(spacedHex(try e.encode(Optional([Int]()))) == "01 01 00")
        #expect(spacedHex(try e.encode([Set<Int>()])) == "00 01 00")
        #expect(try d.decode([Int]?.self, from: bytes("01 01 00")) == [])
        #expect(try d.decode([Set<Int>].self, from: bytes("00 01 00")) == [[]])
        // A packed array cannot hold a nil: a non-empty set is an error, not a silent misread.
        #expect(throws: DecodingError.self) { try d.decode([Int].self, from: bytes("01 00 02")) }
    }

    // MARK: 5, 6. Single-value containers: nothing encoded, encoded twice

    struct EncodesNothing: Codable {
        init() {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws { _ = encoder.singleValueContainer() }
    }

    class Base: Codable {
        var x: Int
        init(x: Int) { self.x = x }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(x)
        }
        required init(from decoder: any Decoder) throws { x = try decoder.singleValueContainer().decode(Int.self) }
    }

    final class Derived: Base {
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var c = encoder.singleValueContainer()
            try c.encode(x + 1)
        }
    }

    @Test(arguments: formats)
    func singleValueContainerRules(_ format: BinaryFormat) throws {
        let e = Self.encoder(format)
        let error = #expect(throws: EncodingError.self) { try e.encode(EncodesNothing()) }
        guard case .invalidValue = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(throws: EncodingError.self) { try e.encode(["a": EncodesNothing()]) }
        // Encoded twice: the last value is kept.
        #expect(spacedHex(try e.encode(Derived(x: 1))) == (format == .v3 ? "00 04" : "04"))
    }

    // MARK: 7. Integer keys

    struct IntKeyed: Codable, Equatable {
        var v: Int
        struct Key: CodingKey {
            var intValue: Int?
            var stringValue: String { "\(intValue ?? 0)" }
            init(_ i: Int) { intValue = i }
            init?(intValue: Int) { self.intValue = intValue }
            init?(stringValue: String) { nil }
        }
        let key: Int
        init(key: Int, v: Int) { (self.key, self.v) = (key, v) }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(v, forKey: Key(key))
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            let k = try #require(c.allKeys.first)
            key = try #require(k.intValue)
            v = try c.decode(Int.self, forKey: k)
        }
    }

    @Test func integerKeyRanges() throws {
        let v3 = Self.encoder(.v3)
        #expect(spacedHex(try v3.encode(IntKeyed(key: .max, v: 1))) == "fe ff ff ff ff ff ff ff ff 02 02")
        #expect(
            try Self.decoder(.v3).decode(IntKeyed.self, from: bytes("fe ff ff ff ff ff ff ff ff 02 02"))
                == IntKeyed(key: .max, v: 1))
        let negative = #expect(throws: EncodingError.self) { try v3.encode(IntKeyed(key: -1, v: 1)) }
        if case .invalidValue(_, let context) = negative {
            #expect(context.codingPath.map(\.intValue) == [-1])
        }
        let v2 = Self.encoder(.v2)
        // -1: its 64-bit pattern shifted by 4, wire type 0 (varint), in a 9-byte varint.
        #expect(spacedHex(try v2.encode(["-1": 8])) == "f0 ff ff ff ff ff ff ff ff 10")
        #expect(
            try Self.decoder(.v2).decode([String: Int].self, from: bytes("f0 ff ff ff ff ff ff ff ff 10")) == ["-1": 8])
        for key in [-(1 << 59), -1, 0, 1, (1 << 59) - 1] {
            let data = try v2.encode(IntKeyed(key: key, v: 3))
            #expect(try Self.decoder(.v2).decode(IntKeyed.self, from: data) == IntKeyed(key: key, v: 3), "key \(key)")
        }
        for key in [-(1 << 59) - 1, 1 << 59] {
            let error = #expect(throws: EncodingError.self) { try v2.encode(["x": IntKeyed(key: key, v: 3)]) }
            if case .invalidValue(_, let context) = error {
                #expect(context.codingPath.map(\.stringValue) == ["x", "\(key)"], "key \(key)")
            }
        }
    }

    // MARK: 8. Error context

    struct Arr: Codable, Equatable { var arr: [Bool] }
    struct Box: Codable, Equatable { var val: Arr }

    @Test(arguments: formats)
    func truncatedFieldNamesTheField(_ format: BinaryFormat) throws {
        let data = try Self.encoder(format).encode(Box(val: Arr(arr: [true, true, false])))
        let error = #expect(throws: DecodingError.self) {
            try Self.decoder(format).decode(Box.self, from: data.dropLast())
        }
        #expect(error?.pathStrings == ["val"], "\(String(describing: error))")
    }
}
