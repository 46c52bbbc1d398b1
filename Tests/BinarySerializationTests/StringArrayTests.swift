import BinarySerialization
import Foundation
import Testing

/// `[String]` is read in one loop by each format; the loop gives the element-by-element path's
/// answers: values, and errors that name the element.
@Suite struct StringArrayTests {
    static let values: [[String]] = [[], [""], ["a", "", "é", "😀", String(repeating: "x", count: 300)]]

    @Test(arguments: [BinaryFormat.v3, .v2], [false, true])
    func stringArraysMatchTheElementPath(_ format: BinaryFormat, _ nilIndexSets: Bool) throws {
        guard format == .v2 || !nilIndexSets else { return }
        var encoder = BinaryEncoder(format: format)
        encoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        var decoder = BinaryDecoder(format: format)
        decoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        for value in Self.values {
            let data = try encoder.encode(value)
            #expect(try decoder.decode([String].self, from: data) == value)
            // decodeTree reads them in the same loop and records what the element path would:
            // an unkeyed container of string leaves, which decodes to the same value.
            let tree = try decoder.decodeTree([String].self, from: data)
            #expect(tree == .unkeyed(value.map { .string($0) }))
            #expect(try decoder.decode([String].self, fromTree: tree) == value)
            #expect(try decoder.decode([[String]].self, from: encoder.encode([value, value])) == [value, value])
        }
    }

    struct Tagged: Codable, Equatable {
        var tags: [String]
        var count: UInt8
    }

    /// An array of strings as a field, unsorted (the streamed path, which hands the sink the
    /// whole array), in each format: bytes worked out from the format descriptions.
    @Test(arguments: [
        (BinaryFormat.v3, false, "09 74 61 67 73  0c  02 61  00  04 62 63  0b 63 6f 75 6e 74  02 07"),
        (.v2, false, "4a 74 61 67 73  06  01 61  00  02 62 63  5e 63 6f 75 6e 74  07"),
        (.v2, true, "4a 74 61 67 73  07  00  01 61  00  02 62 63  5e 63 6f 75 6e 74  07"),
    ])
    func stringArrayFieldGoldenBytes(_ format: BinaryFormat, _ nilIndexSets: Bool, _ hex: String) throws {
        var encoder = BinaryEncoder(format: format)
        encoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        var decoder = BinaryDecoder(format: format)
        decoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        let value = Tagged(tags: ["a", "", "bc"], count: 7)
        #expect(spacedHex(Array(try encoder.encode(value))) == spacedHex(bytes(hex)))
        #expect(spacedHex(Array(try encoder.encode(tree: encoder.encodeTree(value)))) == spacedHex(bytes(hex)))
        #expect(try decoder.decode(Tagged.self, from: bytes(hex)) == value)
    }

    @Test func errorsNameTheElement() throws {
        // v3: "a", then invalid UTF-8 (c3 28), then a nil element.
        let v3 = BinaryDecoder()
        let badUTF8 = #expect(throws: DecodingError.self) {
            try v3.decode([String].self, from: bytes("02 61  04 c3 28"))
        }
        #expect(badUTF8?.pathStrings == ["Index 1"])
        let treeBadUTF8 = #expect(throws: DecodingError.self) {
            try v3.decodeTree([String].self, from: Data(bytes("02 61  04 c3 28")))
        }
        #expect(treeBadUTF8?.pathStrings == ["Index 1"])
        let nilElement = #expect(throws: DecodingError.self) { try v3.decode([String].self, from: bytes("02 61  01")) }
        #expect(nilElement?.caseName == "valueNotFound" && nilElement?.pathStrings == ["Index 1"])
        let truncated = #expect(throws: DecodingError.self) {
            try v3.decode([String].self, from: bytes("02 61  08 61"))
        }
        #expect(truncated?.pathStrings == ["Index 1"])
        // v2: length-prefixed elements; with nil index sets, a nil is named by its index.
        let v2 = BinaryDecoder(format: .v2)
        let v2Bad = #expect(throws: DecodingError.self) { try v2.decode([String].self, from: bytes("01 61  02 c3 28")) }
        #expect(v2Bad?.pathStrings == ["Index 1"])
        var sets = BinaryDecoder(format: .v2)
        sets.prependNilIndexSetForUnkeyedContainers = true
        let v2Nil = #expect(throws: DecodingError.self) { try sets.decode([String].self, from: bytes("01 01  01 61")) }
        #expect(v2Nil?.caseName == "valueNotFound" && v2Nil?.pathStrings == ["Index 1"])
    }
}
