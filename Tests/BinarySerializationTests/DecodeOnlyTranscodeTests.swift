import BinarySerialization
import Foundation
import Testing

/// The transcode of a type that only decodes writes what the type read (`decodeTree`) in the
/// target format, whatever order it reads in: fields in stored order, the v3 fields it does not
/// read kept. For a type that reads every field, in every format pair, sorted or not, those are
/// the bytes of encoding the value in the target format.
@Suite struct DecodeOnlyTranscodeTests {
    struct Point: Codable, Equatable {
        var x: Int32
        var y: Int32
    }
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var note: String?
        var tags: [Int]
        var position: Point
        var children: [Point]
        var lookup: [String: Int]
    }

    static let records = (0..<20).map { i in
        Record(
            id: i * 31 - 200, name: "r\(i)", note: i % 3 == 0 ? nil : "note \(i)", tags: Array(0..<(i % 4)),
            position: Point(x: Int32(i), y: -Int32(i)), children: (0..<(i % 3)).map { Point(x: Int32($0), y: 7) },
            lookup: i % 2 == 0 ? [:] : ["a": i, "b": -i])
    }

    /// Every format pair, with the target's keys sorted or not.
    static func transcoders(sorted: Bool) -> [(BinaryTranscoder, BinaryFormat)] {
        [(BinaryFormat.v2, BinaryFormat.v3), (.v3, .v2), (.v2, .v2), (.v3, .v3)].map { source, target in
            var t = BinaryTranscoder(from: source, to: target)
            t.encoder.sortKeysDuringEncoding = sorted
            return (t, source)
        }
    }

    @Test(arguments: [false, true])
    func typesThatReadEveryFieldGiveTheValuesBytes(sorted: Bool) throws {
        for (t, source) in Self.transcoders(sorted: sorted) {
            let input = try BinaryEncoder(format: source).encode(Self.records)
            let output = try t.transcode([DecodeOnly<Record>].self, from: input)
            #expect(output == (try t.encoder.encode(Self.records)), "\(source) -> \(t.encoder.format)")
            #expect(try BinaryDecoder(format: t.encoder.format).decode([Record].self, from: output) == Self.records)
        }
    }

    /// Reads its fields in the reverse of the stored order.
    struct Reversed: Codable, Equatable {
        var a: Int
        var b: String
        var c: [Int]
        enum CodingKeys: String, CodingKey { case a, b, c }
    }

    /// Reads a field twice, the second time after a later field.
    struct ReadTwice: Codable, Equatable {
        var a: Int
        var b: Int
        enum CodingKeys: String, CodingKey { case a, b }
    }

    /// Keeps a nested container and reads it after a later field of its parent.
    struct ReadsNestedLate: Codable, Equatable {
        var inner: Point
        var after: Int
        enum CodingKeys: String, CodingKey { case inner, after }
        /// `Point`'s keys.
        enum InnerKeys: String, CodingKey { case x, y }
    }

    @Test(arguments: [false, true])
    func typesThatReadOutOfOrderGiveTheFieldsInStoredOrder(sorted: Bool) throws {
        for (t, source) in Self.transcoders(sorted: sorted) {
            let encoder = BinaryEncoder(format: source)
            let reversed = Reversed(a: -3, b: "bee", c: [1, 2])
            #expect(
                try t.transcode(DecodeOnly<Reversed>.self, from: encoder.encode(reversed))
                    == t.encoder.encode(reversed), "\(source)")
            let twice = ReadTwice(a: 5, b: 6)
            #expect(
                try t.transcode(DecodeOnly<ReadTwice>.self, from: encoder.encode(twice)) == t.encoder.encode(twice),
                "\(source)")
            let late = ReadsNestedLate(inner: Point(x: 1, y: 2), after: 9)
            #expect(
                try t.transcode(DecodeOnly<ReadsNestedLate>.self, from: encoder.encode(late))
                    == t.encoder.encode(late), "\(source)")
        }
    }

    /// Reads only some of the stored fields (the others are kept from v3, dropped from v2), and
    /// tests one for nil without decoding it, before reading a later one (or, `last`, as its
    /// last request).
    struct Partial: Decodable {
        var second: Int
        var fourth: [Int]?
        enum CodingKeys: String, CodingKey { case first, second, third, fourth }
        static let last = CodingUserInfoKey(rawValue: "last")!
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            second = try container.decode(Int.self, forKey: .second)
            _ = try container.decodeNil(forKey: .third)
            if decoder.userInfo[Self.last] == nil { fourth = try container.decode([Int].self, forKey: .fourth) }
        }
    }
    struct Head: Encodable {
        var first = "one"
        var second = 2
    }
    struct Tail: Encodable {
        var fourth = [4, 4]
    }
    /// What a type that read `second` and `fourth` from v2 holds.
    struct Read: Encodable {
        var second = 2
        var fourth: [Int]?
    }
    /// `first`, `second` and `fourth`, sorted: `third` comes after them.
    struct Stored: Encodable {
        var first = "one"
        var second = 2
        var fourth = [4, 4]
    }

    /// An explicit v3 nil for `third`, as BinaryCodable 4 writes `encode(nil, forKey:)`: key,
    /// then the nil marker.
    static let thirdNil = Data([0x0b] + Array("third".utf8) + [0x01])

    /// `first`, `second`, `third` and `fourth` in stored order; `third` an explicit nil in v3,
    /// absent in v2 (which cannot store one).
    static func full(_ format: BinaryFormat) throws -> Data {
        let encoder = BinaryEncoder(format: format)
        return try encoder.encode(Head()) + (format == .v3 ? thirdNil : Data()) + encoder.encode(Tail())
    }

    @Test(arguments: [false, true], [false, true])
    func fieldsNotReadAndNilTestsAreKeptWhereTheSourceHoldsThem(nilTestIsLast: Bool, sorted: Bool) throws {
        for source in [BinaryFormat.v3, .v2] {
            var t = BinaryTranscoder(from: source, to: .v3)
            t.encoder.sortKeysDuringEncoding = sorted
            if nilTestIsLast { t.decoder.userInfo[Partial.last] = true }
            let input = try Self.full(source)
            let output = try t.transcode(Partial.self, from: input)
            switch (source, sorted) {
            case (.v3, false):
                // Every field, the explicit nil the type tested among them.
                #expect(output == input)
            case (.v3, true):
                #expect(output == (try t.encoder.encode(Stored())) + Self.thirdNil)
            default:
                // v2 keeps no field the type did not read, and no nil.
                #expect(output == (try t.encoder.encode(Read(fourth: nilTestIsLast ? nil : [4, 4]))), "\(source)")
            }
        }
    }

    enum Color: String, Codable { case red, green }
    /// Single-value containers and optionals holding leaves.
    struct Wrapped: Codable, Equatable {
        var color: Color
        var colors: [Color]
        var maybe: [Int?]
    }

    @Test(arguments: [false, true])
    func wrappersAndOptionalsGiveTheValuesBytes(sorted: Bool) throws {
        for (t, source) in Self.transcoders(sorted: sorted) {
            var encoder = BinaryEncoder(format: source)
            encoder.prependNilIndexSetForUnkeyedContainers = true
            var transcoder = t
            transcoder.decoder.prependNilIndexSetForUnkeyedContainers = true
            transcoder.encoder.prependNilIndexSetForUnkeyedContainers = true
            let wrapped = Wrapped(color: .green, colors: [.red, .green], maybe: [1, nil, 3])
            #expect(
                try transcoder.transcode(DecodeOnly<Wrapped>.self, from: encoder.encode(wrapped))
                    == transcoder.encoder.encode(wrapped), "\(source)")

            let points: [Point?] = [Point(x: 1, y: 2), nil]
            #expect(
                try transcoder.transcode([DecodeOnly<Point>?].self, from: encoder.encode(points))
                    == transcoder.encoder.encode(points), "\(source)")
        }
    }

    /// An array of strings read in one piece, in every place it can stand (the root, a field, an
    /// element, a wrapper's content, an optional).
    struct Names: Codable, Equatable {
        var names: [String]
        init(_ names: [String]) { self.names = names }
        init(from decoder: any Decoder) throws { names = try decoder.singleValueContainer().decode([String].self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(names)
        }
    }
    struct Strings: Codable, Equatable {
        var plain: [String]
        var empty: [String]
        var nested: [[String]]
        var wrapped: Names
        var maybe: [String]?
        var absent: [String]?
    }

    @Test(arguments: [false, true])
    func arraysOfStringsGiveTheValuesBytes(sorted: Bool) throws {
        let value = Strings(
            plain: ["a", "", "é\u{301}", String(repeating: "long ", count: 40)], empty: [],
            nested: [["x"], [], ["y", "z"]],
            wrapped: Names(["w", "ww"]), maybe: ["m"], absent: nil)
        for (t, source) in Self.transcoders(sorted: sorted) {
            let input = try BinaryEncoder(format: source).encode(value)
            #expect(try t.transcode(DecodeOnly<Strings>.self, from: input) == t.encoder.encode(value), "\(source)")
            let root = try BinaryEncoder(format: source).encode(value.wrapped)
            #expect(try t.transcode(DecodeOnly<Names>.self, from: root) == t.encoder.encode(value.wrapped), "\(source)")
        }
    }

    /// Reads `a` and `b`. In between, when asked (`inner`), it transcodes another value that only
    /// decodes: that transcode records on its own. When asked (`keeper`), it keeps its decoder
    /// past `init(from:)`: the decoder then reports its run as over rather than reading the next
    /// run's input.
    struct ReadsAB: Decodable {
        static let inner = CodingUserInfoKey(rawValue: "inner")!
        static let keeper = CodingUserInfoKey(rawValue: "keeper")!
        final class Keeper: @unchecked Sendable {
            var decoder: (any Decoder)?
        }
        var a: Int
        var innerBytes: Data?
        var b: String
        enum CodingKeys: String, CodingKey { case a, b }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            a = try container.decode(Int.self, forKey: .a)
            if let (transcoder, input) = decoder.userInfo[Self.inner] as? (BinaryTranscoder, Data) {
                innerBytes = try transcoder.transcode([DecodeOnly<Record>].self, from: input)
            }
            b = try container.decode(String.self, forKey: .b)
            (decoder.userInfo[Self.keeper] as? Keeper)?.decoder = decoder
        }
    }
    struct AB: Encodable {
        var a = -7
        var b = "bee"
    }

    @Test func aTranscodeInsideInitFromRecordsOnItsOwn() throws {
        for (t, source) in Self.transcoders(sorted: false) {
            let target = t.encoder.format
            let innerInput = try BinaryEncoder(format: source).encode(Self.records)
            var outer = t
            outer.decoder.userInfo[ReadsAB.inner] = (t, innerInput)
            let input = try BinaryEncoder(format: source).encode(AB())
            #expect(try outer.transcode(ReadsAB.self, from: input) == t.encoder.encode(AB()), "\(source)")
            let value = try outer.decoder.decode(ReadsAB.self, from: input)
            #expect(
                try BinaryDecoder(format: target).decode([Record].self, from: value.innerBytes ?? Data())
                    == Self.records, "\(source)")
            // And the thread serves the next transcodes as before.
            let again = try t.transcode([DecodeOnly<Record>].self, from: innerInput)
            #expect(try BinaryDecoder(format: target).decode([Record].self, from: again) == Self.records, "\(source)")
        }
    }

    @Test func aDecoderKeptPastItsRunIsNotReused() throws {
        for (t, source) in Self.transcoders(sorted: false) {
            let keeper = ReadsAB.Keeper()
            // The kept decoder holds its options, which hold the keeper: let go of it at the end.
            defer { keeper.decoder = nil }
            var keeping = t
            keeping.decoder.userInfo[ReadsAB.keeper] = keeper
            let first = try BinaryEncoder(format: source).encode(AB(a: 1, b: "one"))
            let second = try BinaryEncoder(format: source).encode(AB(a: 2, b: "two"))
            let firstBytes = try keeping.transcode(ReadsAB.self, from: first)
            let kept = try #require(keeper.decoder)
            let secondBytes = try t.transcode(ReadsAB.self, from: second)
            #expect(firstBytes == (try t.encoder.encode(AB(a: 1, b: "one"))), "\(source)")
            #expect(secondBytes == (try t.encoder.encode(AB(a: 2, b: "two"))), "\(source)")
            #expect(throws: DecodingError.self) {
                _ = try kept.container(keyedBy: ReadsAB.CodingKeys.self).decode(Int.self, forKey: .a)
            }
        }
    }

    /// More fields than a container searches one by one (an index over the stored keys), read in
    /// stored order or (`reversed`) not.
    struct Wide: Codable, Equatable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        static let reversed = CodingUserInfoKey(rawValue: "reversed")!
        var values: [Int]
        init(values: [Int]) { self.values = values }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            var order = Array(0..<40)
            if decoder.userInfo[Self.reversed] != nil { order.reverse() }
            var values = Array(repeating: 0, count: 40)
            for i in order { values[i] = try container.decode(Int.self, forKey: Key(stringValue: "field\(i)")) }
            self.values = values
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (i, value) in values.enumerated() { try container.encode(value, forKey: Key(stringValue: "field\(i)")) }
        }
    }

    @Test(arguments: [false, true], [false, true])
    func wideContainersGiveTheValuesBytes(reversed: Bool, sorted: Bool) throws {
        let value = [Wide(values: Array(100..<140))]
        for (t, source) in Self.transcoders(sorted: sorted) {
            var transcoder = t
            if reversed { transcoder.decoder.userInfo[Wide.reversed] = true }
            let input = try BinaryEncoder(format: source).encode(value)
            #expect(
                try transcoder.transcode([DecodeOnly<Wide>].self, from: input) == t.encoder.encode(value), "\(source)")
        }
    }

    @Test func invalidInputIsReported() throws {
        for (t, source) in Self.transcoders(sorted: false) {
            var input = try BinaryEncoder(format: source).encode(Self.records)
            input.removeLast(3)
            #expect(throws: DecodingError.self, "\(source)") { try t.transcode([DecodeOnly<Record>].self, from: input) }
        }
    }
}

// In extensions, so that the types keep their memberwise initializers.
extension DecodeOnlyTranscodeTests.Reversed {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        c = try container.decode([Int].self, forKey: .c)
        b = try container.decode(String.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }
}

extension DecodeOnlyTranscodeTests.ReadTwice {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(Int.self, forKey: .a)
        b = try container.decode(Int.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }
}

extension DecodeOnlyTranscodeTests.ReadsNestedLate {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let nested = try container.nestedContainer(
            keyedBy: InnerKeys.self, forKey: .inner)
        after = try container.decode(Int.self, forKey: .after)
        inner = DecodeOnlyTranscodeTests.Point(
            x: try nested.decode(Int32.self, forKey: .x), y: try nested.decode(Int32.self, forKey: .y))
    }
}
