import BinarySerialization
import Foundation
import Testing

/// Two string keys are one key when their UTF-8 bytes are the same (`BinaryKey`), not when they
/// are equal as Swift `String`s: canonically equivalent spellings are written as different bytes,
/// so they are two fields. That must hold in every path and at every container size: the encoders
/// and decoders search small containers and hash large ones (past 16 keys), and before keys were
/// compared by bytes the two answers differed.
@Suite struct KeyEqualityTests {
    /// Spellings that `String` equality takes for one string.
    static let pairs: [(String, String)] = [
        ("K", "\u{212A}"),  // Latin capital K, Kelvin sign
        ("é", "e\u{301}"),  // precomposed, decomposed
        (";", "\u{037E}"),  // semicolon, Greek question mark
        ("Å", "\u{212B}"),  // Latin capital A with ring, Angstrom sign
    ]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Which keys a `Fields` value writes and reads, passed to decoding through `userInfo`.
    struct Layout: Sendable {
        let first: String
        let second: String
        let filler: Int

        static let userInfoKey = CodingUserInfoKey(rawValue: "KeyEqualityTests.Layout")!
    }

    /// `a` under the first spelling, `filler` other fields, then `b` under the second spelling.
    struct Fields: Codable, Equatable {
        var layout: Layout
        var a: Int
        var b: Int

        init(layout: Layout, a: Int, b: Int) {
            self.layout = layout
            self.a = a
            self.b = b
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(a, forKey: Key(layout.first))
            for i in 0..<layout.filler { try c.encode(i, forKey: Key("f\(i)")) }
            try c.encode(b, forKey: Key(layout.second))
        }

        init(from decoder: any Decoder) throws {
            guard let layout = decoder.userInfo[Layout.userInfoKey] as? Layout else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no layout"))
            }
            let c = try decoder.container(keyedBy: Key.self)
            self.layout = layout
            a = try c.decode(Int.self, forKey: Key(layout.first))
            for i in 0..<layout.filler { _ = try c.decode(Int.self, forKey: Key("f\(i)")) }
            b = try c.decode(Int.self, forKey: Key(layout.second))
        }

        static func == (l: Fields, r: Fields) -> Bool { l.a == r.a && l.b == r.b }
    }

    struct Case: CustomStringConvertible, Sendable {
        let pair: Int
        let filler: Int
        let format: BinaryFormat
        let sorted: Bool

        var description: String {
            "\(KeyEqualityTests.pairs[pair].0.unicodeScalars.map { String($0.value, radix: 16) }) "
                + "\(filler) fillers \(format)\(sorted ? " sorted" : "")"
        }

        static let all: [Case] = KeyEqualityTests.pairs.indices.flatMap { pair in
            [0, 20].flatMap { filler in
                [(BinaryFormat.v3, false), (.v3, true), (.v2, false)].map {
                    Case(pair: pair, filler: filler, format: $0.0, sorted: $0.1)
                }
            }
        }
    }

    @Test(arguments: Case.all)
    func spellingsAreTwoKeys(_ c: Case) throws {
        let (first, second) = Self.pairs[c.pair]
        #expect(first == second && Array(first.utf8) != Array(second.utf8))
        let layout = Layout(first: first, second: second, filler: c.filler)
        let value = Fields(layout: layout, a: -1, b: 2)
        var encoder = BinaryEncoder(format: c.format)
        encoder.sortKeysDuringEncoding = c.sorted
        var decoder = BinaryDecoder(format: c.format)
        decoder.userInfo[Layout.userInfoKey] = layout

        // Encoding keeps both fields, streamed or through the tree.
        let tree = try encoder.encodeTree(value)
        guard case .keyed(let fields) = tree else {
            Issue.record("not keyed: \(tree)")
            return
        }
        #expect(fields.count == c.filler + 2)
        #expect(tree[BinaryKey(stringValue: first)] == .int(-1))
        #expect(tree[BinaryKey(stringValue: second)] == .int(2))
        let bytes = try encoder.encode(value)
        #expect(bytes == (try encoder.encode(tree: tree)))

        // Decoding finds each under its own spelling: typed, from the tree, and recorded.
        #expect(try decoder.decode(Fields.self, from: bytes) == value)
        #expect(try decoder.decode(Fields.self, fromTree: tree) == value)
        let recorded = try decoder.decodeTree(Fields.self, from: bytes)
        #expect(try encoder.encode(tree: recorded) == bytes)
    }

    /// The same bytes twice are still a repeated key, in small and large containers.
    @Test(arguments: [0, 20])
    func theSameBytesTwiceAreARepeatedKey(_ filler: Int) throws {
        let layout = Layout(first: "K", second: "K", filler: filler)
        let tree = try BinaryEncoder().encodeTree(Fields(layout: layout, a: 1, b: 2))
        guard case .keyed(let fields) = tree else {
            Issue.record("not keyed: \(tree)")
            return
        }
        // The tree encoder keeps the first position and the last value.
        #expect(fields.count == filler + 1)
        #expect(tree["K"] == .int(2))
        // Bytes holding the key twice are corrupt.
        var bytes = try BinaryEncoder().encode(tree: tree)
        bytes += Data([0x03, 0x4B, 0x02])
        var decoder = BinaryDecoder()
        decoder.userInfo[Layout.userInfoKey] = layout
        #expect(throws: DecodingError.self) { try decoder.decode(Fields.self, from: bytes) }
    }
}
