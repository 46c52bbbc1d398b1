import BinarySerialization
import Foundation
import Testing

// One depth rule both ways (found by the protobuf fuzzer, Fuzz/crashers/protobuf-nesting-*): the
// decoder accepts `maximumDepth` messages nested below the top level; whatever it accepts is
// written back, as a value and as a tree, and one level more is refused both ways.
@Suite struct ProtobufDepthRuleTests {
    struct Node: Codable, Equatable {
        var value: Int32 = 0
        var children: [Node] = []
        enum CodingKeys: Int, CodingKey { case value = 1, children = 3 }
    }

    struct Expr: Codable, Equatable {
        var op: Op?
        indirect enum Op: Codable, Equatable, ProtobufOneOf {
            case number(Int64)
            case negate(Expr)
            enum CodingKeys: Int, CodingKey { case number = 1, negate = 2 }
        }
        enum CodingKeys: Int, CodingKey { case op = 100 }
    }

    /// `levels` messages nested below the top level, each the only child of the one above.
    static func chain(_ levels: Int) -> Node {
        var node = Node(value: 1)
        for _ in 0..<levels { node = Node(value: 0, children: [node]) }
        return node
    }

    static func negations(_ levels: Int) -> Expr {
        var expr = Expr(op: .number(7))
        for _ in 0..<levels { expr = Expr(op: .negate(expr)) }
        return expr
    }

    /// The bytes of `levels` nested messages, written by hand (field 3 of Node, or member 2 of Expr):
    /// what another writer may send.
    static func nestedBytes(_ levels: Int, field tag: UInt8) -> Data {
        var inner: [UInt8] = []
        for _ in 0..<levels { inner = [tag] + base128Varint(UInt64(inner.count)) + inner }
        return Data(inner)
    }

    func roundTrips<T: Codable & Equatable>(_ type: T.Type, _ data: Data, limit: Int) throws -> Bool {
        var decoder = ProtobufDecoder()
        decoder.maximumDepth = limit
        var encoder = ProtobufEncoder()
        encoder.maximumDepth = limit
        let value = try decoder.decode(T.self, from: data)
        let written = try encoder.encode(value)
        let tree = try decoder.decodeTree(T.self, from: data)
        return try decoder.decode(T.self, from: written) == value && encoder.encode(tree: tree) == written
            && encoder.encode(tree: encoder.encodeTree(value)) == written
    }

    @Test(arguments: [3, 100])
    func whatIsDecodedIsWritten(limit: Int) throws {
        #expect(try roundTrips(Node.self, Self.nestedBytes(limit, field: 0x1a), limit: limit))
        #expect(try roundTrips(Expr.self, Self.nestedBytes(limit, field: 0x12), limit: limit))
        var encoder = ProtobufEncoder()
        encoder.maximumDepth = limit
        #expect(try encoder.encode(Self.chain(limit)).count > 0)
        #expect(try encoder.encode(Self.negations(limit)).count > 0)
    }

    @Test(arguments: [3, 100])
    func oneLevelMoreIsRefusedBothWays(limit: Int) {
        var decoder = ProtobufDecoder()
        decoder.maximumDepth = limit
        var encoder = ProtobufEncoder()
        encoder.maximumDepth = limit
        #expect(throws: DecodingError.self) {
            try decoder.decode(Node.self, from: Self.nestedBytes(limit + 1, field: 0x1a))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(Expr.self, from: Self.nestedBytes(limit + 1, field: 0x12))
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Self.chain(limit + 1)) }
        #expect(throws: EncodingError.self) { try encoder.encode(Self.negations(limit + 1)) }
        #expect(throws: EncodingError.self) { try encoder.encodeTree(Self.chain(limit + 1)) }
    }
}
