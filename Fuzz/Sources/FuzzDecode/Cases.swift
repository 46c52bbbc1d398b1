import Foundation
import BinarySerialization

// Codable types mirroring the conformance cases (Tests/BinarySerializationTests/Conformance/Cases.swift),
// so the seed vectors decode and the fuzzer starts from valid data. The order of `fuzzCases` is the
// selector of the first input byte, and make_corpus.py must agree with it: append only.

struct FMessage: Codable, Hashable {
    var sender: String
    var isRead: Bool
    var unreadCount: Int
}

/// Integer keys with optionals (the format description's `Message`).
struct FIntKeyedMessage: Codable {
    let isComplete: Bool
    let owner: String?
    let references: [Int]
    enum CodingKeys: Int, CodingKey {
        case isComplete = 1
        case owner = 2
        case references = 3
    }
}

struct FOptionals: Codable {
    var a: Int?
    var b: String?
    var c: [Int]?
    var d: Int??
    var e: Bool??
    var f: FMessage?
}

struct FIntKeyed: Codable {
    var a: Int
    var b: String
    var c: Bool
    var d: Double
    enum CodingKeys: Int, CodingKey {
        case a = 1
        case b = 2
        case c = 123
        case d = 100000
    }
}

struct FAllPrimitives: Codable {
    var bool: Bool
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var int: Int
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var uint: UInt
    var float: Float
    var double: Double
    var string: String
    var data: Data
}

struct FNested: Codable {
    var inner: FMessage
    var list: [FMessage]
    var opt: FMessage?
    var matrix: [[Int]]
}

/// A recursive tree.
struct FTree: Codable {
    var value: Int
    var children: [FTree]
}

/// Recursion through unkeyed containers only: `[[[...]]]`.
struct FNest: Codable {
    var children: [FNest]
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var out: [FNest] = []
        while !c.isAtEnd { out.append(try c.decode(FNest.self)) }
        children = out
    }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for child in children { try c.encode(child) }
    }
}

enum FPlain: String, Codable { case alpha, beta }
enum FIntRaw: Int, Codable { case one = 1, two = 2, big = 1000 }

enum FAssoc: Codable {
    case one(String)
    case two(Bool, Data)
    case three
    case four(x: Int, y: Int)
}

enum FAssocIntKeys: Codable {
    case one(String)
    case two(Bool, UInt8)
    enum CodingKeys: Int, CodingKey {
        case one = 1
        case two = 2
    }
}

indirect enum FExpr: Codable {
    case num(Int)
    case add(FExpr, FExpr)
    case neg(FExpr)
}

class FBase: Codable {
    var a: Int
    init(a: Int) { self.a = a }
}

final class FDerived: FBase {
    var b: String
    enum CodingKeys: String, CodingKey { case b }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        b = try c.decode(String.self, forKey: .b)
        try super.init(from: c.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(b, forKey: .b)
        try super.encode(to: c.superEncoder())
    }
}

/// false, nil, "Hello", Data() in one unkeyed container, written by hand.
struct FUnkeyedMix: Codable {
    var first: Bool
    var second: String?
    var third: String
    var fourth: Data
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(first)
        if let second { try c.encode(second) } else { try c.encodeNil() }
        try c.encode(third)
        try c.encode(fourth)
    }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        first = try c.decode(Bool.self)
        second = try c.decodeNil() ? nil : try c.decode(String.self)
        third = try c.decode(String.self)
        fourth = try c.decode(Data.self)
    }
}

/// Ints in an unkeyed container filled by hand (not a packed [Int]).
struct FUnkeyedInts: Codable {
    var values: [Int]
    func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for v in values { try c.encode(v) }
    }
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var out: [Int] = []
        while !c.isAtEnd { out.append(try c.decode(Int.self)) }
        values = out
    }
}

/// Nested keyed and unkeyed containers opened by hand.
struct FManualNested: Codable {
    var name: String
    var coords: [Double]
    var meta: [String: String]
    var flag: Bool
    enum Keys: String, CodingKey { case name, coords, meta, inner }
    enum InnerKeys: String, CodingKey { case flag }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(name, forKey: .name)
        var u = c.nestedUnkeyedContainer(forKey: .coords)
        for d in coords { try u.encode(d) }
        try c.encode(meta, forKey: .meta)
        var n = c.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try n.encode(flag, forKey: .flag)
    }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        var u = try c.nestedUnkeyedContainer(forKey: .coords)
        var cs: [Double] = []
        while !u.isAtEnd { cs.append(try u.decode(Double.self)) }
        coords = cs
        meta = try c.decode([String: String].self, forKey: .meta)
        let n = try c.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        flag = try n.decode(Bool.self, forKey: .flag)
    }
}

struct FSingleWrapped: Codable {
    var value: Int
    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
    }
}

struct FWrapped: Codable {
    @FixedSizeEncoded var fixedInt32: Int32
    @FixedSizeEncoded var fixedInt64: Int64
    @FixedSizeEncoded var fixedUInt32: UInt32
    @FixedSizeEncoded var fixedUInt64: UInt64
    @FixedSizeEncoded var fixedInt: Int
    @FixedSizeEncoded var fixedUInt: UInt
    @VariableLengthEncoded var varInt16: Int16
    @VariableLengthEncoded var varUInt16: UInt16
    @VariableLengthEncoded var varInt32: Int32
    @VariableLengthEncoded var varInt: Int
    @ZigZagEncoded var zzInt16: Int16
}

struct FWithCollections: Codable {
    var tags: Set<String>
    var scores: [String: Int]
    var byId: [Int: String]
    var flags: [Bool]
    var bytes: [UInt8]
}

struct FFoundation: Codable {
    var date: Date
    var id: UUID
    var data: Data
    var range: Range<Int>
    var closed: ClosedRange<Int>
}

/// One fuzz target: a type and whether its encoding is deterministic (no `Set` with more than
/// one element), which the round-trip check needs. `run` dispatches on the mode (FUZZ_MODE).
struct FuzzCase {
    let name: String
    let run: (FuzzMode, FuzzInput) -> Void
}

func fcase<T: Codable & Equatable>(_ name: String, _ type: T.Type, deterministic: Bool = true) -> FuzzCase {
    FuzzCase(name: name, run: { mode, input in
        switch mode {
        case .decode: exercise(T.self, input, deterministic: deterministic)
        case .stream: exerciseStream(T.self, input)
        case .file: exerciseFile(T.self, input)
        case .tree: exerciseTree(T.self, input)
        case .transcode: exerciseTranscode(T.self, input)
        case .seeds: writeStreamSeed(T.self, input)
        case .protobuf, .protobufSeeds: break  // Protobuf.swift: types of its own
        }
    })
}

/// The case for selector `s` is `fuzzCases[(s >> 2) % fuzzCases.count]`. Append only: the seed
/// corpus (make_corpus.py) names cases by index.
nonisolated(unsafe) let fuzzCases: [FuzzCase] = [
    fcase("SMessage", FMessage.self),                         // 0
    fcase("Optionals", FOptionals.self),                      // 1
    fcase("IntKeyed", FIntKeyed.self),                        // 2
    fcase("Message", FIntKeyedMessage.self),                  // 3
    fcase("[String:Int]", [String: Int].self),                // 4
    fcase("[Int:String]", [Int: String].self),                // 5
    fcase("[Int?]", [Int?].self),                             // 6
    fcase("[[Int]]", [[Int]].self),                           // 7
    fcase("[[String]]", [[String]].self),                     // 8
    fcase("Assoc", FAssoc.self),                              // 9
    fcase("AssocIntKeys", FAssocIntKeys.self),                // 10
    fcase("Expr", FExpr.self),                                // 11
    fcase("Tree", FTree.self),                                // 12
    fcase("Foundation", FFoundation.self),                    // 13
    fcase("Date", Date.self),                                 // 14
    fcase("UUID", UUID.self),                                 // 15
    fcase("Set<String>", Set<String>.self, deterministic: false),  // 16
    fcase("SIMD2<Float>", SIMD2<Float>.self),                 // 17
    fcase("SIMD4<Int32>", SIMD4<Int32>.self),                 // 18
    fcase("Nested", FNested.self),                            // 19
    fcase("AllPrimitives", FAllPrimitives.self),              // 20
    fcase("Wrapped", FWrapped.self),                          // 21
    fcase("UnkeyedMix", FUnkeyedMix.self),                    // 22
    fcase("ManualNested", FManualNested.self),                // 23
    fcase("Derived", FDerived.self),                          // 24
    fcase("[Bool:Int]", [Bool: Int].self, deterministic: false),  // 25
    fcase("Int??", Int??.self),                               // 26
    fcase("[Int??]", [Int??].self),                           // 27
    fcase("[String?]", [String?].self),                       // 28
    fcase("[SMessage]", [FMessage].self),                     // 29
    fcase("[SMessage?]", [FMessage?].self),                   // 30
    fcase("String", String.self),                             // 31
    fcase("Int", Int.self),                                   // 32
    fcase("[Int]", [Int].self),                               // 33
    fcase("[String]", [String].self),                         // 34
    fcase("Data", Data.self),                                 // 35
    fcase("[UInt8]", [UInt8].self),                           // 36
    fcase("[Double]", [Double].self),                         // 37
    fcase("[Bool]", [Bool].self),                             // 38
    fcase("Plain", FPlain.self),                              // 39
    fcase("IntRaw", FIntRaw.self),                            // 40
    fcase("[IntRaw]", [FIntRaw].self),                        // 41
    fcase("SingleWrapped", FSingleWrapped.self),              // 42
    fcase("[FixedSizeEncoded<Int32>]", [FixedSizeEncoded<Int32>].self),  // 43
    fcase("[String:[Int]]", [String: [Int]].self),            // 44
    fcase("[Int:SMessage]", [Int: FMessage].self),            // 45
    fcase("WithCollections", FWithCollections.self, deterministic: false),  // 46
    fcase("Nest", FNest.self),                                // 47
    fcase("UnkeyedInts", FUnkeyedInts.self),                  // 48
    fcase("Double", Double.self),                             // 49
    fcase("UInt64", UInt64.self),                             // 50
    fcase("Int32", Int32.self),                               // 51
    fcase("Int?", Int?.self),                                 // 52
    fcase("SMessage?", FMessage?.self),                       // 53
    fcase("[Int]?", [Int]?.self),                             // 54
    fcase("[Date]", [Date].self),                             // 55
    fcase("[Assoc]", [FAssoc].self),                          // 56
    fcase("Set<Int>", Set<Int>.self, deterministic: false),   // 57
    fcase("[Int64]", [Int64].self),                           // 58
    fcase("[UInt32]", [UInt32].self),                         // 59
    fcase("[Float]", [Float].self),                           // 60
    fcase("[Int16]", [Int16].self),                           // 61
    fcase("Bool", Bool.self),                                 // 62
    fcase("[Data]", [Data].self),                             // 63
]

// Equality, for the modes that compare decoded values (stream, file, tree, transcode).
// Synthesized conformances must be declared in the file that declares the type: they are here,
// after the append-only list. Floating-point NaN is handled by `same(_:_:)` in Modes.swift.
extension FIntKeyedMessage: Equatable {}
extension FOptionals: Equatable {}
extension FIntKeyed: Equatable {}
extension FAllPrimitives: Equatable {}
extension FNested: Equatable {}
extension FTree: Equatable {}
extension FNest: Equatable {}
extension FAssoc: Equatable {}
extension FAssocIntKeys: Equatable {}
extension FExpr: Equatable {}
extension FDerived: Equatable {
    static func == (l: FDerived, r: FDerived) -> Bool { l.a == r.a && l.b == r.b }
}
extension FUnkeyedMix: Equatable {}
extension FUnkeyedInts: Equatable {}
extension FManualNested: Equatable {}
extension FSingleWrapped: Equatable {}
extension FWrapped: Equatable {}
extension FWithCollections: Equatable {}
extension FFoundation: Equatable {}
