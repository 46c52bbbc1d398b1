import BinarySerialization
import Foundation
import Testing

/// `allKeys` of a keyed container read from bytes (v3, v2), from a tree, and while a transcode
/// records the value: the stored keys that are keys of the container's type, in stored order,
/// an integer key as its integer where the type has one, else by its name.
@Suite struct AllKeysTests {
    struct AnyKey: CodingKey, Equatable {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
        init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
    }

    /// Keys by name only: an integer key is found by its decimal name.
    enum Named: String, CodingKey { case a, b, seven = "7" }

    /// Writes `a`, integer key 7, `b` and `z`, in that order.
    struct Mixed: Codable, Equatable {
        var a = 1
        var seven = "seven"
        var b = true
        var z = 2.5

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(a, forKey: AnyKey(stringValue: "a"))
            try c.encode(seven, forKey: AnyKey(intValue: 7))
            try c.encode(b, forKey: AnyKey(stringValue: "b"))
            try c.encode(z, forKey: AnyKey(stringValue: "z"))
        }

        init() {}

        /// Reads every field through the keys `allKeys` lists, and checks the named view of them.
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            let keys = c.allKeys
            #expect(keys.map(\.stringValue) == ["a", "7", "b", "z"])
            #expect(keys.map(\.intValue) == [nil, 7, nil, nil])
            #expect(try decoder.container(keyedBy: Named.self).allKeys == [.a, .seven, .b])
            a = try c.decode(Int.self, forKey: keys[0])
            seven = try c.decode(String.self, forKey: keys[1])
            b = try c.decode(Bool.self, forKey: keys[2])
            z = try c.decode(Double.self, forKey: keys[3])
        }
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func fromBytesAndFromATree(_ format: BinaryFormat) throws {
        let decoder = BinaryDecoder(format: format)
        let data = try BinaryEncoder(format: format).encode([Mixed(), Mixed()])
        #expect(try decoder.decode([Mixed].self, from: data) == [Mixed(), Mixed()])
        #expect(
            try decoder.decode([Mixed].self, fromTree: decoder.decodeTree([Mixed].self, from: data)) == [
                Mixed(), Mixed(),
            ])
    }

    @Test func whileATranscodeRecords() throws {
        for (source, target) in [(BinaryFormat.v2, BinaryFormat.v3), (.v3, .v2)] {
            let input = try BinaryEncoder(format: source).encode([Mixed(), Mixed()])
            let output = try BinaryTranscoder(from: source, to: target).transcode([Mixed].self, from: input)
            #expect(output == (try BinaryEncoder(format: target).encode([Mixed(), Mixed()])), "\(source) -> \(target)")
        }
    }
}
