import BinarySerialization
import Foundation
import Testing

/// `sortKeysDuringEncoding` orders keys as BinaryCodable does (integer keys by value, else
/// Swift's `String` order), breaks `String`'s ties between canonically equivalent spellings by
/// their UTF-8 bytes, and spells an integer key whose name is an integer in decimal: one order
/// for one set of written keys, on every path (bytes, tree, `decodeTree`, transcoders), whatever
/// the insertion order.
@Suite struct SortOrderTests {
    /// Keys written in the order given, each with a `CodingKey` like a dictionary's (an integer
    /// value for integer-like names).
    struct Entries: Codable, Equatable {
        var entries: [(String, Int)]
        init(_ entries: [(String, Int)]) { self.entries = entries }

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) {
                self.stringValue = stringValue
                intValue = Int(stringValue)
            }
            init?(intValue: Int) {
                stringValue = String(intValue)
                self.intValue = intValue
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            entries = try c.allKeys.map { ($0.stringValue, try c.decode(Int.self, forKey: $0)) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in entries { try c.encode(v, forKey: Key(stringValue: k)) }
        }

        /// Equal when they hold the same entries, in any order.
        static func == (a: Entries, b: Entries) -> Bool {
            a.entries.count == b.entries.count
                && a.entries.allSatisfy { e in b.entries.contains { sameBytes($0.0, e.0) && $0.1 == e.1 } }
        }
    }

    static func sameBytes(_ a: String, _ b: String) -> Bool { Array(a.utf8) == Array(b.utf8) }

    /// The keys in their sorted order. Swift's `String` order compares the NFC forms: `"B"`,
    /// then `"K"` and the Kelvin sign (canonically equivalent: by bytes, 4b < e2), `"L"`, ASCII,
    /// the three spellings of "Å" (41 cc 8a < c3 85 < e2 84 ab), `"a\u{308}\u{332}"` (NFC ä and
    /// a low line, after "f" though its bytes start with "a"), `"e\u{301}"` before `"\u{e9}"`
    /// (equivalent: by bytes), `"\u{e9}x"`, then emoji by scalar. Integer keys sort among them by
    /// value, and are merged with the string keys by their decimal form: "1a" < "2" < "6x" < "7",
    /// then 10 (after 7 by value) before "B".
    static let sortedKeys: [String] = [
        "1a", "2", "6x", "7", "10", "B", "K", "\u{212A}", "L", "a", "ab", "b", "c", "f", "A\u{30A}", "\u{C5}",
        "\u{212B}", "a\u{308}\u{332}", "e\u{301}", "\u{e9}", "\u{e9}x", "\u{1F44D}\u{1F3FD}", "\u{1F600}",
    ]

    /// The sorted v3 bytes of `sortedKeys` with values 0, 1, 2 ...: each key, then a one-byte
    /// element holding zz(position).
    static func expectedV3(_ keys: [String]) -> String {
        var out: [UInt8] = []
        for (i, k) in keys.enumerated() {
            if let n = Int(k) {
                out += base128Varint(UInt64(n) << 1)
            } else {
                out += base128Varint(UInt64(k.utf8.count) << 1 | 1) + Array(k.utf8)
            }
            out += [0x02, UInt8(i << 1)]
        }
        return spacedHex(out)
    }

    static func encoder(_ format: BinaryFormat) -> BinaryEncoder {
        var e = BinaryEncoder(format: format)
        e.sortKeysDuringEncoding = true
        return e
    }

    @Test func goldenOrder() throws {
        // A few keys where byte order and BinaryCodable's order disagree.
        let small = Entries([("f", 0), ("a\u{308}\u{332}", 1), ("c", 2), ("e\u{301}", 3), ("7", 4)])
        #expect(
            spacedHex(try Self.encoder(.v3).encode(small))
                == spacedHex(
                    bytes(
                        """
                        0e 02 08                        // 7: 4
                        03 63 02 04                     // "c": 2
                        03 66 02 00                     // "f": 0
                        0b 61 cc 88 cc b2 02 02         // "a\\u{308}\\u{332}": 1
                        07 65 cc 81 02 06               // "e\\u{301}": 3
                        """)))
        // The whole set, in many insertion orders, on every path.
        let golden = Self.expectedV3(Self.sortedKeys)
        var rng = SplitMix64(seed: 0x736F_7274)
        for round in 0..<60 {
            var keys = Self.sortedKeys
            if round > 0 {
                for i in stride(from: keys.count - 1, to: 0, by: -1) { keys.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            }
            let value = Entries(keys.map { k in (k, Self.sortedKeys.firstIndex { Self.sameBytes($0, k) } ?? -1) })
            try Self.checkEveryPath(value, golden: golden, "insertion order \(keys)")
        }
    }

    /// Bytes, tree, `decodeTree`, and the sorted transcoders (both ways, both formats) all give
    /// `golden` (the v3 bytes), and the v2 paths agree with each other.
    static func checkEveryPath(_ value: Entries, golden: String, _ note: String) throws {
        let v3 = encoder(.v3)
        let v2 = encoder(.v2)
        let bytes3 = try v3.encode(value)
        #expect(spacedHex(bytes3) == golden, "bytes \(note)")
        #expect(spacedHex(try v3.encode(tree: v3.encodeTree(value))) == golden, "tree \(note)")
        #expect(
            spacedHex(try v3.encode(tree: BinaryDecoder().decodeTree(Entries.self, from: bytes3))) == golden,
            "decodeTree \(note)")
        let bytes2 = try v2.encode(value)
        #expect(try v2.encode(tree: v2.encodeTree(value)) == bytes2, "v2 tree \(note)")
        #expect(
            try v2.encode(tree: BinaryDecoder(format: .v2).decodeTree(Entries.self, from: bytes2)) == bytes2,
            "v2 decodeTree \(note)")
        var toV3 = BinaryTranscoder(from: .v2, to: .v3)
        toV3.encoder = v3
        #expect(spacedHex(try toV3.transcode(Entries.self, from: bytes2)) == golden, "v2 -> v3 \(note)")
        var toV2 = BinaryTranscoder(from: .v3, to: .v2)
        toV2.encoder = v2
        #expect(try toV2.transcode(Entries.self, from: bytes3) == bytes2, "v3 -> v2 \(note)")
        var same = BinaryTranscoder(from: .v3, to: .v3)
        same.encoder = v3
        #expect(spacedHex(try same.transcode(Entries.self, from: bytes3)) == golden, "v3 -> v3 \(note)")
        // The v2 keys come in the same order.
        let keys2 = try BinaryDecoder(format: .v2).decodeTree(Entries.self, from: bytes2)
        let keys3 = try BinaryDecoder().decodeTree(Entries.self, from: bytes3)
        if case .keyed(let f2) = keys2, case .keyed(let f3) = keys3 {
            #expect(f2.keys == f3.keys, "v2 order \(note)")
        }
    }

    /// An integer key is sorted by the decimal form of its value, which is all the bytes keep:
    /// `"07"` sorts as `"7"`, after `"6x"`, on every path.
    @Test func anIntegerKeySortsByItsDecimalForm() throws {
        let golden = spacedHex(bytes("0a 02 04  05 36 78 02 06  0e 02 02"))  // 5: 2, "6x": 3, 7: 1
        for dict in [["07": 1, "5": 2, "6x": 3], ["7": 1, "5": 2, "6x": 3], ["+7": 1, "5": 2, "6x": 3]] {
            #expect(spacedHex(try Self.encoder(.v3).encode(dict)) == golden, "\(dict)")
            let tree = try Self.encoder(.v3).encodeTree(dict)
            #expect(spacedHex(try Self.encoder(.v3).encode(tree: tree)) == golden)
            let stored = try BinaryDecoder().decodeTree([String: Int].self, from: Data(bytes(golden)))
            #expect(spacedHex(try Self.encoder(.v3).encode(tree: stored)) == golden)
            let v2 = try Self.encoder(.v2).encode(dict)
            var toV3 = BinaryTranscoder(from: .v2, to: .v3)
            toV3.encoder = Self.encoder(.v3)
            #expect(spacedHex(try toV3.transcode([String: Int].self, from: v2)) == golden)
            let entries = Entries(dict.map { ($0.key, $0.value) })
            #expect(spacedHex(try Self.encoder(.v3).encode(entries)) == golden)
        }
        // A name that is not an integer is the type's: `super` sorts as "super" (after "b").
        let mixed = try Self.encoder(.v3).encode(tree: ["b": 1, .super: 2, "t": 3])
        #expect(spacedHex(mixed) == spacedHex(bytes("03 62 02 02  00 02 04  03 74 02 06")))
    }

    /// BinaryCodable's pairwise comparison is not transitive where integer and string keys mix
    /// (2 < 10, "10" < "1a" < "2"); the merge gives one order whatever the insertion order.
    @Test func mixedKeysHaveOneOrder() throws {
        let keys = ["2", "10", "1a", "3", "25", "b", "-1", "0", "super"]
        for _ in 0..<100 {
            let shuffled = keys.shuffled()
            let v2 = try Self.encoder(.v2).encode(Entries(shuffled.map { ($0, 1) }))
            let stored = try BinaryDecoder(format: .v2).decodeTree(Entries.self, from: v2)
            if case .keyed(let f) = stored {
                #expect(f.keys.map(\.stringValue) == ["-1", "0", "1a", "2", "3", "10", "25", "b", "super"])
            }
            // v3 has no negative keys.
            let v3Keys = shuffled.filter { $0 != "-1" }
            #expect(
                spacedHex(try Self.encoder(.v3).encode(Entries(v3Keys.map { ($0, 1) })))
                    == spacedHex(
                        bytes(
                            "00 02 02  05 31 61 02 02  04 02 02  06 02 02  14 02 02  32 02 02  03 62 02 02  0b 73 75 70 65 72 02 02"
                        )),
                "\(shuffled)")
            var dict: [String: Int] = [:]
            for k in v3Keys { dict[k] = 1 }
            let tree = try Self.encoder(.v3).encodeTree(dict)
            #expect(try Self.encoder(.v3).encode(tree: tree) == Self.encoder(.v3).encode(dict))
        }
    }
}
