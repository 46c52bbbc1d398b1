import BinarySerialization
import Dispatch
import Foundation
import SwiftProtobuf

// ProtobufEncoder/ProtobufDecoder against swift-protobuf's generated code on the Benchmarks/
// payloads proto3 can express: P1i (one small message), P2 (1,000 records), P3 (100,000 ints,
// doubles, bools), P5 (a chain of 50 nodes). Prints the median time per operation of each (the
// operations of a payload timed in interleaved rounds) and the ratio ours / swift-protobuf, and our
// v3 format on the same values (protobuf's own target).
// Run: swift run -c release --package-path Interop InteropBench

// MARK: Codable mirrors of bench.proto

struct Message: Codable, Equatable {
    var sender: String
    var isRead: Bool
    var unreadCount: Int
    enum CodingKeys: Int, CodingKey { case sender = 1, isRead, unreadCount }
    var proto: Bench_Message {
        .with {
            $0.sender = sender
            $0.isRead = isRead
            $0.unreadCount = Int64(unreadCount)
        }
    }
}

struct Point: Codable, Equatable {
    var x: Int32
    var y: Int32
    enum CodingKeys: Int, CodingKey { case x = 1, y }
}

struct Record: Codable, Equatable {
    var id: Int
    var count: Int32
    var flags: UInt32
    var score: Double
    var ratio: Float
    var isActive: Bool
    var name: String
    var note: String?
    var tags: [Int]
    var position: Point
    enum CodingKeys: Int, CodingKey { case id = 1, count, flags, score, ratio, isActive, name, note, tags, position }
    var proto: Bench_Record {
        .with {
            $0.id = Int64(id)
            $0.count = count
            $0.flags = flags
            $0.score = score
            $0.ratio = ratio
            $0.isActive = isActive
            $0.name = name
            if let note { $0.note = note }
            $0.tags = tags.map(Int64.init)
            $0.position = .with {
                $0.x = position.x
                $0.y = position.y
            }
        }
    }
}

struct Records: Codable, Equatable {
    var records: [Record]
    enum CodingKeys: Int, CodingKey { case records = 1 }
}

struct Values<T: Codable & Equatable>: Codable, Equatable {
    var values: [T]
    enum CodingKeys: Int, CodingKey { case values = 1 }
}

struct Node: Codable, Equatable {
    var value: Int
    var child: [Node]
    enum CodingKeys: Int, CodingKey { case value = 1, child }
    var proto: Bench_Node {
        .with {
            $0.value = Int64(value)
            $0.child = child.map(\.proto)
        }
    }
}

// MARK: Payloads (the same generators as Benchmarks/Sources/BenchSupport, seeds included)

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func mixedInt() -> Int {
        let bits = Int(next() % 64)
        let magnitude = bits == 0 ? 0 : Int(truncatingIfNeeded: next() >> UInt64(64 - bits))
        return next() & 1 == 0 ? magnitude : -magnitude
    }
    mutating func mixedDouble() -> Double {
        let mantissa = Double(next() >> 11) / Double(1 << 53)
        return mantissa * pow(10, Double(Int(next() % 25) - 12))
    }
    mutating func shortString(min: Int, max: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-")
        let length = min + Int(next() % UInt64(max - min + 1))
        return String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }
}

func records(count: Int) -> [Record] {
    var rng = SplitMix64(state: 2)
    return (0..<count).map { i in
        Record(
            id: i * 7919 + 100_000, count: Int32(truncatingIfNeeded: rng.next() % 2_000_000) - 1_000_000,
            flags: UInt32(UInt8(truncatingIfNeeded: rng.next())), score: rng.mixedDouble(),
            ratio: Float(rng.next() % 10_000) / 100, isActive: rng.next() & 1 == 0,
            name: rng.shortString(min: 6, max: 20),
            note: rng.next() % 3 == 0 ? nil : rng.shortString(min: 10, max: 40),
            tags: (0..<Int(rng.next() % 6)).map { _ in Int(rng.next() % 5_000) },
            position: Point(
                x: Int32(truncatingIfNeeded: rng.next() % 20_000) - 10_000,
                y: Int32(truncatingIfNeeded: rng.next() % 20_000) - 10_000))
    }
}

func chain(depth: Int) -> Node {
    var node = Node(value: depth - 1, child: [])
    for level in stride(from: depth - 2, through: 0, by: -1) { node = Node(value: level, child: [node]) }
    return node
}

// MARK: Timing

/// The median time per call of each of `bodies`, measured in interleaved rounds: each round
/// times every body once for ~50 ms, so that a drift of the machine's speed during the run moves
/// all of them alike (the ratios are what is read). `runs` rounds.
func medians(runs: Int = 7, _ bodies: [() throws -> Void]) throws -> [Double] {
    var iterations: [Int] = []
    for body in bodies {
        var n = 1
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { try body() }
            if DispatchTime.now().uptimeNanoseconds - start > 50_000_000 { break }
            n *= 2
        }
        iterations.append(n)
    }
    var samples = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<runs {
        for (i, body) in bodies.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations[i] { try body() }
            samples[i].append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations[i]))
        }
    }
    return samples.map { $0.sorted()[runs / 2] }
}

func format(_ ns: Double) -> String {
    ns >= 1_000_000 ? String(format: "%.2f ms", ns / 1e6) : String(format: "%.1f µs", ns / 1e3)
}

func compare<V: Codable & Equatable, M: SwiftProtobuf.Message & Equatable>(
    _ name: String, _ value: V, _ message: M
) throws {
    let encoder = ProtobufEncoder()
    let decoder = ProtobufDecoder()
    let ours = try encoder.encode(value)
    let theirs: Data = try message.serializedBytes()
    // The comparison is fair only if both sides do the same work: same message, same value.
    guard try M(serializedBytes: ours) == message, try decoder.decode(V.self, from: theirs) == value else {
        print("\(name): the two libraries disagree; not timed")
        return
    }
    // Our own v3 format on the same values, in the same run: the protobuf mode's target.
    let v3Encoder = BinaryEncoder()
    let v3Decoder = BinaryDecoder()
    let v3Bytes = try v3Encoder.encode(value)
    guard try v3Decoder.decode(V.self, from: v3Bytes) == value else {
        print("\(name): v3 does not round-trip; not timed")
        return
    }
    let times = try medians([
        { _ = try encoder.encode(value) },
        { let _: Data = try message.serializedBytes() },
        { _ = try v3Encoder.encode(value) },
        { _ = try decoder.decode(V.self, from: theirs) },
        { _ = try M(serializedBytes: theirs) },
        { _ = try v3Decoder.decode(V.self, from: v3Bytes) },
    ])
    let (ourEncode, theirEncode, v3Encode) = (times[0], times[1], times[2])
    let (ourDecode, theirDecode, v3Decode) = (times[3], times[4], times[5])
    func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
    print(
        "| \(name) | \(ours.count) / \(theirs.count) | \(format(ourEncode)) | \(format(theirEncode)) | "
            + "\(ratio(ourEncode, theirEncode)) | \(format(v3Encode)) | \(ratio(ourEncode, v3Encode)) | "
            + "\(format(ourDecode)) | \(format(theirDecode)) | \(ratio(ourDecode, theirDecode)) | "
            + "\(format(v3Decode)) | \(ratio(ourDecode, v3Decode)) |")
}

// `InteropBench --run PAYLOAD OPERATION K`: exactly K runs of one operation (P1i, P2 or P5, or
// P1ig, P2g, P5g with generated coding; swiftprotobuf-encode, swiftprotobuf-decode, encode,
// decode, v3encode, v3decode or v2encode), for instruction counts under callgrind.
let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--run", let count = Int(arguments[4]) {
    func run<V: Codable>(_ value: V) throws {
        let protobuf = try ProtobufEncoder().encode(value)
        let v3 = try BinaryEncoder().encode(value)
        if arguments[3].hasPrefix("swiftprotobuf-") { return try runSwiftProtobuf(arguments[3], protobuf) }
        for _ in 0..<count {
            switch arguments[3] {
            case "encode": _ = try ProtobufEncoder().encode(value)
            case "decode": _ = try ProtobufDecoder().decode(V.self, from: protobuf)
            case "v3encode": _ = try BinaryEncoder().encode(value)
            case "v3decode": _ = try BinaryDecoder().decode(V.self, from: v3)
            case "v2encode": _ = try BinaryEncoder(format: .v2).encode(value)
            default: fatalError("unknown operation \(arguments[3])")
            }
        }
    }
    let message = Message(sender: "Alice Wonderland", isRead: false, unreadCount: 42)
    /// K runs of swift-protobuf's generated code on the same payload (the bytes are the same).
    func runSwiftProtobuf(_ operation: String, _ bytes: Data) throws {
        func run<M: SwiftProtobuf.Message>(_ type: M.Type) throws {
            let message = try M(serializedBytes: bytes)
            for _ in 0..<count {
                if operation == "swiftprotobuf-encode" {
                    let _: Data = try message.serializedBytes()
                } else {
                    _ = try M(serializedBytes: bytes)
                }
            }
        }
        switch arguments[2] {
        case "P1i", "P1ig": try run(Bench_Message.self)
        case "P2", "P2g": try run(Bench_Records.self)
        default: try run(Bench_Node.self)
        }
    }
    switch arguments[2] {
    case "P1i": try run(message)
    case "P2": try run(Records(records: records(count: 1_000)))
    case "P5": try run(chain(depth: 50))
    // The same payloads with generated coding.
    case "P1ig": try run(GMessage(message))
    case "P2g": try run(GRecords(Records(records: records(count: 1_000))))
    case "P5g": try run(GNode(chain(depth: 50)))
    default: fatalError("unknown payload \(arguments[2])")
    }
    exit(0)
}

print(
    "| payload | bytes (ours / theirs) | encode ours | encode swift-protobuf | ratio | encode our v3 | ours ÷ v3 "
        + "| decode ours | decode swift-protobuf | ratio | decode our v3 | ours ÷ v3 |"
)
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
let message = Message(sender: "Alice Wonderland", isRead: false, unreadCount: 42)
try compare("P1i message", message, message.proto)
let p2 = records(count: 1_000)
try compare("P2 1,000 records", Records(records: p2), Bench_Records.with { $0.records = p2.map(\.proto) })
var rng = SplitMix64(state: 3)
let ints = (0..<100_000).map { _ in rng.mixedInt() }
try compare("P3 [Int] 100k", Values(values: ints), Bench_Ints.with { $0.values = ints.map(Int64.init) })
rng = SplitMix64(state: 4)
let doubles = (0..<100_000).map { _ in rng.mixedDouble() }
try compare("P3 [Double] 100k", Values(values: doubles), Bench_Doubles.with { $0.values = doubles })
rng = SplitMix64(state: 5)
let bools = (0..<100_000).map { _ in rng.next() & 1 == 0 }
try compare("P3 [Bool] 100k", Values(values: bools), Bench_Bools.with { $0.values = bools })
let node = chain(depth: 50)
try compare("P5 depth 50", node, node.proto)

// MARK: Generated coding

/// The same payload as a `Codable` type and as its `@TreeCodable` twin: times per operation of
/// swift-protobuf's generated code, our generated coding (v3 and protobuf) and our `Codable` path.
func compareGenerated<V: Codable & Equatable, G: Codable & Equatable, M: SwiftProtobuf.Message & Equatable>(
    _ name: String, _ value: V, _ generated: G, _ message: M
) throws {
    let v3Encoder = BinaryEncoder()
    let v3Decoder = BinaryDecoder()
    let pbEncoder = ProtobufEncoder()
    let pbDecoder = ProtobufDecoder()
    let v3Bytes = try v3Encoder.encode(value)
    let theirs: Data = try message.serializedBytes()
    guard try v3Encoder.encode(generated) == v3Bytes, try pbEncoder.encode(generated) == pbEncoder.encode(value),
        try v3Decoder.decode(G.self, from: v3Bytes) == generated,
        try pbDecoder.decode(G.self, from: theirs) == generated
    else {
        print("\(name): generated and Codable coding disagree; not timed")
        return
    }
    let times = try medians([
        { let _: Data = try message.serializedBytes() },
        { _ = try M(serializedBytes: theirs) },
        { _ = try v3Encoder.encode(generated) },
        { _ = try v3Decoder.decode(G.self, from: v3Bytes) },
        { _ = try pbEncoder.encode(generated) },
        { _ = try pbDecoder.decode(G.self, from: theirs) },
        { _ = try v3Encoder.encode(value) },
        { _ = try v3Decoder.decode(V.self, from: v3Bytes) },
    ])
    let (theirEncode, theirDecode, genV3Encode, genV3Decode) = (times[0], times[1], times[2], times[3])
    let (genPbEncode, genPbDecode, v3Encode, v3Decode) = (times[4], times[5], times[6], times[7])
    func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
    print(
        "| \(name) | \(format(theirEncode)) / \(format(theirDecode)) | "
            + "\(format(genV3Encode)) / \(format(genV3Decode)) | "
            + "\(ratio(genV3Encode, theirEncode)) / \(ratio(genV3Decode, theirDecode)) | "
            + "\(ratio(genPbEncode, theirEncode)) / \(ratio(genPbDecode, theirDecode)) | "
            + "\(ratio(v3Encode, genV3Encode)) / \(ratio(v3Decode, genV3Decode)) |")
}

print("")
print(
    "| payload | swift-protobuf encode / decode | generated v3 | generated v3 ÷ swift-protobuf "
        + "| generated protobuf ÷ swift-protobuf | Codable v3 ÷ generated v3 |")
print("|---|---|---|---|---|---|")
try compareGenerated("P1i message", message, GMessage(message), message.proto)
let p2Records = Records(records: p2)
try compareGenerated(
    "P2 1,000 records", p2Records, GRecords(p2Records), Bench_Records.with { $0.records = p2.map(\.proto) })
try compareGenerated("P5 depth 50", node, GNode(node), node.proto)
