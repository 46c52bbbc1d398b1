import Foundation
import BinarySerialization

// FUZZ_MODE=protobuf: ProtobufDecoder (the one decoder with ProtobufFormat), decodeTree +
// encode(tree:), and decodeRaw, on protobuf messages of the types below. FUZZ_MODE=protobuf-seeds writes the seed corpus from generated values.
//
// Input: a selector byte, then the message bytes. Selector:
//   bits 0-1   how `decode` reads: 0 `[UInt8]`; 1 `Data`; 2 a `Data` slice with a non-zero
//              `startIndex`; 3 `[UInt8]` with `maximumDepth = 3` (decodeTree and decodeRaw use
//              the same decoder)
//   bits 2-7   the type: `protobufCases[(selector >> 2) % protobufCases.count]` (append only)

// MARK: - Types

enum PColor: Int32, Codable, Hashable { case unspecified = 0, red = 1, blue = 2, big = 100_000, negative = -1 }

/// No case for 0: a missing non-optional field of this type is an error.
enum PLevel: Int, Codable, Hashable { case low = 1, high = 2, top = 1_000 }

struct PInner: Codable, Hashable {
    var a: Int32 = 0
    var b: String = ""
    enum CodingKeys: Int, CodingKey { case a = 1, b = 2 }
}

/// Every proto3 scalar type, one field each.
struct PScalars: Codable {
    var i32: Int32
    var i64: Int64
    var u32: UInt32
    var u64: UInt64
    @SignedValue var s32: Int32
    @SignedValue var s64: Int64
    @FixedSizeEncoded var fx32: UInt32
    @FixedSizeEncoded var fx64: UInt64
    @FixedSizeEncoded var sfx32: Int32
    @FixedSizeEncoded var sfx64: Int64
    var flag: Bool
    var f: Float
    var d: Double
    var text: String
    var blob: Data
    var int: Int
    var uint: UInt
    @SignedValue var sint: Int
    @ZigZagEncoded var zz: Int64
    @VariableLengthEncoded var v32: Int32
    @FixedSizeEncoded var fint: Int
    var color: PColor
    enum CodingKeys: Int, CodingKey {
        case i32 = 1, i64, u32, u64, s32, s64, fx32, fx64, sfx32, sfx64, flag, f, d, text, blob, int, uint, sint, zz, v32
        case fint = 1_000
        case color = 536_870_911  // the largest field number
    }
}

/// Fields with presence.
struct POptionals: Codable {
    var i32: Int32?
    var u64: UInt64?
    var flag: Bool?
    var f: Float?
    var d: Double?
    var text: String?
    var blob: Data?
    var s64: SignedValue<Int64>?
    var fx32: FixedSizeEncoded<UInt32>?
    var color: PColor?
    var level: PLevel?
    var inner: PInner?
    var int: Int?
    enum CodingKeys: Int, CodingKey { case i32 = 1, u64, flag, f, d, text, blob, s64, fx32, color, level, inner, int }
}

/// Repeated fields: numbers (packed), strings, bytes, messages, enums, sets.
struct PRepeated: Codable {
    var i32: [Int32]
    var i64: [Int64]
    var u32: [UInt32]
    var u64: [UInt64]
    var s32: [SignedValue<Int32>]
    var s64: [SignedValue<Int64>]
    var fx32: [FixedSizeEncoded<UInt32>]
    var sfx64: [FixedSizeEncoded<Int64>]
    var flags: [Bool]
    var floats: [Float]
    var doubles: [Double]
    var strings: [String]
    var blobs: [Data]
    var inners: [PInner]
    var colors: [PColor]
    var ints: [Int]
    var set: Set<Int32>
    var names: Set<String>
    enum CodingKeys: Int, CodingKey {
        case i32 = 1, i64, u32, u64, s32, s64, fx32, sfx64, flags, floats, doubles, strings, blobs, inners, colors, ints
        case set, names
    }
}

/// Maps with string, integer and bool keys; scalar, enum and message values.
struct PMaps: Codable {
    var byName: [String: Int32]
    var byId: [Int: String]
    var inners: [Int: PInner]
    var words: [String: String]
    var messages: [String: PInner]
    var u32: [UInt32: Double]
    var i32: [Int32: PColor]
    var i64: [Int64: Bool]
    var u64: [UInt64: Data]
    var flags: [Bool: Int64]
    var floats: [String: Float]
    enum CodingKeys: Int, CodingKey {
        case byName = 1, byId, inners, words, messages, u32, i32, i64, u64, flags, floats
    }
}

/// Oneofs: an optional one and a required one.
struct PChoice: Codable {
    var id: Int32
    var pick: Pick?
    var other: Other
    var tail: String
    enum Pick: Codable, ProtobufOneOf {
        case number(Int64)
        case text(String)
        case inner(PInner)
        case flag(Bool)
        case real(Double)
        case blob(Data)
        case signed(SignedValue<Int32>)
        case color(PColor)
        enum CodingKeys: Int, CodingKey { case number = 2, text, inner, flag, real, blob, signed, color }
    }
    enum Other: Codable, ProtobufOneOf {
        case big(UInt64)
        case message(PInner)
        case fixed(FixedSizeEncoded<UInt32>)
        enum CodingKeys: Int, CodingKey { case big = 20, message = 21, fixed = 22 }
    }
    enum CodingKeys: Int, CodingKey { case id = 1, pick = 100, other = 101, tail = 10 }
}

/// Recursion through repeated fields and map values.
struct PNode: Codable {
    var value: Int32
    var name: String
    var children: [PNode]
    var inner: PInner?
    var byKey: [Int32: PNode]
    enum CodingKeys: Int, CodingKey { case value = 1, name, children, inner, byKey }
}

/// All of the above as fields of one message.
struct PAll: Codable {
    var scalars: PScalars
    var optionals: POptionals?
    var repeated: PRepeated
    var maps: PMaps
    var choice: PChoice?
    var choices: [PChoice]
    var node: PNode?
    enum CodingKeys: Int, CodingKey { case scalars = 1, optionals, repeated, maps, choice, choices, node }
}

/// A required enum without a case for 0, a required message, a map of messages by `Int`.
struct PStrict: Codable {
    var level: PLevel
    var inner: PInner
    var byId: [Int: PInner]
    var levels: [PLevel]
    enum CodingKeys: Int, CodingKey { case level = 1, inner, byId, levels }
}

/// Recursion through a oneof (an expression tree, as protobuf schemas often have).
struct PExpr: Codable {
    var op: Op?
    var label: String
    indirect enum Op: Codable, ProtobufOneOf {
        case number(Int64)
        case negate(PExpr)
        case sum(PExprList)
        case text(String)
        enum CodingKeys: Int, CodingKey { case number = 1, negate, sum, text }
    }
    enum CodingKeys: Int, CodingKey { case op = 100, label = 10 }
}

struct PExprList: Codable {
    var terms: [PExpr]
    enum CodingKeys: Int, CodingKey { case terms = 1 }
}

// MARK: - Values (seeds)

/// Generated values for the seed corpus: zero, the bounds, NaN, -0.0 and odd strings often.
struct PGen {
    var rng: PlanRNG
    mutating func chance(_ n: Int) -> Bool { rng.below(n) == 0 }
    mutating func int<T: FixedWidthInteger>(_ type: T.Type = T.self) -> T {
        switch rng.below(7) {
        case 0: return 0
        case 1: return T.min
        case 2: return T.max
        case 3: return T(truncatingIfNeeded: Int64(rng.below(200)) - 100)
        case 4: return T(truncatingIfNeeded: UInt64(1) << UInt64(rng.below(64)))
        default: return T(truncatingIfNeeded: rng.next())
        }
    }
    mutating func double() -> Double {
        switch rng.below(8) {
        case 0: return 0
        case 1: return -0.0
        case 2: return .infinity
        case 3: return .nan
        case 4: return Double(bitPattern: rng.next())  // NaN payloads too
        case 5: return Double(rng.below(1000)) / 8
        default: return Double(bitPattern: rng.next() & 0x7fef_ffff_ffff_ffff) * (chance(2) ? 1 : -1)
        }
    }
    mutating func float() -> Float {
        rng.below(3) == 0 ? Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) : Float(double())
    }
    mutating func string() -> String {
        let pieces = ["", "a", "é", "日本", "🦊", "x y", "0", "\u{0}", "\u{7f}", "\"\\", "\u{FEFF}"]
        if chance(16) { return String(repeating: "long ", count: 40 + rng.below(40)) }
        return (0..<rng.below(4)).map { _ in pieces[rng.below(pieces.count)] }.joined()
    }
    mutating func data() -> Data {
        if chance(5) { return Data([0x08, 0x96, 0x01, 0x12, 0x01, 0x61]) }  // frames as a message
        return Data((0..<rng.below(8)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    }
    mutating func list<T>(_ max: Int = 5, _ make: (inout PGen) -> T) -> [T] {
        (0..<rng.below(max + 1)).map { _ in make(&self) }
    }
    mutating func dictionary<K: Hashable, V>(_ k: (inout PGen) -> K, _ v: (inout PGen) -> V) -> [K: V] {
        var out: [K: V] = [:]
        for _ in 0..<rng.below(5) { out[k(&self)] = v(&self) }
        return out
    }
    mutating func pick<T>(_ options: [T]) -> T { options[rng.below(options.count)] }
    mutating func maybe<T>(_ make: (inout PGen) -> T) -> T? { chance(2) ? nil : make(&self) }

    mutating func color() -> PColor { pick([.unspecified, .red, .blue, .big, .negative]) }
    mutating func level() -> PLevel { pick([.low, .high, .top]) }
    mutating func inner() -> PInner { PInner(a: int(), b: string()) }

    mutating func scalars() -> PScalars {
        PScalars(
            i32: int(), i64: int(), u32: int(), u64: int(), s32: int(), s64: int(), fx32: int(), fx64: int(),
            sfx32: int(), sfx64: int(), flag: chance(2), f: float(), d: double(), text: string(), blob: data(),
            int: int(), uint: int(), sint: int(), zz: int(), v32: int(), fint: int(), color: color())
    }
    mutating func optionals() -> POptionals {
        POptionals(
            i32: maybe { $0.int() }, u64: maybe { $0.int() }, flag: maybe { $0.chance(2) }, f: maybe { $0.float() },
            d: maybe { $0.double() }, text: maybe { $0.string() }, blob: maybe { $0.data() },
            s64: maybe { SignedValue(wrappedValue: $0.int()) }, fx32: maybe { FixedSizeEncoded(wrappedValue: $0.int()) },
            color: maybe { $0.color() }, level: maybe { $0.level() }, inner: maybe { $0.inner() },
            int: maybe { $0.int() })
    }
    mutating func repeated() -> PRepeated {
        PRepeated(
            i32: list { $0.int() }, i64: list { $0.int() }, u32: list { $0.int() }, u64: list { $0.int() },
            s32: list { SignedValue(wrappedValue: $0.int()) }, s64: list { SignedValue(wrappedValue: $0.int()) },
            fx32: list { FixedSizeEncoded(wrappedValue: $0.int()) },
            sfx64: list { FixedSizeEncoded(wrappedValue: $0.int()) }, flags: list { $0.chance(2) },
            floats: list { $0.float() }, doubles: list { $0.double() }, strings: list { $0.string() },
            blobs: list { $0.data() }, inners: list(3) { $0.inner() }, colors: list { $0.color() },
            ints: list { $0.int() }, set: Set(list { $0.int() }), names: Set(list { $0.string() }))
    }
    mutating func maps() -> PMaps {
        PMaps(
            byName: dictionary({ $0.string() }, { $0.int() }), byId: dictionary({ $0.int() }, { $0.string() }),
            inners: dictionary({ $0.int() }, { $0.inner() }), words: dictionary({ $0.string() }, { $0.string() }),
            messages: dictionary({ $0.string() }, { $0.inner() }), u32: dictionary({ $0.int() }, { $0.double() }),
            i32: dictionary({ $0.int() }, { $0.color() }), i64: dictionary({ $0.int() }, { $0.chance(2) }),
            u64: dictionary({ $0.int() }, { $0.data() }), flags: dictionary({ $0.chance(2) }, { $0.int() }),
            floats: dictionary({ $0.string() }, { $0.float() }))
    }
    mutating func choice() -> PChoice {
        let picks: [PChoice.Pick?] = [
            nil, .number(int()), .text(string()), .inner(inner()), .flag(chance(2)), .real(double()), .blob(data()),
            .signed(SignedValue(wrappedValue: int())), .color(color()),
        ]
        let others: [PChoice.Other] = [.big(int()), .message(inner()), .fixed(FixedSizeEncoded(wrappedValue: int()))]
        return PChoice(id: int(), pick: pick(picks), other: pick(others), tail: string())
    }
    mutating func node(depth: Int = 0) -> PNode {
        PNode(
            value: int(), name: string(), children: depth < 4 ? list(2) { $0.node(depth: depth + 1) } : [],
            inner: maybe { $0.inner() },
            byKey: depth < 3 && chance(3) ? dictionary({ $0.int() }, { $0.node(depth: depth + 2) }) : [:])
    }
    mutating func all() -> PAll {
        PAll(
            scalars: scalars(), optionals: maybe { $0.optionals() }, repeated: repeated(), maps: maps(),
            choice: maybe { $0.choice() }, choices: list(2) { $0.choice() }, node: maybe { $0.node(depth: 2) })
    }
    mutating func strict() -> PStrict {
        PStrict(level: level(), inner: inner(), byId: dictionary({ $0.int() }, { $0.inner() }), levels: list { $0.level() })
    }
    mutating func expr(depth: Int = 0) -> PExpr {
        let leaf: PExpr.Op? = chance(2) ? .number(int()) : chance(4) ? nil : .text(string())
        let op: PExpr.Op?
        switch depth < 4 ? rng.below(4) : 0 {
        case 1: op = .negate(expr(depth: depth + 1))
        case 2: op = .sum(PExprList(terms: list(3) { $0.expr(depth: depth + 1) }))
        default: op = leaf
        }
        return PExpr(op: op, label: chance(3) ? string() : "")
    }
    /// A chain of negations (near and past the depth limits).
    mutating func negations() -> PExpr {
        var e = PExpr(op: .number(int()), label: "")
        for _ in 0..<(pick([2, 3, 4, 33, 34, 49, 50, 99, 100])) { e = PExpr(op: .negate(e), label: "") }
        return e
    }
    /// A deep chain of nodes (near and past the depth limits).
    mutating func chain() -> PNode {
        var node = PNode(value: int(), name: "", children: [], inner: nil, byKey: [:])
        for _ in 0..<(pick([2, 3, 4, 5, 48, 99, 100, 101])) {
            node = PNode(value: int(), name: "", children: [node], inner: nil, byKey: [:])
        }
        return node
    }
}

// MARK: - Cases

struct ProtobufCase {
    let name: String
    let run: (PBFuzzInput) -> Void
    /// The bytes of a generated value (`nil`: the value did not encode).
    let seed: (inout PGen) -> Data?
}

func pcase<T: Codable>(_ name: String, _ type: T.Type, _ make: @escaping (inout PGen) -> T) -> ProtobufCase {
    ProtobufCase(
        name: name, run: { exerciseProtobuf(T.self, $0) },
        seed: { g in
            let value = make(&g)
            return try? ProtobufEncoder().encode(value)
        })
}

/// The case for selector `s` is `protobufCases[(s >> 2) % protobufCases.count]`. Append only.
nonisolated(unsafe) let protobufCases: [ProtobufCase] = [
    pcase("PScalars", PScalars.self) { $0.scalars() },  // 0
    pcase("POptionals", POptionals.self) { $0.optionals() },  // 1
    pcase("PRepeated", PRepeated.self) { $0.repeated() },  // 2
    pcase("PMaps", PMaps.self) { $0.maps() },  // 3
    pcase("PChoice", PChoice.self) { $0.choice() },  // 4
    pcase("PNode", PNode.self) { $0.chance(4) ? $0.chain() : $0.node() },  // 5
    pcase("PAll", PAll.self) { $0.all() },  // 6
    pcase("PInner", PInner.self) { $0.inner() },  // 7
    pcase("PStrict", PStrict.self) { $0.strict() },  // 8
    pcase("PExpr", PExpr.self) { $0.chance(4) ? $0.negations() : $0.expr() },  // 9
]

// MARK: - The check

struct PBFuzzInput {
    let selector: UInt8
    let bytes: [UInt8]
    /// Bits 0-1 of the selector: how `decode` reads (see the top of this file).
    var form: Int { Int(selector & 3) }
    var decoder: ProtobufDecoder {
        var d = ProtobufDecoder()
        if form == 3 { d.maximumDepth = 3 }
        return d
    }
    var formName: String { ["[UInt8]", "Data", "Data slice", "[UInt8], maximumDepth 3"][form] }
}

/// FUZZ_PROTOBUF_NESTING=0 (run.sh's default while crashers/protobuf-nesting-*.bin is open)
/// excuses a decoded value that the encoder (and so `decodeTree`) refuses with "nesting deeper
/// than the limit": the encoder counts nesting levels differently from the decoder (README.md,
/// "Findings"). Such inputs skip the checks that need the value's encoding. Any other refusal is
/// still a violation.
let checkProtobufNesting = ProcessInfo.processInfo.environment["FUZZ_PROTOBUF_NESTING"] != "0"

/// Whether `error` is the encoder's "nesting deeper than the limit" refusal.
func isNestingRefusal(_ error: any Error) -> Bool {
    guard case .invalidValue(_, let context)? = error as? EncodingError else { return false }
    return context.underlyingError as? ProtobufEncodingError == .unsupportedType("nesting")
}

@inline(never)
func protobufViolation<T>(_ type: T.Type, _ what: String, _ input: PBFuzzInput) -> Never {
    fatalError(
        "FUZZ VIOLATION (protobuf, \(T.self), \(input.formName)): \(what); input (\(input.bytes.count) bytes): \(hex(input.bytes))")
}

/// For every input and type: `decode` returns or throws a `DecodingError`; a value re-encodes, and
/// those bytes decode to a value with the same encoding; `decodeTree` succeeds exactly when
/// `decode` does and `encode(tree:)` of it gives bytes that decode to a value with the same
/// encoding; `encode(tree: encodeTree(v))` is `encode(v)`; `decodeRaw` returns or throws a
/// `DecodingError`, reads what `decode` reads, and its `serialized()` decodes to the same value.
@inline(never)
func exerciseProtobuf<T: Codable>(_ type: T.Type, _ input: PBFuzzInput) {
    let decoder = input.decoder
    let data = Data(input.bytes)
    func fail(_ what: String) -> Never { protobufViolation(T.self, what, input) }
    func encode(_ value: T, _ what: String) -> Data {
        do { return try ProtobufEncoder().encode(value) } catch { fail("\(what) does not encode: \(error); value \(value)") }
    }
    /// What encoding `value` gives (for the messages).
    func encodeResult(_ value: T) -> String {
        do { return "encode(value) gives [\(hex(try ProtobufEncoder().encode(value)))]" } catch {
            return "encode(value) throws too: \(error)"
        }
    }
    var nestingRefused = false  // the known finding, excused (FUZZ_PROTOBUF_NESTING=0)

    // 1. decode: a value or a DecodingError.
    let value: T?
    do {
        switch input.form {
        case 1: value = try decoder.decode(T.self, from: data)
        case 2:
            var padded = Data([0xA5, 0x5A])
            padded.append(contentsOf: input.bytes)
            value = try decoder.decode(T.self, from: padded[2...])
        default: value = try decoder.decode(T.self, from: input.bytes)
        }
    } catch is DecodingError {
        value = nil
    } catch {
        fail("decode threw \(Swift.type(of: error)): \(error)")
    }

    // 2. decodeTree: the protobuf-only decoder, recording; succeeds exactly when decode does.
    let tree: BinaryValue?
    do {
        tree = try decoder.decodeTree(T.self, from: data)
    } catch let error as DecodingError {
        if let value { fail("decodeTree threw \(error), but decode gave \(value)") }
        tree = nil
    } catch let error as EncodingError {
        if let value {
            if !checkProtobufNesting && isNestingRefusal(error) {
                nestingRefused = true
            } else {
                fail("decodeTree threw \(error), but decode gave \(value); \(encodeResult(value))")
            }
        }
        tree = nil
    } catch {
        fail("decodeTree threw \(Swift.type(of: error)): \(error)")
    }
    if let tree {
        _ = tree.description
        if value == nil { fail("decodeTree gave \(tree), but decode threw") }
    }

    // 3. decodeRaw: read without the type.
    let raw: ProtobufRawMessage?
    do {
        raw = try decoder.decodeRaw(from: data)
    } catch is DecodingError {
        raw = nil
    } catch {
        fail("decodeRaw threw \(Swift.type(of: error)): \(error)")
    }
    var serialized: Data?
    if let raw {
        _ = raw.description
        let bytes = raw.serialized()
        serialized = bytes
        do {
            let again = try decoder.decodeRaw(from: bytes)
            if again.serialized() != bytes {
                fail("decodeRaw(serialized()) serialized gives [\(hex(again.serialized()))], not [\(hex(bytes))]")
            }
        } catch {
            fail("serialized() of decodeRaw gave [\(hex(bytes))], which decodeRaw does not read: \(error)")
        }
    }

    guard let value else { return }

    // 4. The value re-encodes, and its bytes decode to a value of the same bytes.
    if !checkProtobufNesting {
        do { _ = try ProtobufEncoder().encode(value) } catch where isNestingRefusal(error) { return } catch {}
    }
    let bytes = encode(value, "the decoded value")
    do {
        let again = try ProtobufDecoder().decode(T.self, from: bytes)
        let bytesAgain = encode(again, "the value decoded from [\(hex(bytes))]")
        if bytesAgain != bytes {
            fail("re-encoding is not stable: [\(hex(bytes))], decoded and encoded again [\(hex(bytesAgain))]; value \(value)")
        }
    } catch {
        fail("the decoded value encodes to [\(hex(bytes))], which does not decode: \(error); value \(value)")
    }
    // The streamed encoding is the tree's (documented: encode(tree: encodeTree(v)) == encode(v)).
    do {
        let viaTree = try ProtobufEncoder().encode(tree: ProtobufEncoder().encodeTree(value))
        if viaTree != bytes { fail("encode gave [\(hex(bytes))], encode(tree: encodeTree) [\(hex(viaTree))]") }
    } catch {
        fail("encode gave [\(hex(bytes))], encode(tree: encodeTree) threw \(error)")
    }

    // 5. The recorded tree (unknown fields kept) writes bytes that decode to the same value.
    if let tree {
        let written: Data
        do { written = try ProtobufEncoder().encode(tree: tree) } catch {
            fail("encode(tree:) of decodeTree threw \(error); tree \(tree)")
        }
        do {
            let fromTree = try ProtobufDecoder().decode(T.self, from: written)
            let b = encode(fromTree, "the value decoded from encode(tree:) [\(hex(written))]")
            if b != bytes {
                fail("decode gave a value encoding to [\(hex(bytes))]; encode(tree: decodeTree) gave [\(hex(written))], whose value encodes to [\(hex(b))]")
            }
        } catch {
            fail("encode(tree: decodeTree) gave [\(hex(written))], which does not decode: \(error); tree \(tree)")
        }
    } else if !nestingRefused {
        fail("unreachable: decodeTree checked above")
    }

    // 6. decodeRaw reads any message decode reads, and its serialized() (same fields, shortest
    //    varints) decodes to the same value.
    guard let serialized else { fail("decodeRaw threw, but decode gave \(value)") }
    do {
        let fromRaw = try decoder.decode(T.self, from: serialized)
        let b = encode(fromRaw, "the value decoded from decodeRaw's serialized() [\(hex(serialized))]")
        if b != bytes {
            fail("decodeRaw's serialized() [\(hex(serialized))] decodes to a value encoding to [\(hex(b))], not [\(hex(bytes))]")
        }
    } catch {
        fail("decodeRaw's serialized() [\(hex(serialized))] does not decode: \(error)")
    }
}

// MARK: - Seeds

/// FUZZ_MODE=protobuf-seeds: writes `seedsPerCase` generated messages of each type, each under
/// a selector of each input form (some also with the fields twice, reversed, or with unknown
/// fields of every wire type around them), to `$FUZZ_SEED_OUT`. Runs once per process.
func writeProtobufSeeds() {
    guard let dir = ProcessInfo.processInfo.environment["FUZZ_SEED_OUT"] else {
        fatalError("FUZZ_MODE=protobuf-seeds needs FUZZ_SEED_OUT=DIR")
    }
    let seedsPerCase = 24
    var written = 0
    var skipped = 0
    // Unknown fields 999...1003: varint, fixed64, fixed32, length-delimited, a group holding a varint.
    func tag(_ number: Int, _ wire: Int) -> [UInt8] { varint(UInt64(number << 3 | wire)) }
    let unknown: [UInt8] =
        tag(999, 0) + varint(150) + tag(1000, 1) + [1, 2, 3, 4, 5, 6, 7, 8] + tag(1001, 5) + [9, 8, 7, 6]
        + tag(1002, 2) + [3, 0x61, 0x62, 0x63] + tag(1003, 3) + tag(1, 0) + [5] + tag(1003, 4)
    for (index, pcase) in protobufCases.enumerated() {
        var g = PGen(rng: PlanRNG(UInt64(index) &* 0x9E37 &+ 1))
        for n in 0..<seedsPerCase {
            guard let message = pcase.seed(&g) else {
                skipped += 1  // e.g. a chain of nodes deeper than the encoder's maximumDepth
                continue
            }
            let bytes = [UInt8](message)
            var variants: [[UInt8]] = [bytes]
            switch n % 4 {
            case 1: variants.append(bytes + bytes)  // every field twice: last scalar wins, messages merge
            case 2: variants.append(unknown + bytes + unknown)
            case 3:
                if let raw = try? ProtobufDecoder().decodeRaw(from: message) {
                    variants.append([UInt8](ProtobufRawMessage(fields: raw.fields.reversed()).serialized()))
                }
            default: break
            }
            for (v, body) in variants.enumerated() {
                let selector = UInt8(index << 2 | (n + v) % 4)
                let out = Data([selector] + body)
                var fnv: UInt32 = 2_166_136_261
                for b in out { fnv = (fnv ^ UInt32(b)) &* 16_777_619 }
                let name = String(format: "pb-%@-%02x-%08x", pcase.name, selector, fnv)
                do { try out.write(to: URL(fileURLWithPath: dir).appendingPathComponent(name)) } catch {
                    fatalError("protobuf-seeds: cannot write \(name): \(error)")
                }
                written += 1
            }
        }
    }
    FileHandle.standardError.write("protobuf-seeds: wrote \(written) seeds to \(dir) (\(skipped) values did not encode)\n".data(using: .utf8)!)
}

func varint(_ value: UInt64) -> [UInt8] {
    var v = value
    var out: [UInt8] = []
    while v >= 0x80 {
        out.append(UInt8(v & 0x7f) | 0x80)
        v >>= 7
    }
    out.append(UInt8(v))
    return out
}
