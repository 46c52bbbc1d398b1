import BinarySerialization
import Foundation
import Testing

/// The rules the random differential run against BinaryCodable found broken, each checked over
/// several shapes, with the reference's bytes where they are known.
@Suite struct DifferentialRuleTests {
    struct Empty: Codable, Hashable {}

    /// A custom single-value type that writes nil with `encodeNil()`.
    struct SingleOptional: Codable, Equatable {
        var v: Int?
        init(v: Int?) { self.v = v }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            v = c.decodeNil() ? nil : try c.decode(Int.self)
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            if let v { try c.encode(v) } else { try c.encodeNil() }
        }
    }

    struct SingleNilField: Codable, Equatable { var o: SingleOptional }

    enum Assoc: Codable, Equatable {
        case dbl(Double??)
        case text(String??, Int)
        case empty(Empty?)
    }

    struct EmptyFields: Codable, Equatable {
        var a: Empty
        var b: Empty?
        var c: Empty??
        var d: [Empty]
        var e: [String: Empty]
    }

    static func encoder(_ format: BinaryFormat, sorted: Bool = true, nilIndexSets: Bool = false) -> BinaryEncoder {
        var e = BinaryEncoder(format: format)
        e.sortKeysDuringEncoding = sorted
        e.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        return e
    }

    /// Encodes, checks the bytes if given, decodes back, and checks the tree and transcoding paths.
    static func roundTrip<T: Codable & Equatable>(
        _ value: T, _ format: BinaryFormat, _ hex: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let e = encoder(format)
        let d = BinaryDecoder(format: format)
        let data = try e.encode(value)
        if let hex { #expect(spacedHex(data) == spacedHex(bytes(hex)), sourceLocation: sourceLocation) }
        #expect(try d.decode(T.self, from: data) == value, "decode", sourceLocation: sourceLocation)
        #expect(
            try d.decode(T.self, fromTree: e.encodeTree(value)) == value, "decode(fromTree:)",
            sourceLocation: sourceLocation)
        #expect(
            try e.encode(tree: d.decodeTree(T.self, from: data)) == data, "decodeTree", sourceLocation: sourceLocation)
        let other: BinaryFormat = format == .v3 ? .v2 : .v3
        var t = BinaryTranscoder(from: format, to: other)
        t.encoder.sortKeysDuringEncoding = true
        #expect(
            try t.transcode(T.self, from: data) == encoder(other).encode(value), "transcode",
            sourceLocation: sourceLocation)
    }

    // MARK: v3 1: a present nil inside T?? anywhere keyed

    @Test func doubleOptionalInEnumPayloads() throws {
        try Self.roundTrip(Assoc.dbl(.some(nil)), .v3, "07 64 62 6c 08 05 5f 30 01")
        for value: Assoc in [.dbl(nil), .dbl(2.5), .text(.some(nil), 1), .text(nil, 2), .text("a", 3)] {
            try Self.roundTrip(value, .v3)
        }
    }

    // MARK: v3 2, v2 5, 6: empty containers are values

    @Test(arguments: [BinaryFormat.v3, .v2])
    func emptyStructsInEveryPosition(_ format: BinaryFormat) throws {
        if format == .v3 {
            // "e": ["_0": Empty()]: the entry is an empty element.
            try Self.roundTrip(["sE": ["_0": Empty()]], .v3, "05 73 45 08 05 5f 30 00")
        }
        try Self.roundTrip(Optional(Empty()), format, format == .v3 ? "00" : "01 00")
        try Self.roundTrip([Empty(), Empty()], format, "00 00")
        try Self.roundTrip(
            EmptyFields(a: Empty(), b: Empty(), c: .some(.some(Empty())), d: [Empty()], e: ["x": Empty()]), format)
        try Self.roundTrip(EmptyFields(a: Empty(), b: nil, c: nil, d: [], e: [:]), format)
        try Self.roundTrip([Optional(Empty()), nil], format)
        try Self.roundTrip(Assoc.empty(Empty()), format)
    }

    // MARK: v3 4: integer-like dictionary keys that collide

    @Test(arguments: [BinaryFormat.v3, .v2])
    func collidingIntegerKeysThrow(_ format: BinaryFormat) throws {
        for dict in [["-0": 0, "0": -61], ["7": 143, "007": 0], ["+1": 1, "1": 2]] {
            let error = #expect(throws: EncodingError.self) { try Self.encoder(format).encode(dict) }
            if case .invalidValue(_, let context) = error {
                let keys = dict.keys.sorted()
                #expect(
                    context.debugDescription.contains("\"\(keys[0])\"")
                        && context.debugDescription.contains("\"\(keys[1])\""))
            }
        }
        // A string key stored as an integer comes back in its canonical form.
        let data = try Self.encoder(format).encode(["007": 1])
        #expect(try BinaryDecoder(format: format).decode([String: Int].self, from: data) == ["7": 1])
    }

    // MARK: v2 5, 14: single-value nils

    @Test func v2SingleValueNil() throws {
        let d = BinaryDecoder(format: .v2)
        try Self.roundTrip(SingleOptional(v: nil), .v2, "00")
        try Self.roundTrip(Optional(SingleOptional(v: nil)), .v2, "01 00")
        try Self.roundTrip(SingleNilField(o: SingleOptional(v: nil)), .v2, "1a 6f 01 00")
        try Self.roundTrip([SingleOptional(v: nil), SingleOptional(v: 3)], .v2, "00 06")
        try Self.roundTrip(SingleOptional(v: 4), .v2, "08")
        // 2.x data: the byte 00 of a type that asks decodeNil() is nil (v2 has no other marker).
        #expect(try d.decode(SingleOptional.self, from: bytes("00")) == SingleOptional(v: nil))
        #expect(try d.decode(SingleOptional?.self, from: bytes("01 00")) == SingleOptional(v: nil))
        // The same value in v3: a nil byte.
        try Self.roundTrip(SingleOptional(v: nil), .v3, "01")
        try Self.roundTrip(Optional(SingleOptional(v: nil)), .v3, "00 01")
        try Self.roundTrip(SingleNilField(o: SingleOptional(v: nil)), .v3)
    }

    @Test func v2SingleValueNilTranscodes() throws {
        let toV3 = BinaryTranscoder(from: .v2, to: .v3)
        #expect(spacedHex(try toV3.transcode(SingleOptional.self, from: Data(bytes("00")))) == "01")
        #expect(spacedHex(try toV3.transcode(SingleOptional?.self, from: Data(bytes("01 00")))) == "00 01")
        let field = try toV3.transcode(SingleNilField.self, from: Data(bytes("1a 6f 01 00")))
        #expect(field == (try BinaryEncoder().encode(SingleNilField(o: SingleOptional(v: nil)))))
        let toV2 = BinaryTranscoder(from: .v3, to: .v2)
        #expect(spacedHex(try toV2.transcode(SingleOptional.self, from: Data(bytes("01")))) == "00")
        #expect(spacedHex(try toV2.transcode(SingleOptional?.self, from: Data(bytes("00 01")))) == "01 00")
    }

    // MARK: v2 7: nil index sets before every unkeyed container

    @Test func v2NilIndexSetsEverywhere() throws {
        var e = Self.encoder(.v2, nilIndexSets: true)
        var d = BinaryDecoder(format: .v2)
        d.prependNilIndexSetForUnkeyedContainers = true
        let rows: [(any Codable, String)] = [
            (Optional([Int]()), "01 01 00"), ([Set<Int>()], "00 01 00"), ([Double](), "00"),
            ([Int8(1), -1], "00 01 ff"),
            ([[Int]]([[], [2]]), "00 01 00 02 00 04"),
        ]
        for (value, hex) in rows {
            #expect(spacedHex(try e.encode(value)) == spacedHex(bytes(hex)), "\(value)")
        }
        #expect(try d.decode([Int]?.self, from: bytes("01 01 00")) == [])
        #expect(try d.decode([[Int]].self, from: bytes("00 01 00 02 00 04")) == [[], [2]])
        // Without the option, 2.0.3's bytes are not silently misread as a leading 0.
        e.prependNilIndexSetForUnkeyedContainers = false
        d.prependNilIndexSetForUnkeyedContainers = false
        #expect(try d.decode([Int].self, from: bytes("02 04 06")) == [1, 2, 3])
    }

    // MARK: v2 8: T?? .some(nil) in a keyed container

    struct DoubleOptionalField: Codable, Equatable { var b: String?? }

    @Test func v2DoubleOptionalFieldIsLeftOut() throws {
        let value = DoubleOptionalField(b: .some(nil))
        #expect(try Self.encoder(.v2).encode(value).isEmpty)  // as 2.0.3
        #expect(
            try BinaryDecoder(format: .v2).decode(DoubleOptionalField.self, from: Data()) == DoubleOptionalField(b: nil)
        )
        try Self.roundTrip(DoubleOptionalField(b: .some("x")), .v2, "1a 62 03 01 01 78")
        try Self.roundTrip(value, .v3)  // v3 keeps it
    }

    // MARK: v2 9: decodeTree keeps the stored order

    @Test(arguments: [BinaryFormat.v3, .v2])
    func decodeTreeKeepsStoredOrder(_ format: BinaryFormat) throws {
        let keys = ["zeta", "-0x", "1 ", "007x", "alpha", "b"]
        var tree = BinaryValue.emptyKeyed
        for (i, k) in keys.enumerated() { tree[BinaryKey(stringValue: k)] = .int(i) }
        let unsorted = Self.encoder(format, sorted: false)
        let data = try unsorted.encode(tree: tree)
        let stored = try BinaryDecoder(format: format).decodeTree([String: Int].self, from: data)
        #expect(try unsorted.encode(tree: stored) == data)
        if case .keyed(let fields) = stored { #expect(fields.keys.map(\.stringValue) == keys) }
    }

    // MARK: v2 10: negative integer keys

    @Test func v2NegativeKeys() throws {
        let e = Self.encoder(.v2)
        #expect(spacedHex(try e.encode(["-1": 8])) == "f0 ff ff ff ff ff ff ff ff 10")
        let data = try e.encode([-5: "a", 3: "b"])
        #expect(try BinaryDecoder(format: .v2).decode([Int: String].self, from: data) == [-5: "a", 3: "b"])
        // v3 has no negative keys: transcoding says which key.
        let error = #expect(throws: EncodingError.self) {
            try BinaryTranscoder(from: .v2, to: .v3).transcode([Int: String].self, from: data)
        }
        if case .invalidValue(_, let context) = error { #expect(context.codingPath.map(\.intValue) == [-5]) }
        #expect(
            try BinaryDecoder(format: .v2).decode([Int: Int].self, from: bytes("f0 ff ff ff ff ff ff ff ff 10")) == [
                -1: 8
            ])
    }

    // MARK: Key order depends only on the keys

    @Test func sortedKeyOrderIgnoresInsertionOrder() throws {
        // Composed and decomposed accents, emoji and ASCII; no two canonically equivalent (Swift's
        // `String` and `Dictionary` treat such a pair as one key).
        let keys = [
            "e\u{301}", "\u{e9}x", "\u{e9}y\u{301}", "e", "E", "😀", "👍🏽", "a", "ab", "\u{c4}c", "A\u{308}", "z", "10",
            "2",
            "super",
        ]
        var outputs: Set<Data> = []
        var rng = SplitMix64(seed: 20_261_122)
        for _ in 0..<200 {
            var shuffled = keys
            for i in stride(from: shuffled.count - 1, to: 0, by: -1) {
                shuffled.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            }
            var tree = BinaryValue.emptyKeyed
            for (i, k) in shuffled.enumerated() { tree[BinaryKey(stringValue: k)] = .int(i) }
            for format in [BinaryFormat.v3, .v2] {
                var e = BinaryEncoder(format: format)
                e.sortKeysDuringEncoding = true
                let data = try e.encode(tree: tree)
                // String keys come out in `String` order (BinaryCodable's), integer keys by value.
                let sorted = try BinaryDecoder(format: format).decodeTree([String: Int].self, from: data)
                if case .keyed(let fields) = sorted {
                    let names = fields.keys.filter { $0.intValue == nil }.map(\.stringValue)
                    #expect(names == names.sorted())
                }
                if format == .v3 { outputs.insert(data) }
            }
        }
        // Only the values (insertion positions) differ between runs; compare keys only.
        #expect(outputs.count > 1)
        let keyOrders = Set(
            try outputs.map { data -> [String] in
                guard case .keyed(let f) = try BinaryDecoder().decodeTree([String: Int].self, from: data) else {
                    return []
                }
                return f.keys.map(\.stringValue)
            })
        #expect(keyOrders.count == 1)
        // A dictionary value encodes the same whatever its internal order.
        var dict: [String: Int] = [:]
        for (i, k) in keys.enumerated() { dict[k] = i }
        var e = BinaryEncoder()
        e.sortKeysDuringEncoding = true
        let first = try e.encode(dict)
        for _ in 0..<20 {
            var copy: [String: Int] = [:]
            for k in keys.shuffled() { copy[k] = dict[k] }
            #expect(try e.encode(copy) == first)
        }
    }
}
