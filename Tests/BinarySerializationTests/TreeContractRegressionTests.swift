import BinarySerialization
import Foundation
import Testing

/// Issue 32's examples: an edit of the tree is kept exactly or refused, keys and positions never
/// share a subscript, and v2's tree holds what v2 stores.
@Suite struct TreeContractRegressionTests {
    struct S: Codable, Equatable {
        var n: UInt32
        var small: Int16
        var d: Double
        var f: Float
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func literalEditsOfNonIntFieldsKeepTheirTypes(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        let decoder = BinaryDecoder(format: format)
        var t = try encoder.encodeTree(S(n: 1, small: 3, d: 1.5, f: 2.5))
        t["n"] = 5
        t["small"] = 5
        t["d"] = 2
        t["f"] = 2.0
        #expect(t["n"] == .uint32(5, .varint))
        #expect(t["small"] == .int16(5, .fixed))
        #expect(t["d"] == .double(2))
        #expect(t["f"] == .float(2))
        let expected = S(n: 5, small: 5, d: 2, f: 2)
        #expect(try decoder.decode(S.self, fromTree: t) == expected)
        #expect(try decoder.decode(S.self, from: encoder.encode(tree: t)) == expected)
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func aLeafOfAnotherTypeIsRefusedByTheTreeAsByTheBytes(_ format: BinaryFormat) throws {
        let decoder = BinaryDecoder(format: format)
        var t = try BinaryEncoder(format: format).encodeTree(S(n: 1, small: 3, d: 1.5, f: 2.5))
        // setValue refuses what does not fit; the subscript stores it as given, a type change.
        let refused = #expect(throws: BinaryValue.EditError.self) { try t.setValue(-1, forKey: "n") }
        #expect(refused?.code == .typeMismatch)
        #expect(t["n"] == .uint32(1))
        for (key, leaf) in [("n", .int(5)), ("small", .int(5)), ("d", .int(2)), ("f", .double(2))]
            as [(BinaryKey, BinaryValue)]
        {
            var edited = t
            try edited.removeValue(forKey: key)
            try edited.setValue(leaf, forKey: key)
            #expect(throws: DecodingError.self, "\(key) = \(leaf)") { try decoder.decode(S.self, fromTree: edited) }
        }
        t["n"] = -1
        #expect(t["n"] == .int(-1))
        #expect(throws: DecodingError.self) { try decoder.decode(S.self, fromTree: t) }
    }

    struct Message: Codable, Equatable {
        var name: String
        var count: UInt8
        var note: String?
        enum CodingKeys: Int, CodingKey {
            case name = 4
            case count = 6
            case note = 12
        }
    }

    struct Inbox: Codable, Equatable {
        var messages: [Message]
    }

    @Test func integerKeysAreKeysNeverPositions() throws {
        var tree = try BinaryEncoder().encodeTree(Message(name: "a", count: 1, note: nil))
        #expect(tree[4] == "a")
        #expect(tree[key: 4] == "a")
        #expect(tree[Message.CodingKeys.count] == .uint8(1))
        #expect(tree[position: 0] == nil)
        tree[12] = "added"
        tree[Message.CodingKeys.count] = 9
        #expect(try BinaryDecoder().decode(Message.self, fromTree: tree) == Message(name: "a", count: 9, note: "added"))
        tree[6] = nil
        #expect(tree[6] == nil)
        #expect(throws: DecodingError.self) { try BinaryDecoder().decode(Message.self, fromTree: tree) }

        var inbox = try BinaryEncoder().encodeTree(Inbox(messages: [Message(name: "x", count: 2, note: nil)]))
        #expect(inbox["messages"]?[position: 0]?[4] == "x")
        try inbox["messages"]?.modifyElement(at: 0) { $0[4] = "y" }
        try inbox["messages"]?.append(["name": "ignored"])
        try inbox["messages"]?.removeElement(at: 1)
        let back = try BinaryDecoder().decode(Inbox.self, from: BinaryEncoder().encode(tree: inbox))
        #expect(back == Inbox(messages: [Message(name: "y", count: 2, note: nil)]))
    }

    @Test func keyedFieldsKeysAreKeysNeverPositions() throws {
        let tree = try BinaryEncoder().encodeTree(Message(name: "a", count: 1, note: "n"))
        guard case .keyed(var fields) = tree else {
            Issue.record("not keyed: \(tree)")
            return
        }
        #expect(fields[4] == "a")
        #expect(fields[12] == "n")
        #expect(fields.fields[0].key == 4)
        fields[6] = 3
        #expect(fields[6] == .uint8(3))
        fields[12] = nil
        #expect(fields.keys == [4, 6])
        let decoded = try BinaryDecoder().decode(Message.self, fromTree: .keyed(fields))
        #expect(decoded == Message(name: "a", count: 3, note: nil))
    }

    struct Named: Codable, Equatable {
        var title: String
        var size: UInt16
        var ids: [UInt32]
        enum CodingKeys: String, CodingKey { case title, size, ids }
    }

    @Test func everyKeySubscriptWritesWithStringAndIntKeys() throws {
        var tree = try BinaryEncoder().encodeTree(Named(title: "a", size: 1, ids: [1]))
        let title = "title"
        tree[key: title] = "b"
        tree[Named.CodingKeys.size] = 2
        tree["ids"] = [7, 8]
        #expect(tree[key: title] == "b")
        #expect(tree[Named.CodingKeys.size] == .uint16(2))
        #expect(tree["ids"] == .packed(.uint32([7, 8])))
        #expect(tree["ids"]?[position: 1] == .uint32(8))
        let back = try BinaryDecoder().decode(Named.self, from: BinaryEncoder().encode(tree: tree))
        #expect(back == Named(title: "b", size: 2, ids: [7, 8]))

        var message = try BinaryEncoder().encodeTree(Message(name: "a", count: 1, note: nil))
        let noteKey = 12
        message[key: noteKey] = "n"
        message[key: 6] = 4
        #expect(message[key: noteKey] == "n")
        #expect(message[6] == .uint8(4))
        message[key: noteKey] = nil
        #expect(try BinaryDecoder().decode(Message.self, fromTree: message) == Message(name: "a", count: 4, note: nil))
    }

    struct Maybe: Codable, Equatable {
        var maybeMaybe: String??
    }

    @Test func v2TreesHoldWhatV2Stores() throws {
        let value = Maybe(maybeMaybe: .some(nil))
        let encoder = BinaryEncoder(format: .v2)
        let decoder = BinaryDecoder(format: .v2)
        let tree = try encoder.encodeTree(value)
        #expect(tree == .emptyKeyed)
        #expect(try decoder.decodeTree(Maybe.self, from: encoder.encode(value)) == tree)
        // A nil field put in by hand reads as v2 would read its bytes: absent.
        let handBuilt: BinaryValue = ["maybeMaybe": .optional(nil)]
        #expect(try decoder.decode(Maybe.self, fromTree: handBuilt) == Maybe(maybeMaybe: nil))
        #expect(try decoder.decode(Maybe.self, from: encoder.encode(tree: handBuilt)) == Maybe(maybeMaybe: nil))
        // v3 stores it.
        let v3Tree = try BinaryEncoder().encodeTree(value)
        #expect(v3Tree == ["maybeMaybe": .optional(nil)])
        #expect(try BinaryDecoder().decode(Maybe.self, fromTree: v3Tree) == value)
    }
}
