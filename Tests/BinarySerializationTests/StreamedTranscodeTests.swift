import BinarySerialization
import Foundation
import Testing

/// The transcode of a type that only decodes writes the target bytes while the type reads the
/// source (`streamed`), and falls back to recording the value first where the type reads in an
/// order the stream cannot follow. Either way the bytes are those of the recording path
/// (`withRecording` + `transcoded`). (A `Codable` type is transcoded by decoding and encoding:
/// its dictionaries then come in their iteration order, so those results compare as values.)
@Suite struct StreamedTranscodeTests {
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

    /// The recording path's bytes for `type` read from `input`.
    static func recorded<T: Decodable>(_ type: T.Type, _ input: Data, _ t: BinaryTranscoder) throws -> Data? {
        try t.decoder.withRecording(T.self, from: input) { t.transcoded($0) }
    }

    static func transcoders() -> [(BinaryTranscoder, BinaryFormat)] {
        [(BinaryTranscoder(from: .v2, to: .v3), .v2), (BinaryTranscoder(from: .v3, to: .v2), .v3)]
    }

    @Test func typesThatReadInStoredOrderAreStreamed() throws {
        for (t, source) in Self.transcoders() {
            let input = try BinaryEncoder(format: source).encode(Self.records)
            let streamed = try #require(t.streamed([Record].self, from: input), "\(source)")
            #expect(streamed == (try Self.recorded([Record].self, input, t)))
            let target: BinaryFormat = source == .v2 ? .v3 : .v2
            #expect(
                try BinaryDecoder(format: target).decode([Record].self, from: t.transcode([Record].self, from: input))
                    == Self.records)
            #expect(try BinaryDecoder(format: target).decode([Record].self, from: streamed) == Self.records)
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

    @Test func typesThatReadOutOfOrderFallBackToTheRecording() throws {
        for (t, source) in Self.transcoders() {
            let encoder = BinaryEncoder(format: source)
            let reversed = try encoder.encode(Reversed(a: -3, b: "bee", c: [1, 2]))
            #expect(t.streamed(Reversed.self, from: reversed) == nil, "\(source)")
            #expect(try t.transcode(Reversed.self, from: reversed) == (try Self.recorded(Reversed.self, reversed, t)))

            let twice = try encoder.encode(ReadTwice(a: 5, b: 6))
            #expect(t.streamed(ReadTwice.self, from: twice) == nil, "\(source)")
            #expect(try t.transcode(ReadTwice.self, from: twice) == (try Self.recorded(ReadTwice.self, twice, t)))

            let late = try encoder.encode(ReadsNestedLate(inner: Point(x: 1, y: 2), after: 9))
            #expect(t.streamed(ReadsNestedLate.self, from: late) == nil, "\(source)")
            #expect(
                try t.transcode(ReadsNestedLate.self, from: late) == (try Self.recorded(ReadsNestedLate.self, late, t)))
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

    /// `first`, `second`, `third` and `fourth` in stored order; `third` an explicit nil in v3
    /// (as BinaryCodable 4 writes `encode(nil, forKey:)`: key, then the nil marker), absent in v2
    /// (which cannot store one).
    static func full(_ format: BinaryFormat) throws -> Data {
        let encoder = BinaryEncoder(format: format)
        let third = format == .v3 ? Data([0x0b] + Array("third".utf8) + [0x01]) : Data()
        return try encoder.encode(Head()) + third + encoder.encode(Tail())
    }

    @Test(arguments: [false, true])
    func fieldsNotReadAndNilTestsAreSentAsTheRecordingSendsThem(nilTestIsLast: Bool) throws {
        for source in [BinaryFormat.v3, .v2] {
            var t = BinaryTranscoder(from: source, to: .v3)
            if nilTestIsLast { t.decoder.userInfo[Partial.last] = true }
            let input = try Self.full(source)
            let streamed = try #require(t.streamed(Partial.self, from: input), "\(source)")
            let recorded = try #require(try Self.recorded(Partial.self, input, t))
            #expect(streamed == recorded, "\(source)")
            // The explicit nil the type tested is kept (v3 writes it; v2 could not store it).
            if source == .v3 { #expect(streamed == input) }
        }
    }

    enum Color: String, Codable { case red, green }
    /// Single-value containers and optionals holding leaves are streamed; an optional holding a
    /// struct falls back to the recording.
    struct Wrapped: Codable, Equatable {
        var color: Color
        var colors: [Color]
        var maybe: [Int?]
    }

    @Test func wrappersOfLeavesAreStreamedWrappersOfContainersFallBack() throws {
        for (t, source) in Self.transcoders() {
            var encoder = BinaryEncoder(format: source)
            encoder.prependNilIndexSetForUnkeyedContainers = true
            var transcoder = t
            transcoder.decoder.prependNilIndexSetForUnkeyedContainers = true
            transcoder.encoder.prependNilIndexSetForUnkeyedContainers = true
            let wrapped = Wrapped(color: .green, colors: [.red, .green], maybe: [1, nil, 3])
            let input = try encoder.encode(wrapped)
            let streamed = try #require(transcoder.streamed(Wrapped.self, from: input), "\(source)")
            #expect(streamed == (try Self.recorded(Wrapped.self, input, transcoder)), "\(source)")

            let points: [Point?] = [Point(x: 1, y: 2), nil]
            let pointsInput = try encoder.encode(points)
            #expect(transcoder.streamed([Point?].self, from: pointsInput) == nil, "\(source)")
            #expect(
                try transcoder.transcode([Point?].self, from: pointsInput)
                    == (try Self.recorded([Point?].self, pointsInput, transcoder)))
        }
    }

    /// An array of strings read in one piece: the stream sends it element by element, in every
    /// place it can stand (the root, a field, an element, a wrapper's content, an optional).
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

    @Test func arraysOfStringsAreStreamedElementByElement() throws {
        let value = Strings(
            plain: ["a", "", "é\u{301}", String(repeating: "long ", count: 40)], empty: [],
            nested: [["x"], [], ["y", "z"]],
            wrapped: Names(["w", "ww"]), maybe: ["m"], absent: nil)
        for (t, source) in Self.transcoders() {
            let target: BinaryFormat = source == .v2 ? .v3 : .v2
            let input = try BinaryEncoder(format: source).encode(value)
            let streamed = try #require(t.streamed(Strings.self, from: input), "\(source)")
            #expect(streamed == (try Self.recorded(Strings.self, input, t)), "\(source)")
            #expect(streamed == (try BinaryEncoder(format: target).encode(value)), "\(source)")

            let root = try BinaryEncoder(format: source).encode(value.plain)
            let rootStreamed = try #require(t.streamed([String].self, from: root), "\(source)")
            #expect(rootStreamed == (try BinaryEncoder(format: target).encode(value.plain)), "\(source)")
        }
    }

    /// Reads `a` and `b`. In between, when asked (`inner`), it transcodes another value: that
    /// transcode must not take the stream this one writes with (a thread keeps its streams for
    /// the next run). When asked (`keeper`), it keeps its decoder past `init(from:)`: the
    /// recording that decoder reads through is then not reused, and the decoder reports its run
    /// as over rather than reading the next run's input.
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
                innerBytes = try transcoder.transcode([Record].self, from: input)
            }
            b = try container.decode(String.self, forKey: .b)
            (decoder.userInfo[Self.keeper] as? Keeper)?.decoder = decoder
        }
    }
    struct AB: Encodable {
        var a = -7
        var b = "bee"
    }

    @Test func aTranscodeInsideInitFromStreamsOnItsOwn() throws {
        for (t, source) in Self.transcoders() {
            let target: BinaryFormat = source == .v2 ? .v3 : .v2
            let innerInput = try BinaryEncoder(format: source).encode(Self.records)
            var outer = t
            outer.decoder.userInfo[ReadsAB.inner] = (t, innerInput)
            let input = try BinaryEncoder(format: source).encode(AB())
            let streamed = try #require(outer.streamed(ReadsAB.self, from: input), "\(source)")
            #expect(streamed == (try BinaryEncoder(format: target).encode(AB())), "\(source)")
            let value = try outer.decoder.decode(ReadsAB.self, from: input)
            #expect(
                try BinaryDecoder(format: target).decode([Record].self, from: value.innerBytes ?? Data())
                    == Self.records, "\(source)")
            // And the thread's streams serve the next transcodes as before.
            let again = try t.transcode([Record].self, from: innerInput)
            #expect(try BinaryDecoder(format: target).decode([Record].self, from: again) == Self.records, "\(source)")
            #expect(try outer.transcode(ReadsAB.self, from: input) == streamed, "\(source)")
        }
    }

    @Test func aDecoderKeptPastItsRunIsNotReused() throws {
        for (t, source) in Self.transcoders() {
            let target: BinaryFormat = source == .v2 ? .v3 : .v2
            let keeper = ReadsAB.Keeper()
            // The kept decoder holds its options, which hold the keeper: let go of it at the end.
            defer { keeper.decoder = nil }
            var keeping = t
            keeping.decoder.userInfo[ReadsAB.keeper] = keeper
            let first = try BinaryEncoder(format: source).encode(AB(a: 1, b: "one"))
            let second = try BinaryEncoder(format: source).encode(AB(a: 2, b: "two"))
            let firstBytes = try #require(keeping.streamed(ReadsAB.self, from: first), "\(source)")
            let kept = try #require(keeper.decoder)
            let secondBytes = try #require(t.streamed(ReadsAB.self, from: second), "\(source)")
            #expect(firstBytes == (try BinaryEncoder(format: target).encode(AB(a: 1, b: "one"))), "\(source)")
            #expect(secondBytes == (try BinaryEncoder(format: target).encode(AB(a: 2, b: "two"))), "\(source)")
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

    @Test(arguments: [false, true])
    func wideContainersStreamInOrder(reversed: Bool) throws {
        for (t, source) in Self.transcoders() {
            var transcoder = t
            if reversed { transcoder.decoder.userInfo[Wide.reversed] = true }
            let input = try BinaryEncoder(format: source).encode([Wide(values: Array(100..<140))])
            let recorded = try Self.recorded([Wide].self, input, transcoder)
            if reversed {
                #expect(transcoder.streamed([Wide].self, from: input) == nil, "\(source)")
            } else {
                #expect(transcoder.streamed([Wide].self, from: input) == recorded, "\(source)")
            }
            #expect(try transcoder.transcode([Wide].self, from: input) == recorded, "\(source)")
        }
    }

    @Test func invalidInputIsReportedByTheRecordingPath() throws {
        var input = try BinaryEncoder(format: .v2).encode(Self.records)
        input.removeLast(3)
        let t = BinaryTranscoder(from: .v2, to: .v3)
        #expect(t.streamed([Record].self, from: input) == nil)
        #expect(throws: DecodingError.self) { try t.transcode([Record].self, from: input) }
    }
}

// In extensions, so that the types keep their memberwise initializers.
extension StreamedTranscodeTests.Reversed {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        c = try container.decode([Int].self, forKey: .c)
        b = try container.decode(String.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }
}

extension StreamedTranscodeTests.ReadTwice {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(Int.self, forKey: .a)
        b = try container.decode(Int.self, forKey: .b)
        a = try container.decode(Int.self, forKey: .a)
    }
}

extension StreamedTranscodeTests.ReadsNestedLate {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let nested = try container.nestedContainer(
            keyedBy: InnerKeys.self, forKey: .inner)
        after = try container.decode(Int.self, forKey: .after)
        inner = StreamedTranscodeTests.Point(
            x: try nested.decode(Int32.self, forKey: .x), y: try nested.decode(Int32.self, forKey: .y))
    }
}
