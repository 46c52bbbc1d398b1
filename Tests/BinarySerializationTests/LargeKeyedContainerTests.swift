import BinarySerialization
import Foundation
import Testing

/// A keyed container of more than 16 entries is indexed when it is framed (integer keys by value,
/// string keys by their bytes). These tests read such containers out of order, ask for keys that
/// are absent, and feed repeated keys, in both formats.
@Suite struct LargeKeyedContainerTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ string: String) { stringValue = string }
        init(int: Int) {
            stringValue = "i\(int)"
            intValue = int
        }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(int: intValue) }
    }

    /// 20 string keys and 20 integer keys, interleaved; read back in reverse.
    struct Mixed: Codable, Equatable {
        var strings: [Int]
        var ints: [Int]

        init(strings: [Int], ints: [Int]) {
            self.strings = strings
            self.ints = ints
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for i in strings.indices {
                try c.encode(strings[i], forKey: Key("s\(i)"))
                try c.encode(ints[i], forKey: Key(int: i + 1))
            }
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            var strings: [Int] = []
            var ints: [Int] = []
            for i in (0..<20).reversed() {
                strings.insert(try c.decode(Int.self, forKey: Key("s\(i)")), at: 0)
                ints.insert(try c.decode(Int.self, forKey: Key(int: i + 1)), at: 0)
            }
            // Absent keys, of both kinds, and keys that differ only in kind.
            guard !c.contains(Key("s20")), !c.contains(Key(int: 21)), !c.contains(Key("i1")),
                try c.decodeIfPresent(Int.self, forKey: Key("nope")) == nil,
                try c.decodeIfPresent(Int.self, forKey: Key(int: 0)) == nil
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "found an absent key"))
            }
            self.strings = strings
            self.ints = ints
        }
    }

    static let value = Mixed(strings: (0..<20).map { $0 * 3 - 7 }, ints: (0..<20).map { 100 - $0 })

    @Test(arguments: [BinaryFormat.v3, .v2])
    func outOfOrderAndAbsentKeys(_ format: BinaryFormat) throws {
        let data = try BinaryEncoder(format: format).encode(Self.value)
        #expect(try BinaryDecoder(format: format).decode(Mixed.self, from: data) == Self.value)
        let tree = try BinaryDecoder(format: format).decodeTree(Mixed.self, from: data)
        #expect(try BinaryEncoder(format: format).encode(tree: tree) == data)
    }

    /// A repeated key among more than 16: the second copy is named, at its offset.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func repeatedKeysAreCorrupt(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        for repeated in [Key("s7"), Key(int: 7)] {
            // The container's bytes, then one more field with an existing key.
            struct One: Encodable {
                let key: Key
                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(1, forKey: key)
                }
            }
            let data = try encoder.encode(Self.value) + encoder.encode(One(key: repeated))
            let error = #expect(throws: DecodingError.self) {
                try BinaryDecoder(format: format).decode(Mixed.self, from: data)
            }
            guard case .dataCorrupted(let context)? = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
            let name = repeated.intValue.map(String.init) ?? "\"\(repeated.stringValue)\""
            #expect(context.debugDescription.contains("the key \(name) appears twice"), "\(context.debugDescription)")
        }
    }
}
