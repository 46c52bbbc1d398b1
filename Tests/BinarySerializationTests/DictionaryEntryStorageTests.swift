import BinarySerialization
import Foundation
import Testing

/// A dictionary frames its entries into the storage of the keyed container state at its depth,
/// reused from one dictionary to the next (an array of dictionaries frames each where the one
/// before it did). These cases would read another dictionary's entries if the storage were
/// reused while something still read it: nested dictionaries, dictionaries beside keyed
/// containers, a transcode that records the value first, and a decode after an error.
@Suite struct DictionaryEntryStorageTests {
    struct Shelf: Codable, Equatable {
        var label: String
        var counts: [String: Int]
        var names: [Int: String]
        var inner: [String: [String: Int]]
    }

    /// Sizes on both sides of the 16 entries where a container gets an index.
    static let sizes = [0, 1, 2, 15, 16, 17, 40, 300]

    static func dictionary(_ size: Int, _ seed: Int) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (0..<size).map { ("k\(seed)-\($0)\($0 % 7 == 0 ? "é" : "")", $0 * seed - 50) })
    }

    static let shelves: [Shelf] = sizes.enumerated().map { i, size in
        Shelf(
            label: "shelf \(i)", counts: dictionary(size, i),
            names: Dictionary(uniqueKeysWithValues: (0..<(size % 20)).map { ($0 * 3 + 1, "n\($0)") }),
            inner: Dictionary(uniqueKeysWithValues: (0..<(i % 4)).map { ("i\($0)", dictionary(size % 18, $0)) }))
    }

    static func decoder(_ setup: EncoderSetup) -> BinaryDecoder {
        var decoder = BinaryDecoder(format: setup.encoder.format)
        decoder.prependNilIndexSetForUnkeyedContainers = setup.encoder.prependNilIndexSetForUnkeyedContainers
        return decoder
    }

    @Test(arguments: EncoderSetup.all)
    func arraysOfDictionariesBesideKeyedContainers(_ setup: EncoderSetup) throws {
        let decoder = Self.decoder(setup)
        let plain = Self.sizes.enumerated().map { Self.dictionary($1, $0) }
        #expect(try decoder.decode([[String: Int]].self, from: setup.encoder.encode(plain)) == plain)
        let data = try setup.encoder.encode(Self.shelves)
        #expect(try decoder.decode([Shelf].self, from: data) == Self.shelves)
        // The same decoder again: the states and their storage come back from the last run.
        #expect(try decoder.decode([Shelf].self, from: data) == Self.shelves)
        #expect(
            try decoder.decode([Shelf].self, fromTree: decoder.decodeTree([Shelf].self, from: data)) == Self.shelves)
    }

    /// Reads its last field first: a recording keeps every field read (each dictionary's entries
    /// among them) until it writes the target bytes.
    struct LastFieldFirst: Codable, Equatable {
        var shelves: [Shelf]
        var more: [[String: Int]]
        var last: Int

        enum CodingKeys: String, CodingKey { case shelves, more, last }

        init(shelves: [Shelf], more: [[String: Int]], last: Int) {
            (self.shelves, self.more, self.last) = (shelves, more, last)
        }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            last = try c.decode(Int.self, forKey: .last)
            more = try c.decode([[String: Int]].self, forKey: .more)
            shelves = try c.decode([Shelf].self, forKey: .shelves)
        }
    }

    @Test func aRecordedTranscodeKeepsEveryDictionarysEntries() throws {
        let value = LastFieldFirst(
            shelves: Self.shelves, more: Self.sizes.map { Self.dictionary($0, $0 + 3) }, last: 42)
        for (source, target) in [(BinaryFormat.v2, BinaryFormat.v3), (.v3, .v2)] {
            let transcoder = BinaryTranscoder(from: source, to: target)
            let input = try BinaryEncoder(format: source).encode(value)
            // A type that only decodes is written as it read: the value's bytes; the transcode
            // of the `Codable` type (decoded and encoded) the same value, its dictionaries in
            // their iteration order.
            let output = try transcoder.transcode(LastFieldFirst.self, from: input)
            let recorded = try transcoder.transcode(DecodeOnly<LastFieldFirst>.self, from: input)
            #expect(recorded == (try BinaryEncoder(format: target).encode(value)), "\(source) -> \(target)")
            #expect(
                try BinaryDecoder(format: target).decode(LastFieldFirst.self, from: output)
                    == BinaryDecoder(format: target).decode(LastFieldFirst.self, from: recorded),
                "\(source) -> \(target)")
        }
    }

    /// `[["a": 1], ["a": 2, "b": 3]]` in v3 with the second dictionary's "b" changed to "a": the
    /// error names the second dictionary, and the decoder's next run reads correctly.
    @Test func aRepeatedKeyInALaterDictionaryThenAnotherRun() throws {
        let decoder = BinaryDecoder(format: .v3)
        let good: [[String: Int]] = [["a": 1], ["a": 2, "b": 3]]
        var bytes = [UInt8](try BinaryEncoder(format: .v3).encode(good))
        let b = try #require(bytes.firstIndex(of: UInt8(ascii: "b")))
        bytes[b] = UInt8(ascii: "a")
        do {
            _ = try decoder.decode([[String: Int]].self, from: Data(bytes))
            Issue.record("a repeated key was accepted")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.first?.intValue == 1, "\(context.codingPath)")
        }
        let many = Self.sizes.map { Self.dictionary($0, 5) }
        #expect(try decoder.decode([[String: Int]].self, from: BinaryEncoder(format: .v3).encode(many)) == many)
    }
}
