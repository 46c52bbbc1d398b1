import BinarySerialization
import Foundation
import Testing

// Two messages concatenated are one message merged (protobuf's rule): a oneof set in both keeps
// the member set last. The typed decode and the tree path (decodeTree, then encode(tree:)) must
// both keep that member, whatever the type reading the bytes knows of the oneof.
@Suite struct ProtobufOneOfMergeTests {
    struct Both: Codable, Equatable {
        var pick: Pick?
        enum Pick: Codable, Equatable, ProtobufOneOf {
            case number(Int64)
            case text(String)
            enum CodingKeys: Int, CodingKey { case number = 28, text = 29 }
        }
        enum CodingKeys: Int, CodingKey { case pick = 100 }
    }

    /// An older version of `Both` whose oneof has member 28 only: 29 is unknown to it.
    struct Older: Codable, Equatable {
        var pick: Pick?
        enum Pick: Codable, Equatable, ProtobufOneOf {
            case number(Int64)
            enum CodingKeys: Int, CodingKey { case number = 28 }
        }
        enum CodingKeys: Int, CodingKey { case pick = 100 }
    }

    /// `e00107`: member 28 = 7; `ea010178`: member 29 = "x".
    static let number7 = "e00107"
    static let textX = "ea010178"

    func throughTree<T: Codable>(_ type: T.Type, _ hex: String) throws -> Data {
        try ProtobufEncoder().encode(tree: ProtobufDecoder().decodeTree(T.self, from: Data(bytes(hex))))
    }

    @Test(arguments: [
        (number7 + textX, Both.Pick.text("x")),
        (textX + number7, Both.Pick.number(7)),
        (textX + number7 + textX, Both.Pick.text("x")),
        (number7 + textX + number7, Both.Pick.number(7)),
    ])
    func theLastMemberWinsOnBothPaths(hex: String, expected: Both.Pick) throws {
        #expect(try ProtobufDecoder().decode(Both.self, from: Data(bytes(hex))) == Both(pick: expected))
        let written = try throughTree(Both.self, hex)
        #expect(try ProtobufDecoder().decode(Both.self, from: written) == Both(pick: expected))
        // The tree holds the member that was set, not the one it replaced.
        let tree = try ProtobufDecoder().decodeTree(Both.self, from: Data(bytes(hex)))
        guard case .keyed(let fields) = tree else {
            Issue.record("not a message: \(tree)")
            return
        }
        #expect(fields.count == 1, "\(tree)")
    }

    /// A reader that does not know member 29 keeps it as an unknown field, where it stood
    /// relative to the member it knows: a newer reader of the written bytes reads what it would
    /// have read from the input.
    @Test(arguments: [
        (number7 + textX, Both.Pick.text("x")),
        (textX + number7, Both.Pick.number(7)),
        (textX + number7 + textX, Both.Pick.text("x")),
        (number7 + textX + number7, Both.Pick.number(7)),
    ])
    func unknownMembersKeepTheirPlace(hex: String, expected: Both.Pick) throws {
        let written = try throughTree(Older.self, hex)
        #expect(try ProtobufDecoder().decode(Both.self, from: written) == Both(pick: expected), "\(spacedHex(written))")
    }
}

// Found by the differential against Google's implementation (Interop/): setting another member
// clears a oneof, so a message member set again starts afresh; a map key stored twice keeps its
// last entry, unknown fields included.
@Suite struct ProtobufReferenceFindingsTests {
    struct Inner: Codable, Equatable {
        var a: Int32 = 0
        var b: String = ""
        enum CodingKeys: Int, CodingKey { case a = 1, b = 2 }
    }
    struct Root: Codable, Equatable {
        var choice: Choice?
        var byKey: [UInt64: Inner] = [:]
        enum Choice: Codable, Equatable, ProtobufOneOf {
            case number(Int32)
            case inner(Inner)
            enum CodingKeys: Int, CodingKey { case number = 10, inner = 12 }
        }
        enum CodingKeys: Int, CodingKey { case choice = 100, byKey = 3 }
    }

    func throughTree(_ hex: String) throws -> Data {
        try ProtobufEncoder().encode(tree: ProtobufDecoder().decodeTree(Root.self, from: Data(bytes(hex))))
    }

    @Test func aMessageMemberSetAgainAfterAnotherStartsAfresh() throws {
        // 12 = Inner{a: 1}, 10 = 5, 12 = Inner{b: "x"}: Google reads Inner{b: "x"}.
        let hex = "6202080150056203120178"
        let expected = Root(choice: .inner(Inner(a: 0, b: "x")))
        #expect(try ProtobufDecoder().decode(Root.self, from: Data(bytes(hex))) == expected)
        #expect(try spacedHex(throughTree(hex)) == spacedHex(Data(bytes("6203120178"))))
        // The first value's unknown field (39) goes with it.
        #expect(try spacedHex(throughTree("6203b80201500562020801")) == spacedHex(Data(bytes("62020801"))))
        // The same member twice with nothing between: merged.
        #expect(
            try ProtobufDecoder().decode(Root.self, from: Data(bytes("620208016203120178")))
                == Root(choice: .inner(Inner(a: 1, b: "x"))))
    }

    @Test func aMapKeyStoredTwiceKeepsItsLastEntryInTheTree() throws {
        // [1: Inner{unknown 39 = 1}], then [1: Inner{}]: the last entry, without the unknown field.
        let withUnknown = "1a 07 08 01 12 03 b8 02 01"
        let plain = "1a 04 08 01 12 00"
        #expect(try spacedHex(throughTree(withUnknown + plain)) == spacedHex(Data(bytes(plain))))
        #expect(try spacedHex(throughTree(plain + withUnknown)) == spacedHex(Data(bytes(withUnknown))))
    }

    @Test func aFieldAcrossTwoOccurrencesOfAMessageIsKept() throws {
        // Found by the protobuf fuzzer: member 12 (Inner) stored as `88` then `01 05`. Merged, the
        // two are one message holding field 17 = 5, unknown to Inner, which begins in the first
        // occurrence and ends in the second: the tree keeps it whole.
        let hex = "62 01 88 62 02 01 05"
        let decoder = ProtobufDecoder()
        #expect(try decoder.decode(Root.self, from: Data(bytes(hex))) == Root(choice: .inner(Inner())))
        #expect(try spacedHex(throughTree(hex)) == spacedHex(Data(bytes("62 03 88 01 05"))))
    }

    @Test func aOneOfInsideAMergedMessageKeepsOnlyItsMember() throws {
        // Found by the protobuf fuzzer: the root's member 2 stored twice, merged into one Expr whose
        // own oneof is set to member 2, then member 1, then member 2 again. The tree holds that
        // member only (the decoder read member 1 there, in the merged copy, and replaced it).
        typealias Expr = ProtobufDepthRuleTests.Expr
        let hex = "12 06 12 02 08 01 08 05 12 04 12 02 08 07"
        let decoder = ProtobufDecoder()
        let expected = Expr(op: .negate(Expr(op: .negate(Expr(op: .number(7))))))
        #expect(try decoder.decode(Expr.self, from: Data(bytes(hex))) == expected)
        let written = try ProtobufEncoder().encode(tree: decoder.decodeTree(Expr.self, from: Data(bytes(hex))))
        #expect(spacedHex(written) == "12 04 12 02 08 07")
    }

    @Test func aMapKeyWrittenLongerThanNeededFindsItsEntry() throws {
        // Key 1 written as `81 00`: its value's unknown field 39 is kept all the same.
        #expect(
            try spacedHex(throughTree("1a 08 08 81 00 12 03 b8 02 01"))
                == spacedHex(Data(bytes("1a 07 08 01 12 03 b8 02 01"))))
    }
}
