import BinarySerialization
import Foundation
import Testing

// The engine's side of generated coding (`GeneratedBinaryCodable`): conformances written here as
// the `@TreeCodable` macro writes them (Macros/ tests the macro itself), each beside a twin type
// that has only its synthesized `Codable`. The bytes of both must be equal in every format, and
// each must read the other's bytes to equal values.

private struct GPoint: Codable, Equatable, GeneratedBinaryCodable {
    var x: Int32
    var y: Int32
    enum CodingKeys: Int, CodingKey { case x = 1, y }

    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.x, CodingKeys.y] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(x, at: 0)
        try fields.encode(y, at: 1)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        x = try fields.decode(Int32.self, at: 0)
        y = try fields.decode(Int32.self, at: 1)
    }
    init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }
}

private struct CPoint: Codable, Equatable {
    var x: Int32
    var y: Int32
    enum CodingKeys: Int, CodingKey { case x = 1, y }
}

/// Every kind of member: primitives, an optional primitive, an array, a nested generated type,
/// an optional nested type, a `Codable`-only member and a dictionary.
private struct GRecord: Codable, Equatable, GeneratedBinaryCodable {
    var id: Int
    var name: String
    var note: String?
    var tags: [Int]
    var position: GPoint
    var last: GPoint?
    var plain: CPoint
    var scores: [String: Double]
    enum CodingKeys: Int, CodingKey { case id = 1, name, note, tags, position, last, plain, scores }

    static var binaryCodingKeys: [any CodingKey] {
        [
            CodingKeys.id, CodingKeys.name, CodingKeys.note, CodingKeys.tags, CodingKeys.position, CodingKeys.last,
            CodingKeys.plain, CodingKeys.scores,
        ]
    }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(id, at: 0)
        try fields.encode(name, at: 1)
        try fields.encodeIfPresent(note, at: 2)
        try fields.encode(tags, at: 3)
        try fields.encode(position, at: 4)
        try fields.encodeIfPresent(last, at: 5)
        try fields.encode(plain, at: 6)
        try fields.encode(scores, at: 7)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        id = try fields.decode(Int.self, at: 0)
        name = try fields.decode(String.self, at: 1)
        note = try fields.decodeIfPresent(String.self, at: 2)
        tags = try fields.decode([Int].self, at: 3)
        position = try fields.decode(GPoint.self, at: 4)
        last = try fields.decodeIfPresent(GPoint.self, at: 5)
        plain = try fields.decode(CPoint.self, at: 6)
        scores = try fields.decode([String: Double].self, at: 7)
    }
    init(
        id: Int, name: String, note: String?, tags: [Int], position: GPoint, last: GPoint?, plain: CPoint,
        scores: [String: Double]
    ) {
        (self.id, self.name, self.note, self.tags) = (id, name, note, tags)
        (self.position, self.last, self.plain, self.scores) = (position, last, plain, scores)
    }
}

private struct CRecord: Codable, Equatable {
    var id: Int
    var name: String
    var note: String?
    var tags: [Int]
    var position: CPoint
    var last: CPoint?
    var plain: CPoint
    var scores: [String: Double]
    enum CodingKeys: Int, CodingKey { case id = 1, name, note, tags, position, last, plain, scores }
}

extension GRecord {
    var twin: CRecord {
        CRecord(
            id: id, name: name, note: note, tags: tags, position: CPoint(x: position.x, y: position.y),
            last: last.map { CPoint(x: $0.x, y: $0.y) }, plain: plain, scores: scores)
    }
}

/// String keys (synthesized, no `CodingKeys`), a generic member type and a final class.
private final class GBox<T: Codable & Equatable>: Codable, Equatable, GeneratedBinaryCodable {
    let label: String
    var items: [T]
    var extra: T?

    init(label: String, items: [T], extra: T?) {
        (self.label, self.items, self.extra) = (label, items, extra)
    }
    static func == (a: GBox, b: GBox) -> Bool { a.label == b.label && a.items == b.items && a.extra == b.extra }

    private enum CodingKeys: CodingKey { case label, items, extra }
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.label, CodingKeys.items, CodingKeys.extra] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(label, at: 0)
        try fields.encode(items, at: 1)
        try fields.encodeIfPresent(extra, at: 2)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        label = try fields.decode(String.self, at: 0)
        items = try fields.decode([T].self, at: 1)
        extra = try fields.decodeIfPresent(T.self, at: 2)
    }
}

private struct CBox<T: Codable & Equatable>: Codable, Equatable {
    let label: String
    var items: [T]
    var extra: T?
}

/// Generated code that names a field its keys lack (a hand-written conformance gone wrong).
private struct GWrongField: Codable, Equatable, GeneratedBinaryCodable {
    var a: Int
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.a] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws { try fields.encode(a, at: 1) }
    init(binaryFields fields: inout BinaryFieldReader) throws { a = try fields.decode(Int.self, at: 1) }
    init(a: Int) { self.a = a }
}

/// Generated code that writes field 0 twice, as its `encode(to:)` writes key `a` twice.
private struct GTwice: Codable, GeneratedBinaryCodable {
    var a: Int
    enum CodingKeys: Int, CodingKey { case a = 1 }
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.a] }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(a, forKey: .a)
        try container.encode(a &+ 1, forKey: .a)
    }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(a, at: 0)
        try fields.encode(a &+ 1, at: 0)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws { a = try fields.decode(Int.self, at: 0) }
    init(a: Int) { self.a = a }
}

/// An array of a generated type as a field: written through the writer's array overload.
private struct GPath: Codable, Equatable, GeneratedBinaryCodable {
    var points: [GPoint]
    var name: String
    enum CodingKeys: Int, CodingKey { case points = 1, name }
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.points, CodingKeys.name] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(points, at: 0)
        try fields.encode(name, at: 1)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        points = try fields.decode([GPoint].self, at: 0)
        name = try fields.decode(String.self, at: 1)
    }
    init(points: [GPoint], name: String) { (self.points, self.name) = (points, name) }
}

private struct CPath: Codable, Equatable {
    var points: [CPoint]
    var name: String
    enum CodingKeys: Int, CodingKey { case points = 1, name }
}

/// A key v3 has no bytes for.
private struct GNegativeKey: Codable, GeneratedBinaryCodable {
    var a: Int
    var b: String
    enum CodingKeys: Int, CodingKey { case a = 1, b = -2 }
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.a, CodingKeys.b] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(a, at: 0)
        try fields.encode(b, at: 1)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        a = try fields.decode(Int.self, at: 0)
        b = try fields.decode(String.self, at: 1)
    }
    init(a: Int, b: String) { (self.a, self.b) = (a, b) }
}

/// An optional between two fields: v3 reads it in place, or learns it is absent by looking at
/// the few entries left.
private struct GOptional: Codable, GeneratedBinaryCodable {
    var a: Int32
    var b: String?
    var c: Int32
    enum CodingKeys: Int, CodingKey { case a = 1, b, c }
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.a, CodingKeys.b, CodingKeys.c] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(a, at: 0)
        try fields.encodeIfPresent(b, at: 1)
        try fields.encode(c, at: 2)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        a = try fields.decode(Int32.self, at: 0)
        b = try fields.decodeIfPresent(String.self, at: 1)
        c = try fields.decode(Int32.self, at: 2)
    }
}

private struct COptional: Codable {
    var a: Int32
    var b: String?
    var c: Int32
    enum CodingKeys: Int, CodingKey { case a = 1, b, c }
}

/// A keyed container of whatever entries a test lists, in its order: integer keys, each an
/// `Int32` or a string.
private struct Entries: Encodable {
    enum Value { case int(Int32), string(String) }
    struct Key: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }
    var entries: [(Int, Value)]

    init(_ entries: [(Int, Value)]) { self.entries = entries }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in entries {
            switch value {
            case .int(let i): try container.encode(i, forKey: Key(intValue: key))
            case .string(let s): try container.encode(s, forKey: Key(intValue: key))
            }
        }
    }
}

private enum Coder: CaseIterable {
    case v3, v2, v2NilSets, protobuf

    func encode<T: Encodable>(_ value: T) throws -> Data {
        switch self {
        case .v3: return try BinaryEncoder().encode(value)
        case .v2: return try BinaryEncoder(format: .v2).encode(value)
        case .v2NilSets:
            var encoder = BinaryEncoder(format: .v2)
            encoder.prependNilIndexSetForUnkeyedContainers = true
            return try encoder.encode(value)
        case .protobuf: return try ProtobufEncoder().encode(value)
        }
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch self {
        case .v3: return try BinaryDecoder().decode(type, from: data)
        case .v2: return try BinaryDecoder(format: .v2).decode(type, from: data)
        case .v2NilSets:
            var decoder = BinaryDecoder(format: .v2)
            decoder.prependNilIndexSetForUnkeyedContainers = true
            return try decoder.decode(type, from: data)
        case .protobuf: return try ProtobufDecoder().decode(type, from: data)
        }
    }
}

@Suite struct GeneratedCodingTests {
    private static func records(seed: UInt64, count: Int) -> [GRecord] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            GRecord(
                id: Int.random(in: -1_000_000...1_000_000, using: &rng), name: "record \(i)",
                note: Bool.random(using: &rng) ? nil : String(repeating: "n", count: i % 7),
                tags: (0..<(i % 4)).map { _ in Int.random(in: 0...5_000, using: &rng) },
                position: GPoint(x: Int32.random(in: -99...99, using: &rng), y: Int32(i)),
                last: i % 3 == 0 ? nil : GPoint(x: 1, y: -1), plain: CPoint(x: Int32(i), y: 0),
                scores: i % 2 == 0 ? [:] : ["a": 1.5, "b\(i)": -2])
        }
    }

    @Test(arguments: Coder.allCases)
    private func sameBytesAndValuesAsTheCodablePath(_ coder: Coder) throws {
        for record in Self.records(seed: 44, count: 200) {
            let generated = try coder.encode(record)
            let codable = try coder.encode(record.twin)
            #expect(generated == codable, "\(coder) \(record.id)")
            #expect(try coder.decode(GRecord.self, from: codable) == record)
            #expect(try coder.decode(CRecord.self, from: generated) == record.twin)
        }
        // Protobuf's top level is a message: the list goes in one.
        let list = PB1(Self.records(seed: 45, count: 30))
        #expect(try coder.encode(list) == coder.encode(PB1(list.value.map(\.twin))))
        #expect(try coder.decode(PB1<[GRecord]>.self, from: coder.encode(list)) == list)
    }

    @Test private func stringKeysGenericsAndAFinalClass() throws {
        let box = GBox(label: "l", items: [GPoint(x: 1, y: 2), GPoint(x: -3, y: 4)], extra: nil)
        let twin = CBox(label: "l", items: [CPoint(x: 1, y: 2), CPoint(x: -3, y: 4)], extra: nil)
        for coder in [Coder.v3, .v2, .v2NilSets] {
            let data = try coder.encode(box)
            #expect(data == (try coder.encode(twin)), "\(coder)")
            #expect(try coder.decode(GBox<GPoint>.self, from: data) == box)
        }
        let withExtra = GBox(label: "", items: [1, 2, 3], extra: 9)
        #expect(
            try BinaryEncoder().encode(withExtra)
                == BinaryEncoder().encode(CBox(label: "", items: [1, 2, 3], extra: 9)))
    }

    @Test private func sortedKeysAndTreesTakeTheCodablePath() throws {
        let record = Self.records(seed: 46, count: 1)[0]
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        #expect(try encoder.encode(record) == encoder.encode(record.twin))
        #expect(try BinaryEncoder().encodeTree(record) == BinaryEncoder().encodeTree(record.twin))
        let tree = try BinaryDecoder().decodeTree(GRecord.self, from: BinaryEncoder().encode(record))
        #expect(try BinaryDecoder().decode(GRecord.self, fromTree: tree) == record)
    }

    @Test private func errorsNameTheSameCaseAndPath() throws {
        let record = Self.records(seed: 47, count: 1)[0]
        let data = try BinaryEncoder().encode(record)
        for cut in [1, data.count / 2, data.count - 1] {
            let prefix = data.prefix(cut)
            let generated = #expect(throws: DecodingError.self) {
                try BinaryDecoder().decode(GRecord.self, from: prefix)
            }
            let codable = #expect(throws: DecodingError.self) { try BinaryDecoder().decode(CRecord.self, from: prefix) }
            #expect(generated.map(String.init(describing:)) == codable.map(String.init(describing:)), "cut at \(cut)")
        }
    }

    /// What v3 decoding of `bytes` gives: the value re-encoded, or the error's description with
    /// the names of the generated types and their twins left out (an error names the type).
    private static func outcome<T: Codable>(_ type: T.Type, _ bytes: Data) -> String {
        do { return "\(Array(try BinaryEncoder().encode(BinaryDecoder().decode(type, from: bytes))))" } catch {
            var text = "\(error)"
            for name in ["Optional", "Record", "Point"] {
                text = text.replacingOccurrences(of: "G\(name)", with: name)
                text = text.replacingOccurrences(of: "C\(name)", with: name)
            }
            return text
        }
    }

    /// v3 reads a generated type's fields in place while they come in order; any other input
    /// (fields out of order, unknown keys, a key twice, an absent field, a bad value, bytes cut
    /// short) ends as the `Codable` path ends: the same value, or the same error.
    @Test private func v3ReadsFieldsInPlaceOrAsTheCodablePath() throws {
        let many = (10..<30).map { ($0, Entries.Value.int(Int32($0))) }
        let inputs: [[(Int, Entries.Value)]] = [
            [(1, .int(3)), (2, .string("x")), (3, .int(5))],
            [(1, .int(3)), (3, .int(5))],  // b absent
            [(3, .int(5)), (1, .int(3))],  // out of order
            [(1, .int(3)), (3, .int(5)), (2, .string("late"))],  // b after c
            [(1, .int(3)), (9, .int(1)), (3, .int(5))],  // an unknown key between
            [(1, .int(3)), (3, .int(5)), (9, .string("unknown"))],  // an unknown key after
            [(1, .int(3))] + many + [(3, .int(5))],  // more unknown keys than the cursor looks at
            [(1, .int(3)), (3, .int(5))] + many + [(2, .string("far"))],
            [(1, .int(3)), (1, .int(4)), (3, .int(5))],  // a key twice
            [(1, .int(3)), (3, .int(5)), (3, .int(6))],  // a key twice, after the last field read
            [(1, .int(3)), (2, .string("x"))],  // c missing
            [(1, .string("not an Int32")), (3, .int(5))],  // a bad value
            [(1, .int(3)), (2, .int(7)), (3, .int(5))],  // an Int32 where a string is
        ]
        for entries in inputs {
            let bytes = try BinaryEncoder().encode(Entries(entries))
            // Whole, and cut short everywhere: the cursor meets the end at every byte.
            for cut in 0...bytes.count {
                let input = bytes.prefix(cut)
                #expect(
                    Self.outcome(GOptional.self, input) == Self.outcome(COptional.self, input),
                    "\(Array(bytes)) cut at \(cut)")
            }
        }
        // A golden case: read in place, and the same bytes written back.
        let bytes = Data([0x02, 0x02, 0x06, 0x04, 0x02, 0x78, 0x06, 0x02, 0x0a])
        let value = try BinaryDecoder().decode(GOptional.self, from: bytes)
        #expect((value.a, value.b, value.c) == (3, "x", 5))
        #expect(try BinaryEncoder().encode(value) == bytes)
    }

    /// A nested value's error is reported as the `Codable` path reports it, also when the
    /// container around it does not frame (a length past the end after the nested value).
    @Test private func aNestedErrorAndAFramingErrorAfterIt() throws {
        let record = Self.records(seed: 48, count: 1)[0]
        var bytes = [UInt8](try BinaryEncoder().encode(record))
        // The last byte of `position`'s first field made a varint that goes on, then the end cut.
        let generated = try BinaryEncoder().encode(record.position)
        guard let at = bytes.firstRange(of: Array(generated))?.lowerBound else {
            Issue.record("no position bytes")
            return
        }
        bytes[at + 2] |= 0x80
        for input in [Data(bytes), Data(bytes.prefix(at + 3)), Data(bytes.dropLast())] {
            #expect(Self.outcome(GRecord.self, input) == Self.outcome(CRecord.self, input))
        }
    }

    /// Encoding falls back to the tree path, which runs `encode(to:)`: the bytes stay right.
    @Test private func aFieldTheKeysLackIsAnError() throws {
        struct Twin: Codable { var a: Int }
        let bytes = try BinaryEncoder().encode(GWrongField(a: 1))
        #expect(bytes == (try BinaryEncoder().encode(Twin(a: 1))))
        let decoding = #expect(throws: DecodingError.self) { try BinaryDecoder().decode(GWrongField.self, from: bytes) }
        #expect(
            decoding.map { "\($0)" }
                == """
                DecodingError.dataCorrupted: Data was corrupted. \
                Debug description: generated code read field 1, which the type's keys lack
                """)
    }

    /// v3 writes a generated type's primitive fields in one call each; a field written twice
    /// and a key without v3 bytes still end as the `Codable` path ends.
    @Test private func aFieldWrittenTwiceAndAKeyWithoutBytes() throws {
        struct Twice: Codable {
            var a: Int
            enum CodingKeys: Int, CodingKey { case a = 1 }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(a, forKey: .a)
                try container.encode(a &+ 1, forKey: .a)
            }
        }
        // Protobuf refuses a key written twice, either way.
        for coder in [Coder.v3, .v2, .v2NilSets] {
            #expect(try coder.encode(GTwice(a: 7)) == coder.encode(Twice(a: 7)), "\(coder)")
        }
        struct Negative: Codable {
            var a: Int
            var b: String
            enum CodingKeys: Int, CodingKey { case a = 1, b = -2 }
        }
        let generated = #expect(throws: EncodingError.self) { try BinaryEncoder().encode(GNegativeKey(a: 1, b: "x")) }
        let codable = #expect(throws: EncodingError.self) { try BinaryEncoder().encode(Negative(a: 1, b: "x")) }
        #expect(generated != nil)
        #expect(generated.map { "\($0)" } == codable.map { "\($0)" })
        // v2 has bytes for a negative key.
        for coder in [Coder.v2, .v2NilSets] {
            #expect(try coder.encode(GNegativeKey(a: 1, b: "x")) == coder.encode(Negative(a: 1, b: "x")), "\(coder)")
        }
    }

    @Test(arguments: Coder.allCases)
    private func anArrayOfAGeneratedType(_ coder: Coder) throws {
        for count in [0, 1, 5] {
            let points = (0..<count).map { GPoint(x: Int32($0), y: -Int32($0)) }
            let path = GPath(points: points, name: "p\(count)")
            let twin = CPath(points: points.map { CPoint(x: $0.x, y: $0.y) }, name: path.name)
            let bytes = try coder.encode(path)
            #expect(bytes == (try coder.encode(twin)), "\(coder) \(count)")
            #expect(try coder.decode(GPath.self, from: bytes) == path)
        }
    }

    /// Protobuf takes a generated type's scalar fields in one call too: defaults are left out, an
    /// optional at its default is written (presence), a generated type as a map's value is a
    /// message of its own, and errors are the `Codable` path's.
    @Test private func protobufFieldsInOneCall() throws {
        let coder = Coder.protobuf
        for (x, y) in [(0, 0), (0, 5), (-1, 0), (Int32.max, Int32.min)] {
            let point = GPoint(x: x, y: y)
            let bytes = try coder.encode(point)
            #expect(bytes == (try coder.encode(CPoint(x: x, y: y))), "\(x) \(y)")
            #expect(try coder.decode(GPoint.self, from: bytes) == point)
        }
        #expect(try coder.encode(GPoint(x: 0, y: 0)).isEmpty)
        let map = PB1([3: GPoint(x: 1, y: 0), 0: GPoint(x: 0, y: 0)])
        let twin = PB1([3: CPoint(x: 1, y: 0), 0: CPoint(x: 0, y: 0)])
        #expect(try coder.encode(map) == coder.encode(twin))
        #expect(try coder.decode(PB1<[Int: GPoint]>.self, from: coder.encode(map)) == map)
        let twice = #expect(throws: EncodingError.self) { try coder.encode(GTwice(a: 0)) }
        #expect(twice.map { "\($0)" }?.contains("GTwice.encode(to:)") == true)
    }
}
