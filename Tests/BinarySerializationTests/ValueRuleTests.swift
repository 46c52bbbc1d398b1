import BinarySerialization
import Foundation
import Testing

/// Shapes whose `encode(to:)` writes a nil where a value is present, or a nil the other format
/// has no word for: each rule over several shapes, with the reference's bytes where known, on
/// every path (`roundTripFailures`: bytes, slices, trees, `decodeTree`, streams, transcoding both
/// ways) in v3, v2 and v2 with nil index sets.
@Suite struct ValueRuleTests {
    /// A JSON-like value: `.null` is a single-value container's `encodeNil()`.
    enum JSONValue: Codable, Equatable {
        case null
        case number(Int)

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            self = c.decodeNil() ? .null : .number(try c.decode(Int.self))
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .null: try c.encodeNil()
            case .number(let n): try c.encode(n)
            }
        }
    }

    /// The same idea over a `String`.
    struct NullableText: Codable, Equatable {
        var text: String?
        init(_ text: String?) { self.text = text }
        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            text = c.decodeNil() ? nil : try c.decode(String.self)
        }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            if let text { try c.encode(text) } else { try c.encodeNil() }
        }
    }

    struct Record: Codable, Equatable {
        var id: Int
        var extra: JSONValue?
    }

    enum Payload: Codable, Equatable {
        case x(NullableText?)
        case y(JSONValue?, JSONValue)
    }

    struct Nested: Codable, Equatable {
        var records: [Record]
        var byName: [String: JSONValue?]
        var payload: Payload?
        var plain: JSONValue
    }

    struct Pair<A: Codable & Equatable, B: Codable & Equatable>: Codable, Equatable {
        var first: A
        var second: B
    }

    enum Cell<T: Codable & Equatable>: Codable, Equatable {
        case value(T)
        case two(T, T)
    }

    static let setups: [RoundTripSetup] = [
        RoundTripSetup(format: .v3), RoundTripSetup(format: .v2), RoundTripSetup(format: .v2, nilIndexSets: true),
    ]

    /// Every path of `value` in every setup, and its sorted bytes where given.
    static func everyPath<T: Codable & Equatable>(
        _ value: T, v3 v3Hex: String? = nil, v2 v2Hex: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if let v3Hex {
            #expect(
                spacedHex(try v3Encoder().encode(value)) == spacedHex(bytes(v3Hex)), "v3 bytes",
                sourceLocation: sourceLocation)
            #expect(
                try BinaryDecoder().decode(T.self, from: Data(bytes(v3Hex))) == value, "v3 decode",
                sourceLocation: sourceLocation)
        }
        if let v2Hex {
            var e = BinaryEncoder(format: .v2)
            e.sortKeysDuringEncoding = true
            #expect(
                spacedHex(try e.encode(value)) == spacedHex(bytes(v2Hex)), "v2 bytes", sourceLocation: sourceLocation)
            #expect(
                try BinaryDecoder(format: .v2).decode(T.self, from: Data(bytes(v2Hex))) == value, "v2 decode",
                sourceLocation: sourceLocation)
        }
        for setup in setups {
            let failures = roundTripFailures(value, setup)
            #expect(
                failures.isEmpty, "\(setup.format) nil index sets \(setup.nilIndexSets): \(failures)",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: A present key hands its nil to the type

    @Test func aPresentNilUnderAKeyIsTheTypesOwnValue() throws {
        // Both libraries write this; BinaryCodable 4.0.0 reads `.null` back.
        try Self.everyPath(
            Record(id: 1, extra: .null), v3: "0b 65 78 74 72 61 01  05 69 64 02 02",
            v2: "5a 65 78 74 72 61 01 00  28 69 64 02")
        try Self.everyPath(Record(id: 2, extra: nil), v3: "05 69 64 02 04", v2: "28 69 64 04")
        try Self.everyPath(Record(id: 3, extra: .number(5)))
        try Self.everyPath(Payload.x(.some(NullableText(nil))), v3: "03 78 08 05 5f 30 01")
        try Self.everyPath(Payload.x(nil))
        try Self.everyPath(Payload.x(NullableText("t")))
        try Self.everyPath(Payload.y(.null, .null))
        try Self.everyPath(Payload.y(nil, .number(1)))
        try Self.everyPath(
            Nested(
                records: [Record(id: 1, extra: .null), Record(id: 2, extra: nil)],
                byName: ["a": .null, "c": .number(2)], payload: .y(.null, .null), plain: .null))
        try Self.everyPath(Nested(records: [], byName: [:], payload: nil, plain: .number(-1)))
        try Self.everyPath([Record(id: 4, extra: .null)])
        try Self.everyPath(Optional(Record(id: 5, extra: .null)))
    }

    @Test func aPresentNilReadsAsTheValueThroughEveryDecoder() throws {
        let v3 = Data(bytes("0b 65 78 74 72 61 01  05 69 64 02 02"))
        let value = Record(id: 1, extra: .null)
        #expect(try BinaryDecoder().decode(Record.self, from: v3) == value)
        #expect(
            try BinaryDecoder().decode(Record.self, fromTree: BinaryDecoder().decodeTree(Record.self, from: v3))
                == value)
        #expect(try BinaryDecoder().decodeTree(Record.self, from: v3) == v3Encoder().encodeTree(value))
        let stream = BinaryStreamDecoder<Record>()
        stream.add(Data([UInt8(v3.count << 1)]) + v3)
        #expect(try stream.decodeElements() == [value])
        // v3 -> v2 keeps the field, as encoding the value in v2 does.
        var toV2 = BinaryTranscoder(from: .v3, to: .v2)
        toV2.encoder.sortKeysDuringEncoding = true
        #expect(spacedHex(try toV2.transcode(Record.self, from: v3)) == "5a 65 78 74 72 61 01 00 28 69 64 02")
    }

    struct Later: Codable, Equatable {
        var first: Record?
        var second: Int
        var third: Int?
    }

    /// A nil element under a key of a type that has no nil of its own: a struct's `init(from:)`
    /// finds no container (an error, as BinaryCodable's), a primitive reads it as absent.
    @Test func aPresentNilForATypeWithoutANil() throws {
        // "first": nil, "second": 1, "third": nil (a generic type's `encode(nil, forKey:)`).
        let v3 = Data(bytes("0b 66 69 72 73 74 01  0d 73 65 63 6f 6e 64 02 02  0b 74 68 69 72 64 01"))
        for decode in [
            { try BinaryDecoder().decode(Later.self, from: v3) },
            { try BinaryDecoder().decode(Later.self, fromTree: BinaryDecoder().decodeTree(Later.self, from: v3)) },
        ] {
            #expect(throws: DecodingError.self) { try decode() }
        }
        struct Primitives: Codable, Equatable {
            var first: Int?
            var second: Int
            var third: Int?
        }
        #expect(try BinaryDecoder().decode(Primitives.self, from: v3) == Primitives(first: nil, second: 1, third: nil))
    }

    // MARK: Migration writes what BinaryCodable 4 reads

    @Test func v2ToV3WritesWhatEncodingTheValueWrites() throws {
        // Generic fields and enum payloads are written with `encode(_:forKey:)`: v3 keeps an explicit nil.
        try Self.everyPath(
            Pair<Int?, Int>(first: nil, second: 1), v3: "0b 66 69 72 73 74 01  0d 73 65 63 6f 6e 64 02 02",
            v2: "68 73 65 63 6f 6e 64 02")
        try Self.everyPath(
            Cell<String?>.value(nil), v3: "0b 76 61 6c 75 65 08 05 5f 30 01", v2: "5a 76 61 6c 75 65 00")
        let rows: [(v2: String, v3: String, decode: (Data) throws -> Data)] = [
            (
                "68 73 65 63 6f 6e 64 02", "0b 66 69 72 73 74 01  0d 73 65 63 6f 6e 64 02 02",
                Self.migrate(Pair<Int?, Int>.self)
            ),
            ("5a 76 61 6c 75 65 00", "0b 76 61 6c 75 65 08 05 5f 30 01", Self.migrate(Cell<String?>.self)),
        ]
        for row in rows {
            #expect(spacedHex(try row.decode(Data(bytes(row.v2)))) == spacedHex(bytes(row.v3)))
        }
        try Self.everyPath(Pair<[Int]?, String>(first: nil, second: "s"))
        try Self.everyPath(Pair<Record?, JSONValue?>(first: nil, second: nil))
        try Self.everyPath(Pair<Record?, JSONValue?>(first: Record(id: 1, extra: .null), second: .null))
        try Self.everyPath(Cell<Int??>.value(.some(nil)))
        try Self.everyPath(Cell<Int?>.two(nil, 3))
        try Self.everyPath(Cell<Pair<Int?, Int?>>.value(Pair(first: nil, second: nil)))
        try Self.everyPath([Cell<String?>.value(nil), .two("a", nil)])
    }

    /// The sorted v2 → v3 transcode of `type`.
    static func migrate<T: Decodable>(_ type: T.Type) -> (Data) throws -> Data {
        { data in
            var t = BinaryTranscoder(from: .v2, to: .v3)
            t.encoder.sortKeysDuringEncoding = true
            return try t.transcode(T.self, from: data)
        }
    }

    /// A type that only decodes is transcoded from what it read (there is no `encode(to:)` to
    /// run): what `decodeTree` gives, written in the target format.
    struct ReadOnly: Decodable, Equatable {
        var a: Int
        var b: String?
    }

    @Test func aDecodeOnlyTypeTranscodesWhatItRead() throws {
        let v3 = Data(bytes("03 61 02 02  03 62 02 78"))
        let v2 = try BinaryTranscoder(from: .v3, to: .v2).transcode(ReadOnly.self, from: v3)
        #expect(spacedHex(v2) == "18 61 02 1a 62 01 78")
        #expect(try BinaryTranscoder(from: .v2, to: .v3).transcode(ReadOnly.self, from: v2) == v3)
    }

    // MARK: v2 nil index sets: a top-level Data is 2.x's unkeyed container of bytes

    static var nilIndexSetEncoder: BinaryEncoder {
        var e = BinaryEncoder(format: .v2)
        e.prependNilIndexSetForUnkeyedContainers = true
        return e
    }

    static var nilIndexSetDecoder: BinaryDecoder {
        var d = BinaryDecoder(format: .v2)
        d.prependNilIndexSetForUnkeyedContainers = true
        return d
    }

    @Test func topLevelDataStartsWithTheNilIndexSet() throws {
        let e = Self.nilIndexSetEncoder
        let d = Self.nilIndexSetDecoder
        // BinaryCodable 2.0.3's bytes.
        for (value, hex) in [(Data([1, 2]), "00 01 02"), (Data(), "00"), (Data([0]), "00 00")] {
            #expect(spacedHex(try e.encode(value)) == hex)
            #expect(spacedHex(try e.encode(tree: e.encodeTree(value))) == hex)
            #expect(try d.decode(Data.self, from: Data(bytes(hex))) == value)
            #expect(try d.decodeTree(Data.self, from: Data(bytes(hex))) == e.encodeTree(value))
            #expect(spacedHex(try e.encode(tree: d.decodeTree(Data.self, from: Data(bytes(hex))))) == hex)
            var toV3 = BinaryTranscoder(from: .v2, to: .v3)
            toV3.decoder = d
            #expect(try toV3.transcode(Data.self, from: Data(bytes(hex))) == value)
            var toV2 = BinaryTranscoder(from: .v3, to: .v2)
            toV2.encoder = e
            #expect(spacedHex(try toV2.transcode(Data.self, from: value)) == hex)
            try Self.everyPath(value)
        }
        // A nil index set that is not empty is not a Data.
        #expect(throws: DecodingError.self) { try d.decode(Data.self, from: Data(bytes("01 00 05"))) }
        // Without the option the bytes are the data itself.
        #expect(spacedHex(try BinaryEncoder(format: .v2).encode(Data([1, 2]))) == "01 02")
        #expect(try BinaryDecoder(format: .v2).decode(Data.self, from: Data([1, 2])) == Data([1, 2]))
    }

    @Test func dataStreamElementsStartWithTheNilIndexSet() throws {
        let framed = try BinaryStreamEncoder<Data>(encoder: Self.nilIndexSetEncoder).encode(contentsOf: [
            Data([7]), Data(),
        ])
        #expect(spacedHex(framed) == "02 00 07 01 00")  // BinaryCodable 2.0.3's bytes
        let stream = BinaryStreamDecoder<Data>(decoder: Self.nilIndexSetDecoder)
        for byte in bytes("02 00 07 01 00") { stream.add([byte]) }
        #expect(try stream.decodeElements() == [Data([7]), Data()])
        try stream.finish()
        let plain = try BinaryStreamEncoder<Data>(encoder: BinaryEncoder(format: .v2)).encode(contentsOf: [
            Data([7]), Data(),
        ])
        #expect(spacedHex(plain) == "01 07 00")
    }

    struct DataField: Codable, Equatable { var d: Data }

    /// A type that writes `Data` into its own single-value container: 2.x writes that as a
    /// primitive, without a nil index set.
    struct WrappedData: Codable, Equatable {
        var d: Data
        init(_ d: Data) { self.d = d }
        init(from decoder: any Decoder) throws { d = try decoder.singleValueContainer().decode(Data.self) }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(d)
        }
    }

    /// Every top-level value that 2.x writes through an unkeyed container starts with a nil index
    /// set under the option; `Data` inside a value and in a single-value container does not.
    @Test func everyTopLevelContainerUnderTheOption() throws {
        let e = Self.nilIndexSetEncoder
        let rows: [(any Codable, String)] = [
            ([UInt8]([1, 2]), "00 01 02"),
            ([Int]([1, 2]), "00 02 04"),
            (Set([Int8(3)]), "00 03"),
            ([Data([1, 2]), Data()], "00 02 01 02 00"),
            (["a"], "00 01 61"),
            ([true: 1] as [Bool: Int], "00 01 02"),
            (0..<1, "00 00 02"),
            (Optional(Data([1, 2])), "01 02 01 02"),
            (DataField(d: Data([1, 2])), "1a 64 02 01 02"),
            (WrappedData(Data([1, 2])), "01 02"),
            (Data([9]), "00 09"),
        ]
        for (value, hex) in rows {
            #expect(spacedHex(try e.encode(value)) == hex, "\(value)")
        }
        try Self.everyPath(DataField(d: Data([1, 2])))
        try Self.everyPath(WrappedData(Data([1, 2])))
        try Self.everyPath(Optional(Data([3])))
        try Self.everyPath([Data([1]), Data()])
    }
}
