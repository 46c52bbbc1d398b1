import Foundation
import Testing

@testable import BinarySerialization

// A value streamed by the engine into ProtobufSink against its protobuf tree (ProtobufTreeBuilder)
// replayed into the same sink: the same bytes for every value, and the stream must take every
// value proto3 can express here (none falls back to the tree). The bytes themselves are checked
// by the golden tests and, against swift-protobuf and Google's implementation, in Interop/.
@Suite struct ProtobufStreamDifferentialTests {
    struct Scalars: Codable, Equatable {
        var i32: Int32, i64: Int64, int: Int, u32: UInt32, u64: UInt64, uint: UInt
        var flag: Bool, f: Float, d: Double, text: String, blob: Data
        @SignedValue var s64: Int64
        @FixedSizeEncoded var fx32: UInt32
        @FixedSizeEncoded var sfx64: Int64
        @VariableLengthEncoded var v32: Int32
        enum CodingKeys: Int, CodingKey {
            case i32 = 1, i64, int, u32, u64, uint, flag, f, d, text, blob, s64, fx32, sfx64, v32
        }
    }

    struct Optionals: Codable, Equatable {
        var a: Int32?, b: String?, c: Bool?, d: Double?, e: PBInner?, f: PBColor?
        @SignedValue var g: Int32
        enum CodingKeys: Int, CodingKey { case a = 1, b, c, d, e, f, g }
    }

    struct Repeated: Codable, Equatable {
        var ints: [Int32], longs: [Int], unsigned: [UInt64], bools: [Bool], floats: [Float], doubles: [Double]
        var strings: [String], blobs: [Data], inners: [PBInner], colors: [PBColor], signed: [SignedValue<Int32>]
        var set: Set<Int32>, names: Set<String>
        enum CodingKeys: Int, CodingKey {
            case ints = 1, longs, unsigned, bools, floats, doubles, strings, blobs, inners, colors, signed, set, names
        }
    }

    struct Maps: Codable, Equatable {
        var byName: [String: Int32], byNumber: [Int: PBInner], words: [String: String], numbered: [String: Double]
        enum CodingKeys: Int, CodingKey { case byName = 1, byNumber = 2, words = 3, numbered = 4 }
    }

    struct Choice: Codable, Equatable {
        var id: Int32
        var pick: PBChoice.Pick?
        var other: Other
        enum Other: Codable, Equatable, ProtobufOneOf {
            case flag(Bool)
            case big(UInt64)
            case message(PBInner)
            enum CodingKeys: Int, CodingKey { case flag = 20, big = 21, message = 22 }
        }
        enum CodingKeys: Int, CodingKey { case id = 1, pick = 100, other = 101 }
    }

    struct Nested: Codable, Equatable {
        var value: Int32
        var children: [Nested]
        var outer: PBOuter?
        enum CodingKeys: Int, CodingKey { case value = 1, children, outer }
    }

    struct Generator {
        var rng: SplitMix64

        mutating func next() -> UInt64 { rng.next() }
        mutating func chance(_ n: UInt64) -> Bool { next() % n == 0 }
        /// Small and large values, zero and the bounds often.
        mutating func int<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T {
            switch next() % 6 {
            case 0: return 0
            case 1: return T.min
            case 2: return T.max
            case 3: return T(truncatingIfNeeded: Int64(next() % 200) - 100)
            default: return T(truncatingIfNeeded: next())
            }
        }
        mutating func double() -> Double {
            switch next() % 5 {
            case 0: return 0
            case 1: return -0.0
            case 2: return .infinity
            default: return Double(bitPattern: next() & 0x7fef_ffff_ffff_ffff) * (chance(2) ? 1 : -1)
            }
        }
        mutating func string() -> String {
            let pieces = ["", "a", "é", "日本", "🦊", "x y", "0", "\u{0}"]
            return (0..<Int(next() % 4)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
        }
        mutating func data() -> Data { Data((0..<Int(next() % 5)).map { _ in UInt8(truncatingIfNeeded: next()) }) }
        mutating func list<T>(_ make: (inout Generator) -> T) -> [T] {
            (0..<Int(next() % 5)).map { _ in make(&self) }
        }
        mutating func inner() -> PBInner { PBInner(a: int(), b: int()) }
        mutating func color() -> PBColor { [PBColor.unspecified, .red, .blue][Int(next() % 3)] }

        mutating func scalars() -> Scalars {
            Scalars(
                i32: int(), i64: int(), int: int(), u32: int(), u64: int(), uint: int(), flag: chance(2),
                f: Float(double()), d: double(), text: string(), blob: data(), s64: int(), fx32: int(),
                sfx64: int(), v32: int())
        }
        mutating func optionals() -> Optionals {
            Optionals(
                a: chance(2) ? int() : nil, b: chance(2) ? string() : nil, c: chance(2) ? chance(2) : nil,
                d: chance(2) ? double() : nil, e: chance(2) ? inner() : nil, f: chance(2) ? color() : nil, g: int())
        }
        mutating func repeated() -> Repeated {
            Repeated(
                ints: list { $0.int() }, longs: list { $0.int() }, unsigned: list { $0.int() },
                bools: list { $0.chance(2) }, floats: list { Float($0.double()) }, doubles: list { $0.double() },
                strings: list { $0.string() }, blobs: list { $0.data() }, inners: list { $0.inner() },
                colors: list { $0.color() }, signed: list { SignedValue(wrappedValue: $0.int()) },
                set: Set(list { $0.int() }), names: Set(list { $0.string() }))
        }
        mutating func maps() -> Maps {
            func dictionary<K: Hashable, V>(
                _ g: inout Generator, _ k: (inout Generator) -> K, _ v: (inout Generator) -> V
            ) -> [K: V] {
                var out: [K: V] = [:]
                for _ in 0..<Int(g.next() % 5) { out[k(&g)] = v(&g) }
                return out
            }
            return Maps(
                byName: dictionary(&self, { $0.string() }, { $0.int() }),
                byNumber: dictionary(&self, { $0.int() }, { $0.inner() }),
                words: dictionary(&self, { $0.string() }, { $0.string() }),
                numbered: dictionary(&self, { String($0.int(Int16.self)) }, { $0.double() }))
        }
        mutating func choice() -> Choice {
            let picks: [PBChoice.Pick?] = [nil, .number(int()), .text(string()), .inner(inner())]
            let others: [Choice.Other] = [.flag(chance(2)), .big(int()), .message(inner())]
            return Choice(id: int(), pick: picks[Int(next() % 4)], other: others[Int(next() % 3)])
        }
        mutating func nested(depth: Int = 0) -> Nested {
            Nested(
                value: int(), children: depth < 3 ? (0..<Int(next() % 3)).map { _ in nested(depth: depth + 1) } : [],
                outer: chance(2) ? PBOuter(name: string(), inner: inner(), more: chance(2) ? inner() : nil) : nil)
        }
    }

    /// The bytes of `value`, streamed, equal those of its tree (`encodeTree`, then `encode(tree:)`).
    func expectSameBytes<T: Encodable>(_ value: T, _ seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let streamed = try ProtobufEncoder().encode(value)
        let written = try ProtobufEncoder().encode(tree: ProtobufEncoder().encodeTree(value))
        #expect(spacedHex(streamed) == spacedHex(written), "seed \(seed): \(value)", sourceLocation: sourceLocation)
    }

    @Test func streamedBytesAreTheTreePathBytes() throws {
        let base = UInt64(ProcessInfo.processInfo.environment["PROTOBUF_SEED"] ?? "") ?? 0x5eed
        for i in 0..<1_000 {
            let seed = base &+ UInt64(i)
            var g = Generator(rng: SplitMix64(seed: seed))
            try expectSameBytes(g.scalars(), seed)
            try expectSameBytes(g.optionals(), seed)
            try expectSameBytes(g.repeated(), seed)
            try expectSameBytes(g.maps(), seed)
            try expectSameBytes(g.choice(), seed)
            try expectSameBytes(g.nested(), seed)
            try expectSameBytes(PBChoice(id: g.int(), pick: nil), seed)
        }
    }

    /// What proto3 cannot express is refused, with the rule and where it was broken.
    @Test func ruleBreakersAreRefusedWithTheirPath() {
        struct StringKeys: Encodable { var a = 1 }
        struct Small: Encodable {
            var a: Int8 = 1
            enum CodingKeys: Int, CodingKey { case a = 1 }
        }
        struct NilInList: Encodable {
            var a: [Int32?] = [1, nil]
            enum CodingKeys: Int, CodingKey { case a = 1 }
        }
        struct OptionalList: Encodable {
            var a: [Int32]? = [1]
            enum CodingKeys: Int, CodingKey { case a = 1 }
        }
        struct Nested: Encodable {
            var a: [[Int32]] = [[1]]
            enum CodingKeys: Int, CodingKey { case a = 1 }
        }
        // Each is refused by `encode` and `encodeTree` alike, with the same rule and path.
        func expectRefused<T: Encodable>(_ value: T, _ path: String, sourceLocation: SourceLocation = #_sourceLocation)
        {
            let failure = protobufEncodingFailure(value)
            #expect(failure?.0 != nil, "\(T.self): \(String(describing: failure))", sourceLocation: sourceLocation)
            #expect(failure?.1 == path, sourceLocation: sourceLocation)
            switch Result(catching: { try ProtobufEncoder().encodeTree(value) }) {
            case .success:
                Issue.record("encodeTree accepted \(T.self)", sourceLocation: sourceLocation)
            case .failure(EncodingError.invalidValue(_, let context)):
                #expect(
                    (context.underlyingError as? ProtobufEncodingError) == failure?.0, sourceLocation: sourceLocation)
            case .failure(let error):
                Issue.record("\(error)", sourceLocation: sourceLocation)
            }
        }
        expectRefused(StringKeys(), "a")
        expectRefused(Small(), "1")
        expectRefused(NilInList(), "1.0")  // an optional element, even a present one
        expectRefused(OptionalList(), "1")
        expectRefused(Nested(), "1.0")
        expectRefused(PB1(Int32(1)).value, "")
        expectRefused(PBChoice.Pick.number(1), "")
    }
}
