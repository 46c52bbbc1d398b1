import BinarySerialization
import Foundation
import Testing

// decodeTree keeps the fields the type does not know, so decodeTree -> encode(tree:) loses nothing.
@Suite struct ProtobufTreeTests {
    struct InnerV2: Codable, Equatable {
        var a: Int32 = 0
        var extra: String = ""
        enum CodingKeys: Int, CodingKey { case a = 1, extra = 9 }
    }
    struct InnerV1: Codable, Equatable {
        var a: Int32 = 0
        enum CodingKeys: Int, CodingKey { case a = 1 }
    }
    struct V2: Codable, Equatable {
        var id: Int64 = 0
        var inner = InnerV2()
        var list: [InnerV2] = []
        var map: [String: InnerV2] = [:]
        var added: [Int32] = []
        var note: String = ""
        enum CodingKeys: Int, CodingKey { case id = 1, inner = 2, list = 3, map = 4, added = 5, note = 6 }
    }
    struct V1: Codable, Equatable {
        var id: Int64 = 0
        var inner = InnerV1()
        var list: [InnerV1] = []
        var map: [String: InnerV1] = [:]
        enum CodingKeys: Int, CodingKey { case id = 1, inner = 2, list = 3, map = 4 }
    }

    @Test func unknownFieldsSurviveATreeRoundTrip() throws {
        let newer = V2(
            id: 7, inner: InnerV2(a: 1, extra: "x"), list: [InnerV2(a: 2, extra: "y"), InnerV2(a: 3)],
            map: ["k": InnerV2(a: 4, extra: "z")], added: [1, 2, 3], note: "hello")
        let data = try ProtobufEncoder().encode(newer)
        let tree = try ProtobufDecoder().decodeTree(V1.self, from: data)
        let written = try ProtobufEncoder().encode(tree: tree)
        #expect(try ProtobufDecoder().decode(V2.self, from: written) == newer)
        #expect(written == data)  // unknown fields come last in both, in the same order
        #expect(try ProtobufDecoder().decode(V1.self, fromTree: tree) == ProtobufDecoder().decode(V1.self, from: data))
    }

    @Test func treeOfKnownFieldsEqualsEncodeTree() throws {
        let value = PBChoice(id: 3, pick: .inner(PBInner(a: 1)))
        let encoder = ProtobufEncoder()
        let tree = try ProtobufDecoder().decodeTree(PBChoice.self, from: encoder.encode(value))
        #expect(tree == (try encoder.encodeTree(value)))
        // The tree names the proto types: an int32, a oneof member with presence.
        #expect(tree[1] == .int32(3, .varint))
        guard case .optional(.keyed(let member)?)? = tree[4] else {
            Issue.record("member 4 is not an optional message: \(tree)")
            return
        }
        #expect(member[BinaryKey(intValue: 1)] == .int32(1, .varint))
        #expect(member[BinaryKey(intValue: 2)] == .int32(0, .varint))  // kept in the tree, not written
    }
}
