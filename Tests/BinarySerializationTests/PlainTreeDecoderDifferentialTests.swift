import BinarySerialization
import Foundation
import Testing
import TreeCoding

/// `TreeDecoder` (the plain tree decoder) against the tree path of the decoding engine
/// (`BinaryDecoder(format: .v3).decode(_:fromTree:)`, which reads the tree as it is): for every
/// tree, the same value, or a `DecodingError` of the same case, coding path and description.
///
/// Trees are the encodings of seeded random values of the corpus types (v3 and v2), and seeded
/// mutants of them (a leaf of another kind or encoding, a key dropped, renamed or added, `nil`
/// inserted, marks added or removed, containers emptied, packed and unkeyed swapped...), each
/// decoded as its own type and as a few other types, at the default depth limit and at small ones.
@Suite struct PlainTreeDecoderDifferentialTests {
    static let seedsPerCase = 20
    static let mutantsPerTree = 10

    @Test func plainDecoderAgreesWithTheEngine() throws {
        var tally = DifferentialTally()
        let probes = Self.probes()
        for (caseIndex, c) in Self.cases().enumerated() {
            for format in [BinaryFormat.v3, .v2] {
                for i in 0..<Self.seedsPerCase {
                    let seed = SplitMix64.derive(
                        0x5AFE_7EE0 &+ UInt64(caseIndex), UInt64(i) &* 2 &+ (format == .v2 ? 1 : 0))
                    var g = CorpusGen(seed: seed, size: [0, 1, 2, 4, 8, 24][i % 6], v2: format == .v2)
                    guard let tree = try c.tree(&g, format) else { continue }
                    var mutator = TreeMutator(rng: SplitMix64(seed: seed ^ 0xDEC0DE))
                    let depth = mutator.chance(20) ? 1 + mutator.below(5) : 512
                    tally.record(c.target.check(tree, depth), "\(c.name) \(format) seed \(seed)", tree)
                    let probe = probes[mutator.below(probes.count)]
                    tally.record(probe.check(tree, 512), "\(c.name) as \(probe.name) \(format) seed \(seed)", tree)
                    for m in 0..<Self.mutantsPerTree {
                        let mutant = mutator.mutate(tree)
                        let label = "\(c.name) \(format) seed \(seed) mutant \(m)"
                        tally.record(c.target.check(mutant, depth), label, mutant)
                        let probe = probes[mutator.below(probes.count)]
                        tally.record(probe.check(mutant, 512), "\(label) as \(probe.name)", mutant)
                    }
                }
            }
        }
        #expect(tally.failures.isEmpty, "\(tally.failures.count) of \(tally.checks) disagree:\n\(tally.report)")
        #expect(tally.checks > 20_000)
        // Both outcomes are exercised, the errors of every case.
        #expect(tally.decoded > 2_000)
        #expect(tally.thrown > 8_000)
        #expect(tally.errorCases.count == 4, "\(tally.errorCases)")
    }

    // MARK: Cases

    struct Case {
        let name: String
        let tree: (inout CorpusGen, BinaryFormat) throws -> BinaryValue?
        let target: Target
    }

    /// A type decoded by both decoders.
    struct Target {
        let name: String
        /// The disagreement for a tree at a depth limit, or `nil`; and whether it decoded.
        let check: (BinaryValue, Int) -> Outcome
    }

    static func target<T: Decodable>(_ type: T.Type, _ equal: @escaping (T, T) -> Bool) -> Target {
        Target(name: "\(T.self)") { tree, depth in
            var plainDecoder = TreeDecoder()
            plainDecoder.maximumDepth = depth
            var engineDecoder = BinaryDecoder(format: .v3)
            engineDecoder.limits.maximumDepth = depth
            let plain = Result { try plainDecoder.decode(T.self, fromTree: tree) }
            let engine = Result { try engineDecoder.decode(T.self, fromTree: tree) }
            return compare(plain, engine, equal)
        }
    }

    static func target<T: Decodable & Equatable>(_ type: T.Type) -> Target { target(T.self, ==) }

    static func make<T: Codable & Equatable>(_ name: String, _ type: T.Type, _ gen: @escaping (inout CorpusGen) -> T)
        -> Case
    {
        Case(
            name: name,
            tree: { g, format in try BinaryEncoder(format: format).encodeTree(gen(&g)) },
            target: target(T.self))
    }

    static func cases() -> [Case] {
        var c: [Case] = []
        c.append(make("Bool", Bool.self) { $0.bool() })
        c.append(make("Int8", Int8.self) { $0.int() })
        c.append(make("UInt16", UInt16.self) { $0.int() })
        c.append(make("Int32", Int32.self) { $0.int() })
        c.append(make("UInt64", UInt64.self) { $0.int() })
        c.append(make("Int", Int.self) { $0.int() })
        c.append(make("Float", Float.self) { $0.float() })
        c.append(make("Double", Double.self) { $0.double() })
        c.append(make("String", String.self) { $0.string() })
        c.append(make("Data", Data.self) { $0.data() })
        c.append(make("Prims", RCPrims.self, RCPrims.gen))
        c.append(make("FloatBits", RCFloatBits.self, RCFloatBits.gen))
        c.append(make("Inner", RCInner.self, RCInner.gen))
        c.append(make("Empty", RCEmpty.self) { _ in RCEmpty() })
        c.append(make("UnicodeFields", RCUnicodeFields.self, RCUnicodeFields.gen))
        c.append(make("Optionals", RCOptionals.self, RCOptionals.gen))
        c.append(make("DoubleOptionals", RCDoubleOptionals.self, RCDoubleOptionals.gen))
        c.append(make("Int?", Int?.self) { $0.opt { $0.int() } })
        c.append(make("Int??", Int??.self) { $0.opt2 { $0.int() } })
        c.append(make("Inner?", RCInner?.self) { $0.opt { RCInner.gen(&$0) } })
        c.append(make("Empty?", RCEmpty?.self) { $0.opt { _ in RCEmpty() } })
        c.append(make("[Int?]", [Int?].self) { $0.array { $0.opt { $0.int() } } })
        c.append(make("[String??]", [String??].self) { $0.array { $0.opt2 { $0.string() } } })
        c.append(make("[Int]", [Int].self) { $0.array { $0.int() } })
        c.append(make("[UInt8]", [UInt8].self) { $0.array { $0.int() } })
        c.append(make("[Double]", [Double].self) { $0.array { $0.double() } })
        c.append(make("[String]", [String].self) { $0.array { $0.string() } })
        c.append(make("[Data]", [Data].self) { $0.array { $0.data() } })
        c.append(make("[Inner]", [RCInner].self) { $0.array { RCInner.gen(&$0) } })
        c.append(make("[[Int]]", [[Int]].self) { $0.array { $0.array { $0.int() } } })
        c.append(make("Set<Int>", Set<Int>.self) { $0.set { $0.int() } })
        c.append(make("Set<String>", Set<String>.self) { $0.set { $0.string() } })
        c.append(make("Set<Inner>", Set<RCInner>.self) { $0.set { RCInner.gen(&$0) } })
        c.append(make("Arrays", RCArrays.self, RCArrays.gen))
        c.append(make("Nested", RCNested.self, RCNested.gen))
        c.append(make("Dicts", RCDicts.self, RCDicts.gen))
        c.append(make("[String:Int]", [String: Int].self) { $0.stringDict { $0.int() } })
        c.append(make("[Int:String]", [Int: String].self) { $0.dict({ $0.intKey() }, { $0.string() }) })
        c.append(make("[String:Int?]", [String: Int?].self) { $0.stringDict { $0.opt { $0.int() } } })
        c.append(make("[UInt8:Int]", [UInt8: Int].self) { $0.dict({ $0.int() }, { $0.int() }) })
        c.append(
            make("MixedKeys[String:Int]", [String: Int].self) {
                $0.dict(
                    { g in g.bool() ? g.pick(CorpusGen.numericKeys) : g.pick(["a", "1a", "super", "_1"]) }, { $0.int() }
                )
            })
        c.append(make("StrRaw", RCStrRaw.self) { $0.pick(RCStrRaw.allCases) })
        c.append(make("IntRaw", RCIntRaw.self) { $0.pick(RCIntRaw.allCases) })
        c.append(make("Plain", RCPlain.self) { $0.pick(RCPlain.allCases) })
        c.append(make("Assoc", RCAssoc.self, RCAssoc.gen))
        c.append(make("AssocIntKeys", RCAssocIntKeys.self, RCAssocIntKeys.gen))
        c.append(make("Derived", RCDerived.self, RCDerived.gen))
        c.append(make("DerivedForKey", RCDerivedForKey.self, RCDerivedForKey.gen))
        c.append(make("CustomNested", RCCustomNested.self, RCCustomNested.gen))
        c.append(make("CustomUnkeyed", RCCustomUnkeyed.self, RCCustomUnkeyed.gen))
        c.append(make("Celsius", RCCelsius.self) { RCCelsius(degrees: $0.double()) })
        c.append(make("SingleString", RCSingleString.self) { RCSingleString(s: $0.string()) })
        c.append(make("SingleArray", RCSingleArray.self) { RCSingleArray(xs: $0.array { $0.int() }) })
        c.append(make("SingleOptional", RCSingleOptional.self) { RCSingleOptional(v: $0.opt { $0.int() }) })
        c.append(make("SingleStruct", RCSingleStruct.self) { RCSingleStruct(inner: RCInner.gen(&$0)) })
        c.append(make("FixedWrapped", RCFixedWrapped.self, RCFixedWrapped.gen))
        c.append(make("VarWrapped", RCVarWrapped.self, RCVarWrapped.gen))
        c.append(make("ZigZagEncoded<Int16>", ZigZagEncoded<Int16>.self) { ZigZagEncoded(wrappedValue: $0.int()) })
        c.append(
            make("FixedSizeEncoded<Int64>", FixedSizeEncoded<Int64>.self) { FixedSizeEncoded(wrappedValue: $0.int()) })
        c.append(make("Packed<[Int32]>", Packed<[Int32]>.self) { Packed(wrappedValue: $0.array { $0.int() }) })
        c.append(
            make("Packed<[Inner]>", Packed<[RCInner]>.self) { Packed(wrappedValue: $0.array { RCInner.gen(&$0) }) })
        c.append(make("Date", Date.self, rcGenDate))
        c.append(make("UUID", UUID.self, rcGenUUID))
        c.append(make("SIMD2<Float>", SIMD2<Float>.self) { SIMD2($0.float(), $0.float()) })
        c.append(make("Node", RCNode.self, RCNode.gen))
        c.append(make("Expr", RCExpr.self, RCExpr.gen))
        c.append(make("SuperInUnkeyed", SuperInUnkeyed.self, SuperInUnkeyed.gen))
        c.append(make("ContainerProbe", ContainerProbe.self, ContainerProbe.gen))
        return c
    }

    /// Types every tree is also decoded as: mostly mismatches, with their errors.
    static func probes() -> [Target] {
        [
            target(RCInner.self), target(RCEmpty.self), target([Int].self), target([String].self), target(Int?.self),
            target([String: Int].self), target([Int: RCInner].self), target(RCOptionals.self), target(String.self),
            target(Set<Int>.self), target([RCInner?].self), target(ContainerProbe.self), target(RCAssoc.self),
            target(RCDerived.self), target(RCSingleOptional.self), target(FixedSizeEncoded<UInt32>.self),
            target(Packed<[UInt8]>.self), target(Data.self), target([[Int]].self), target(RCNode.self),
        ]
    }
}

// MARK: - Types of the cases

/// An unkeyed container with a `superDecoder()` element.
struct SuperInUnkeyed: Codable, Equatable {
    var n: Int
    var inner: RCInner
    var tail: [Bool]

    init(n: Int, inner: RCInner, tail: [Bool]) {
        self.n = n
        self.inner = inner
        self.tail = tail
    }

    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        n = try c.decode(Int.self)
        inner = try RCInner(from: c.superDecoder())
        var rest = try c.nestedUnkeyedContainer()
        var tail: [Bool] = []
        while !rest.isAtEnd { tail.append(try rest.decode(Bool.self)) }
        self.tail = tail
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(n)
        try inner.encode(to: c.superEncoder())
        var rest = c.nestedUnkeyedContainer()
        for b in tail { try rest.encode(b) }
    }

    static func gen(_ g: inout CorpusGen) -> SuperInUnkeyed {
        SuperInUnkeyed(n: g.int(), inner: RCInner.gen(&g), tail: g.array { $0.bool() })
    }
}

/// Asks a keyed container everything a type can ask (and notes the answers), then goes on past
/// the errors of reads that fail.
struct ContainerProbe: Codable, Equatable {
    var a: Int
    var b: String?
    var c: [Int8]
    var d: Double?

    enum K: String, CodingKey { case a, b, c, d, missing }
    enum N: Int, CodingKey { case zero = 0, one = 1 }

    var notes: [String] = []

    init(a: Int, b: String?, c: [Int8], d: Double?) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }

    static func note<T>(_ body: () throws -> T) -> String {
        do { return "\(try body())" } catch { return "error" }
    }

    init(from decoder: any Decoder) throws {
        let k = try decoder.container(keyedBy: K.self)
        var notes: [String] = []
        notes.append(k.allKeys.map(\.stringValue).joined(separator: ","))
        notes.append("\(k.contains(.a)) \(k.contains(.missing))")
        notes.append(Self.note { try k.decodeNil(forKey: .b) })
        notes.append(Self.note { try k.decodeNil(forKey: .missing) })
        notes.append(Self.note { try k.decodeIfPresent(Int.self, forKey: .b) })
        notes.append(Self.note { try k.decodeIfPresent(Data.self, forKey: .c) })
        notes.append(Self.note { try k.decodeIfPresent([Int8?].self, forKey: .c) })
        notes.append(Self.note { try k.decode(Int?.self, forKey: .missing) })
        notes.append(Self.note { try k.nestedContainer(keyedBy: N.self, forKey: .c).allKeys.count })
        notes.append(Self.note { try k.nestedUnkeyedContainer(forKey: .c).count })
        notes.append(Self.note { try k.superDecoder().codingPath.count })
        notes.append(Self.note { try [RCInner](from: k.superDecoder(forKey: .c)).count })
        if var u = try? k.nestedUnkeyedContainer(forKey: .c) {
            notes.append(Self.note { try u.decodeNil() })
            notes.append(Self.note { try u.decode(String.self) })
            notes.append(Self.note { u.currentIndex })
            notes.append(Self.note { try u.decode(Int8.self) })
            notes.append(Self.note { try u.nestedUnkeyedContainer().count })
            notes.append(Self.note { try u.nestedContainer(keyedBy: K.self).allKeys.count })
            notes.append(Self.note { try u.superDecoder().codingPath.count })
            notes.append(Self.note { try u.decodeIfPresent(Int8.self) })
            notes.append("\(u.isAtEnd) \(u.count ?? -1)")
        }
        a = try k.decode(Int.self, forKey: .a)
        b = try k.decodeIfPresent(String.self, forKey: .b)
        c = try k.decode([Int8].self, forKey: .c)
        d = try k.decodeIfPresent(Double.self, forKey: .d)
        self.notes = notes
    }

    func encode(to encoder: any Encoder) throws {
        var k = encoder.container(keyedBy: K.self)
        try k.encode(a, forKey: .a)
        try k.encodeIfPresent(b, forKey: .b)
        try k.encode(c, forKey: .c)
        try k.encodeIfPresent(d, forKey: .d)
    }

    static func == (l: ContainerProbe, r: ContainerProbe) -> Bool {
        l.a == r.a && l.b == r.b && l.c == r.c && l.d == r.d
            && (l.notes.isEmpty || r.notes.isEmpty || l.notes == r.notes)
    }

    static func gen(_ g: inout CorpusGen) -> ContainerProbe {
        ContainerProbe(a: g.int(), b: g.opt { $0.string() }, c: g.array { $0.int() }, d: g.opt { $0.double() })
    }
}

// MARK: - Comparison

/// The result of one comparison.
struct Outcome {
    /// What differs, or `nil`.
    var disagreement: String?
    var decoded: Bool
    /// The `DecodingError` case both threw.
    var errorCase: String?
}

func compare<T>(_ plain: Result<T, any Error>, _ engine: Result<T, any Error>, _ equal: (T, T) -> Bool) -> Outcome {
    switch (plain, engine) {
    case (.success(let a), .success(let b)):
        if equal(a, b) || String(reflecting: a) == String(reflecting: b) { return Outcome(decoded: true) }
        return Outcome(disagreement: "values differ:\n  plain:  \(a)\n  engine: \(b)", decoded: true)
    case (.failure(let a), .failure(let b)):
        let (plainError, engineError) = (describeDecodingError(a), describeDecodingError(b))
        if plainError == engineError {
            return Outcome(decoded: false, errorCase: plainError.split(separator: " ").first.map(String.init))
        }
        return Outcome(
            disagreement: "errors differ:\n  plain:  \(plainError)\n  engine: \(engineError)", decoded: false)
    case (.success(let a), .failure(let b)):
        return Outcome(disagreement: "plain decoded \(a), engine threw \(describeDecodingError(b))", decoded: false)
    case (.failure(let a), .success(let b)):
        return Outcome(disagreement: "plain threw \(describeDecodingError(a)), engine decoded \(b)", decoded: false)
    }
}

/// A `DecodingError`'s case, type or key, coding path (each key's string and integer value) and
/// debug description. Not the underlying error: the engine gives its `WireFormatError` there, the
/// tree module's decoder nothing (a tree holds no wire error).
func describeDecodingError(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "not a DecodingError: \(type(of: error)) \(error)" }
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/")
    }
    func context(_ c: DecodingError.Context) -> String {
        "at [\(path(c.codingPath))]: \(c.debugDescription)"
    }
    switch error {
    case .typeMismatch(let type, let c): return "typeMismatch \(type) \(context(c))"
    case .valueNotFound(let type, let c): return "valueNotFound \(type) \(context(c))"
    case .keyNotFound(let key, let c): return "keyNotFound \(path([key])) \(context(c))"
    case .dataCorrupted(let c): return "dataCorrupted \(context(c))"
    @unknown default: return "\(error)"
    }
}

struct DifferentialTally {
    var checks = 0
    var decoded = 0
    var thrown = 0
    var errorCases: Set<String> = []
    var failures: [String] = []

    mutating func record(_ outcome: Outcome, _ label: String, _ tree: BinaryValue) {
        checks += 1
        if outcome.decoded { decoded += 1 } else { thrown += 1 }
        if let errorCase = outcome.errorCase { errorCases.insert(errorCase) }
        if let disagreement = outcome.disagreement {
            failures.append("\(label): \(disagreement)\n  tree: \(String(describing: tree).prefix(600))")
        }
    }

    var report: String { failures.prefix(8).joined(separator: "\n") }
}

// MARK: - Mutations

/// Seeded edits of a tree: one change at a random node.
struct TreeMutator {
    var rng: SplitMix64

    mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// `value` with one node changed: a random descent, stopping at a leaf or by chance.
    mutating func mutate(_ value: BinaryValue) -> BinaryValue {
        switch value {
        case .keyed(let fields) where !fields.isEmpty && chance(70):
            var list = fields.fields
            let i = below(list.count)
            list[i].value = mutate(list[i].value)
            return .keyed(KeyedFields(list.map { ($0.key, $0.value) }))
        case .unkeyed(let elements) where !elements.isEmpty && chance(70):
            var elements = elements
            let i = below(elements.count)
            elements[i] = mutate(elements[i])
            return .unkeyed(elements)
        case .single(let inner) where chance(60):
            return .single(mutate(inner))
        case .optional(.some(let inner)) where chance(60):
            return .optional(mutate(inner))
        default:
            return mutateHere(value)
        }
    }

    static let leaves: [BinaryValue] = [
        .nil, .bool(true), .int8(-1), .uint8(200), .int16(5, .fixed), .int16(-5, .zigZag), .uint16(7, .varint),
        .int32(-3), .int32(3, .fixed), .uint32(3), .int64(1 << 40), .uint64(9), .uint64(9, .fixed), .int(0), .int(1),
        .uint(1), .float(1.5), .double(-2), .double(3), .string("x"), .string(""), .data(Data([1, 2])),
        .packed(.uint8([1, 2])), .packed(.int([1, -1])), .packed(.bool([true])), .optional(nil), .single(.nil),
        .optional(.int(4)), .single(.string("s")), .emptyKeyed, .unkeyed([]), .unkeyed([.int(1), .nil]),
        .keyed(KeyedFields([(BinaryKey(stringValue: "name"), .string("n")), (BinaryKey(stringValue: "n"), .int(2))])),
    ]

    mutating func mutateHere(_ value: BinaryValue) -> BinaryValue {
        switch below(14) {
        case 0: return .nil
        case 1: return .optional(value)
        case 2: return .single(value)
        case 3: return .optional(nil)
        case 4:
            switch value {
            case .optional(.some(let inner)), .single(let inner): return inner
            default: return .single(.nil)
            }
        case 5: return chance(50) ? .emptyKeyed : .unkeyed([])
        case 6: return retyped(value) ?? Self.leaves[below(Self.leaves.count)]
        case 7: return reencoded(value) ?? retyped(value) ?? .int(-1)
        case 8: return dropped(value) ?? .nil
        case 9: return withNil(value) ?? .optional(.nil)
        case 10: return rekeyed(value) ?? .single(value)
        case 11: return repacked(value) ?? .packed(.int32([1, 2]))
        default: return Self.leaves[below(Self.leaves.count)]
        }
    }

    /// An integer leaf's value.
    static func integer(_ v: BinaryValue) -> (Int64, IntegerEncoding)? {
        switch v {
        case .int8(let x): return (Int64(x), .fixed)
        case .uint8(let x): return (Int64(x), .fixed)
        case .int16(let x, let e): return (Int64(x), e)
        case .uint16(let x, let e): return (Int64(x), e)
        case .int32(let x, let e): return (Int64(x), e)
        case .uint32(let x, let e): return (Int64(x), e)
        case .int64(let x, let e): return (x, e)
        case .uint64(let x, let e): return (Int64(truncatingIfNeeded: x), e)
        case .int(let x, let e): return (Int64(x), e)
        case .uint(let x, let e): return (Int64(truncatingIfNeeded: x), e)
        default: return nil
        }
    }

    /// An integer leaf of a random width, with the value (truncated if need be) and `encoding`.
    mutating func integerLeaf(_ x: Int64, _ e: IntegerEncoding) -> BinaryValue {
        switch below(10) {
        case 0: return .int8(Int8(truncatingIfNeeded: x))
        case 1: return .uint8(UInt8(truncatingIfNeeded: x))
        case 2: return .int16(Int16(truncatingIfNeeded: x), e)
        case 3: return .uint16(UInt16(truncatingIfNeeded: x), e)
        case 4: return .int32(Int32(truncatingIfNeeded: x), e)
        case 5: return .uint32(UInt32(truncatingIfNeeded: x), e)
        case 6: return .int64(x, e)
        case 7: return .uint64(UInt64(truncatingIfNeeded: x), e)
        case 8: return .int(Int(x), e)
        default: return .uint(UInt(truncatingIfNeeded: x), e)
        }
    }

    mutating func retyped(_ v: BinaryValue) -> BinaryValue? {
        if let (x, e) = Self.integer(v) {
            switch below(4) {
            case 0: return .double(Double(x))
            case 1: return .float(Float(x))
            default: return integerLeaf(x, chance(50) ? e : [.fixed, .varint, .zigZag][below(3)])
            }
        }
        switch v {
        case .string(let s): return .data(Data(s.utf8))
        case .data(let d): return chance(50) ? .packed(.uint8(Array(d))) : .string(String(decoding: d, as: UTF8.self))
        case .bool(let b): return .int8(b ? 1 : 0)
        case .float(let f): return .double(Double(f))
        case .double(let d): return chance(50) ? .float(Float(d)) : .int(Int(exactly: d) ?? 7)
        default: return nil
        }
    }

    mutating func reencoded(_ v: BinaryValue) -> BinaryValue? {
        let e: IntegerEncoding = [.fixed, .varint, .zigZag][below(3)]
        switch v {
        case .int16(let x, _): return .int16(x, e)
        case .uint16(let x, _): return .uint16(x, e)
        case .int32(let x, _): return .int32(x, e)
        case .uint32(let x, _): return .uint32(x, e)
        case .int64(let x, _): return .int64(x, e)
        case .uint64(let x, _): return .uint64(x, e)
        case .int(let x, _): return .int(x, e)
        case .uint(let x, _): return .uint(x, e)
        default: return nil
        }
    }

    mutating func dropped(_ v: BinaryValue) -> BinaryValue? {
        switch v {
        case .keyed(let fields) where !fields.isEmpty:
            var list = fields.fields
            list.remove(at: below(list.count))
            return .keyed(KeyedFields(list.map { ($0.key, $0.value) }))
        case .unkeyed(let elements) where !elements.isEmpty:
            var elements = elements
            elements.remove(at: below(elements.count))
            return .unkeyed(elements)
        case .packed(let p) where p.count > 0:
            var leaves = p.leaves
            leaves.remove(at: below(leaves.count))
            return .unkeyed(leaves)
        default: return nil
        }
    }

    mutating func withNil(_ v: BinaryValue) -> BinaryValue? {
        let marker: BinaryValue = chance(50) ? .nil : .optional(nil)
        switch v {
        case .keyed(let fields):
            var list = fields.fields.map { ($0.key, $0.value) }
            if !list.isEmpty, chance(60) {
                list[below(list.count)].1 = marker
            } else {
                list.append((BinaryKey(stringValue: ["a", "b", "missing", "super", "0"][below(5)]), marker))
            }
            return .keyed(KeyedFields(list))
        case .unkeyed(let elements):
            var elements = elements
            elements.insert(marker, at: below(elements.count + 1))
            return .unkeyed(elements)
        default: return nil
        }
    }

    /// A key changed between its integer and string forms, or a twin of it in the other form added.
    mutating func rekeyed(_ v: BinaryValue) -> BinaryValue? {
        guard case .keyed(let fields) = v, !fields.isEmpty else { return nil }
        var list = fields.fields.map { ($0.key, $0.value) }
        let i = below(list.count)
        let key = list[i].0
        let other: BinaryKey
        if let n = key.intValue {
            other = BinaryKey(stringValue: String(n))
        } else if let n = Int(key.stringValue) {
            other = BinaryKey(intValue: n)
        } else {
            other = chance(50) ? BinaryKey(intValue: below(3)) : BinaryKey(stringValue: key.stringValue + "x")
        }
        if chance(50) { list[i].0 = other } else { list.append((other, list[i].1)) }
        return .keyed(KeyedFields(list))
    }

    /// A packed array as an unkeyed container of leaves, or of another element kind; an
    /// unkeyed container of integers as a packed array.
    mutating func repacked(_ v: BinaryValue) -> BinaryValue? {
        switch v {
        case .packed(let p):
            if chance(50) { return .unkeyed(p.leaves) }
            let xs = p.leaves.compactMap { Self.integer($0)?.0 }
            guard xs.count == p.count else { return .packed(.double(p.leaves.map { _ in 1 })) }
            switch below(5) {
            case 0: return .packed(.int32(xs.map { Int32(truncatingIfNeeded: $0) }))
            case 1: return .packed(.uint8(xs.map { UInt8(truncatingIfNeeded: $0) }))
            case 2: return .packed(.int(xs.map { Int($0) }))
            case 3: return .packed(.uint64(xs.map { UInt64(truncatingIfNeeded: $0) }))
            default: return .packed(.int16(xs.map { Int16(truncatingIfNeeded: $0) }))
            }
        case .unkeyed(let elements):
            let xs = elements.compactMap { Self.integer($0)?.0 }
            guard xs.count == elements.count else { return nil }
            return chance(50)
                ? .packed(.int(xs.map { Int($0) })) : .packed(.uint8(xs.map { UInt8(truncatingIfNeeded: $0) }))
        default: return nil
        }
    }
}
