import BinarySerialization
import Foundation
import Testing

/// Acceptance 3: output is deterministic. Without sorting, keys come out in the order the value's
/// `encode(to:)` wrote them; with sorting, in key order; either way the same value gives the same
/// bytes every time, and the golden bytes below (worked out by hand from the v3 rules, not copied
/// from a run) prove the output does not depend on the process.
@Suite struct DeterminismTests {
    /// Declaration order z, a, m differs from alphabetical order a, m, z.
    struct ZAM: Codable, Equatable {
        var z: Int
        var a: String
        var m: Bool
        enum CodingKeys: String, CodingKey { case z, a, m }
    }

    static let zam = ZAM(z: 1, a: "x", m: true)

    @Test func unsortedKeysKeepInsertionOrder() throws {
        let golden = bytes(
            """
            03 7a  // key "z" (1 << 1 | 1)
            02 02  // length 1, zz(1) = 2
            03 61  // key "a"
            02 78  // length 1, "x"
            03 6d  // key "m"
            02 01  // length 1, true
            """)
        let data = try v3Encoder(sorted: false).encode(Self.zam)
        #expect(spacedHex(data) == spacedHex(golden))
        #expect(try BinaryDecoder().decode(ZAM.self, from: data) == Self.zam)
        // The tree keeps the same order.
        guard case .keyed(let fields) = try v3Encoder(sorted: false).encodeTree(Self.zam) else {
            Issue.record("not a keyed tree")
            return
        }
        #expect(fields.keys.map(\.stringValue) == ["z", "a", "m"])
    }

    @Test func sortedKeysAreAlphabetical() throws {
        let golden = bytes(
            """
            03 61  02 78  // "a": "x"
            03 6d  02 01  // "m": true
            03 7a  02 02  // "z": 1
            """)
        let data = try v3Encoder(sorted: true).encode(Self.zam)
        #expect(spacedHex(data) == spacedHex(golden))
        #expect(try BinaryDecoder().decode(ZAM.self, from: data) == Self.zam)
    }

    @Test(arguments: [true, false])
    func sameValueHundredTimes(sorted: Bool) throws {
        let encoder = v3Encoder(sorted: sorted)
        let value = Nested(
            inner: SMessage(sender: "in", isRead: true, unreadCount: -1),
            list: (0..<5).map { SMessage(sender: "s\($0)", isRead: $0 % 2 == 0, unreadCount: $0) },
            opt: nil, matrix: [[1, 2], [], [3]])
        let first = try encoder.encode(value)
        for _ in 0..<100 {
            #expect(try encoder.encode(value) == first)
        }
    }

    @Test(arguments: [true, false])
    func dictionaryEncodedTwiceGivesSameBytes(sorted: Bool) throws {
        let encoder = v3Encoder(sorted: sorted)
        let dict = Dictionary(uniqueKeysWithValues: (0..<50).map { ("key\($0)", $0 * 7 - 100) })
        let once = try encoder.encode(dict)
        let twice = try encoder.encode(dict)
        #expect(once == twice)
        // A copy is the same dictionary, so it iterates the same way.
        let copy = dict
        #expect(try encoder.encode(copy) == once)
        #expect(try BinaryDecoder().decode([String: Int].self, from: once) == dict)
    }

    /// Dictionaries with equal contents built in different orders (different iteration orders)
    /// give the same bytes once sorted.
    @Test func sortedDictionaryIgnoresInsertionOrder() throws {
        let keys = (0..<40).map { "k\($0)" }
        var forward: [String: Int] = [:]
        for (i, k) in keys.enumerated() { forward[k] = i }
        var backward: [String: Int] = [:]
        for (i, k) in keys.enumerated().reversed() { backward[k] = i }
        var bigCapacity: [String: Int] = [:]
        bigCapacity.reserveCapacity(1000)
        for (i, k) in keys.enumerated().shuffled() { bigCapacity[k] = i }
        let encoder = v3Encoder(sorted: true)
        let expected = try encoder.encode(forward)
        #expect(try encoder.encode(backward) == expected)
        #expect(try encoder.encode(bigCapacity) == expected)
    }

    struct Profile: Codable, Equatable {
        var name: String
        var id: UInt32
        var tags: [String]
        var scores: [String: Int]
        var ratio: Double
    }

    /// Golden bytes, so the result cannot depend on the process (hash seeds, allocation...).
    /// Sorting makes a several-entry dictionary process independent too.
    @Test func sortedGoldenIsProcessIndependent() throws {
        let value = Profile(name: "Ann", id: 300, tags: ["x", ""], scores: ["b": -1, "a": 64], ratio: 0.5)
        let golden = bytes(
            """
            05 69 64                 // key "id" (2 << 1 | 1)
            04 ac 02                 // length 2, varint 300 = 0x12c: 0x2c | 0x80, 0x12c >> 7 = 2
            09 6e 61 6d 65           // key "name"
            06 41 6e 6e              // length 3, "Ann"
            0b 72 61 74 69 6f        // key "ratio"
            10 3f e0 00 00 00 00 00 00  // length 8, 0.5 big-endian
            0d 73 63 6f 72 65 73     // key "scores"
            12                       // length 9: the nested keyed container
            03 61 04 80 01           //   "a": length 2, zz(64) = 128 = 80 01
            03 62 02 01              //   "b": length 1, zz(-1) = 1
            09 74 61 67 73           // key "tags"
            06                       // length 3: unkeyed [String]
            02 78                    //   length 1, "x"
            00                       //   length 0, ""
            """)
        let data = try v3Encoder(sorted: true).encode(value)
        #expect(spacedHex(data) == spacedHex(golden))
        #expect(try BinaryDecoder().decode(Profile.self, from: golden) == value)
    }

    /// Unsorted output is process independent as long as no container holds an unordered
    /// collection with several elements.
    @Test func unsortedGoldenIsProcessIndependent() throws {
        let value = Profile(name: "Ann", id: 300, tags: ["x", ""], scores: ["a": 64], ratio: 0.5)
        let golden = bytes(
            """
            09 6e 61 6d 65  06 41 6e 6e        // "name": "Ann"
            05 69 64  04 ac 02                 // "id": 300
            09 74 61 67 73  06 02 78 00        // "tags": ["x", ""]
            0d 73 63 6f 72 65 73  0a 03 61 04 80 01  // "scores": length 5, {"a": 64}
            0b 72 61 74 69 6f  10 3f e0 00 00 00 00 00 00  // "ratio": 0.5
            """)
        let data = try v3Encoder(sorted: false).encode(value)
        #expect(spacedHex(data) == spacedHex(golden))
        #expect(try BinaryDecoder().decode(Profile.self, from: golden) == value)
    }

    /// Dictionary keys that are decimal integers become integer keys; sorted, integers compare by
    /// value with each other and by their decimal string with string keys.
    @Test func sortedMixedDictionaryGolden() throws {
        let value: [String: Int] = ["b": 2, "10": 3, "a": 1, "9": 4]
        let golden = bytes(
            """
            12 02 08   // int key 9 (9 << 1 = 0x12), length 1, zz(4) = 8
            14 02 06   // int key 10, length 1, zz(3) = 6
            03 61 02 02  // "a": 1
            03 62 02 04  // "b": 2
            """)
        let data = try v3Encoder(sorted: true).encode(value)
        #expect(spacedHex(data) == spacedHex(golden))
        #expect(try BinaryDecoder().decode([String: Int].self, from: golden) == value)
    }

    /// Writes `entries` in the given order with dictionary-style keys (a decimal string also has
    /// an `intValue`), as `[String: Int]` does in its iteration order.
    struct OrderedEntries: Encodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) {
                self.stringValue = stringValue
                intValue = Int(stringValue)
            }
            init?(intValue: Int) {
                self.stringValue = String(intValue)
                self.intValue = intValue
            }
        }
        let entries: [(String, Int)]
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in entries { try c.encode(v, forKey: Key(stringValue: k)) }
        }
    }

    /// Integer keys against each other by value, but against string keys by string, is not
    /// transitive on its own (2 < 10, "10" < "1a", "1a" < "2"): sorted output must still not
    /// depend on the order in which the keys were written (for a dictionary, its iteration order,
    /// which changes with the hash seed of the process).
    @Test func sortedOrderDoesNotDependOnInsertionOrder() throws {
        let encoder = v3Encoder(sorted: true)
        let golden = bytes(
            """
            05 31 61  02 06   // "1a": 3 (not a decimal integer: a string key)
            04  02 02         // int key 2: 1
            14  02 04         // int key 10: 2
            """)
        let entries: [(String, Int)] = [("2", 1), ("10", 2), ("1a", 3)]
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        for order in orders {
            let data = try encoder.encode(OrderedEntries(entries: order.map { entries[$0] }))
            #expect(spacedHex(data) == spacedHex(golden), "insertion order \(order)")
        }
        var dict: [String: Int] = [:]
        for (k, v) in entries { dict[k] = v }
        #expect(spacedHex(try encoder.encode(dict)) == spacedHex(golden))
        #expect(try BinaryDecoder().decode([String: Int].self, from: golden) == dict)
    }
}
