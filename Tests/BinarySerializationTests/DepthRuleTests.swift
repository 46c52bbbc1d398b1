import BinarySerialization
import Foundation
import Testing

/// One depth rule both ways (issue 45): whatever the decoder accepts is written back, and whatever
/// the encoder writes is read back, with the same `maximumDepth`, in v3 and v2, by the value paths
/// (`encode`, `decode`) and the tree paths (`encodeTree`, `encode(tree:)`, `decodeTree`,
/// `decode(fromTree:)`), and a transcoder. The rule (`DepthGuard`): a level is a value coded
/// through a container of its own (a struct, enum or class, an array of such values, a
/// dictionary); optionals, leaves and the containers nested inside one value's are not levels.
///
/// Seeded random values of exactly `limit` and `limit + 1` levels, made of enums with payloads,
/// nested arrays, optionals, dictionaries, structs and single-value wrappers in any order: at the
/// limit every path accepts, one level past it every path refuses with an error naming the depth.
@Suite struct DepthRuleTests {
    /// A layer of every kind, each commented with the levels it adds around its content.
    indirect enum Chain: Codable, Hashable {
        case end  // 1: an enum
        case payload(Chain)  // 1: the case's nested container is not a level
        case pair(Chain, Int)  // 1
        case optional(Chain?)  // 1: an optional is not a level
        case list([Chain])  // 2: the enum, the array
        case lists([[Chain]])  // 3
        case maybes([Chain?])  // 2
        case record(Record)  // 2: the enum, the struct
        case map([String: Chain])  // 2: the enum, the dictionary
        case wrapped(Wrapper)  // 2: the enum, the struct (a single-value container)
    }

    struct Record: Codable, Hashable {
        var tag: Int8
        var next: Chain?
    }

    /// A struct that codes its content through a single-value container.
    struct Wrapper: Codable, Hashable {
        var inner: Chain
        init(_ inner: Chain) { self.inner = inner }
        init(from decoder: any Decoder) throws { inner = try decoder.singleValueContainer().decode(Chain.self) }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(inner)
        }
    }

    /// A `Chain` of exactly `levels` levels (at least 1), drawn from `random`: layers chosen at
    /// random from the inside out, shallow siblings added here and there.
    static func chain(levels: Int, _ random: inout SplitMix64) -> Chain {
        var value = Chain.end
        var depth = 1
        while depth < levels {
            let room = levels - depth
            let pick = Int(random.next() % 10)
            let shallow = random.next() % 2 == 0 ? Chain.end : Chain.optional(nil)
            switch pick {
            case 0: (value, depth) = (.payload(value), depth + 1)
            case 1: (value, depth) = (.pair(value, Int(random.next() % 1000)), depth + 1)
            case 2: (value, depth) = (.optional(value), depth + 1)
            case 3 where room >= 2:
                (value, depth) = (.list(random.next() % 2 == 0 ? [value] : [shallow, value]), depth + 2)
            case 4 where room >= 3: (value, depth) = (.lists([[], [value, shallow]]), depth + 3)
            case 5 where room >= 2: (value, depth) = (.maybes([value, shallow]), depth + 2)
            case 6 where room >= 2: (value, depth) = (.record(Record(tag: 1, next: value)), depth + 2)
            case 7 where room >= 2: (value, depth) = (.map(["k": value]), depth + 2)
            case 8 where room >= 2: (value, depth) = (.wrapped(Wrapper(value)), depth + 2)
            default: (value, depth) = (.payload(value), depth + 1)
            }
        }
        return value
    }

    /// What each path did with one value or its bytes.
    struct Outcome {
        var accepted: [String] = []
        var refused: [String] = []
        var problems: [String] = []
    }

    /// Runs every path on `value` with coders limited to `limit`, and records which accepted
    /// (with the unlimited encoder's bytes, tree or value) and which refused; a refusal must be
    /// the depth error.
    static func run<T: Codable & Equatable>(
        _ value: T, format: BinaryFormat, limit: Int
    ) -> Outcome {
        var outcome = Outcome()
        var encoder = BinaryEncoder(format: format)
        encoder.maximumDepth = limit
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = limit
        // The bytes and tree any writer without a limit (BinaryCodable) gives.
        var unlimited = BinaryEncoder(format: format)
        unlimited.maximumDepth = Int.max
        let bytes: Data
        let tree: BinaryValue
        do {
            bytes = try unlimited.encode(value)
            tree = try unlimited.encodeTree(value)
        } catch {
            outcome.problems.append("unlimited encoder: \(error)")
            return outcome
        }
        func path<R>(_ name: String, _ body: () throws -> R, check: (R) -> Bool = { _ in true }) {
            do {
                let result = try body()
                outcome.accepted.append(name)
                if !check(result) { outcome.problems.append("\(name): a different result") }
            } catch let error as EncodingError {
                guard case .invalidValue(_, let context) = error, context.debugDescription.contains("maximum depth")
                else { return outcome.problems.append("\(name): \(error)") }
                outcome.refused.append(name)
            } catch let error as DecodingError {
                guard case .dataCorrupted(let context) = error, context.debugDescription.contains("maximum depth")
                else { return outcome.problems.append("\(name): \(error)") }
                outcome.refused.append(name)
            } catch {
                outcome.problems.append("\(name): \(error)")
            }
        }
        path("encode", { try encoder.encode(value) }, check: { $0 == bytes })
        path("encodeTree", { try encoder.encodeTree(value) }, check: { $0 == tree })
        path(
            "encode(tree:) of encodeTree", { try encoder.encode(tree: encoder.encodeTree(value)) },
            check: { $0 == bytes })
        path("decode", { try decoder.decode(T.self, from: bytes) }, check: { $0 == value })
        path("decodeTree", { try decoder.decodeTree(T.self, from: bytes) }, check: { $0 == tree })
        path(
            "encode(tree:) of decodeTree", { try encoder.encode(tree: decoder.decodeTree(T.self, from: bytes)) },
            check: { $0 == bytes })
        path("decode(fromTree:)", { try decoder.decode(T.self, fromTree: tree) }, check: { $0 == value })
        var transcoder = BinaryTranscoder(from: format, to: format == .v3 ? .v2 : .v3)
        transcoder.decoder.limits.maximumDepth = limit
        transcoder.encoder.maximumDepth = limit
        path("transcode", { try transcoder.transcode(T.self, from: bytes) })
        return outcome
    }

    /// What went against the rule for `value` of `levels` levels: a path that refused it though
    /// `levels <= limit`, or accepted it though `levels > limit`, or any other problem.
    static func failures<T: Codable & Equatable>(
        _ value: T, levels: Int, format: BinaryFormat, limit: Int, _ label: String
    ) -> [String] {
        let outcome = run(value, format: format, limit: limit)
        var failures = outcome.problems.map { "\(format) \(label): \($0)" }
        if levels <= limit, !outcome.refused.isEmpty {
            failures.append("\(format) \(label): refused by \(outcome.refused)")
        }
        if levels > limit, !outcome.accepted.isEmpty {
            failures.append("\(format) \(label): accepted by \(outcome.accepted)")
        }
        if levels <= limit { failures += rawFailures(value, format: format, limit: limit, label) }
        return failures
    }

    /// Read without a type, with the same limit: whatever the decoder reads, `decodeRaw` and
    /// `explain` read too (and `decodeRaw` gives the bytes back).
    static func rawFailures<T: Codable>(_ value: T, format: BinaryFormat, limit: Int, _ label: String) -> [String] {
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = limit
        do {
            var unlimited = BinaryEncoder(format: format)
            unlimited.maximumDepth = Int.max
            let bytes = try unlimited.encode(value)
            guard try decoder.decodeRaw(from: bytes).serialized() == bytes else {
                return ["\(format) \(label): decodeRaw: other bytes back"]
            }
            _ = try decoder.explain(bytes)
            return []
        } catch {
            return ["\(format) \(label): read without a type: \(error)"]
        }
    }

    /// Runs `body` on a thread with a stack of 64 MiB and records what it returns as issues of the
    /// calling test: values of 512 levels need more stack in a debug build than a test thread may
    /// have (its frames are several times larger).
    static func onLargeStack(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: @escaping @Sendable () -> [String]
    ) {
        let found = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let failures = body()
            found.mutate { $0 = failures }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        for failure in found.value { Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation) }
    }

    static let formats: [BinaryFormat] = [.v3, .v2]

    /// The issue's value: `indirect enum Deep { case leaf, node(Deep) }` nested 257 to 512 times
    /// is accepted both ways, 513 times refused both ways.
    @Test(arguments: formats)
    func theIssuesEnum(_ format: BinaryFormat) {
        indirect enum Deep: Codable, Equatable {
            case leaf
            case node(Deep)
        }
        Self.onLargeStack {
            [257, 300, 511, 512, 513].flatMap { levels in
                var deep = Deep.leaf
                for _ in 1..<levels { deep = .node(deep) }
                return Self.failures(deep, levels: levels, format: format, limit: 512, "Deep × \(levels)")
            }
        }
    }

    /// The default limit, at and one past it, in both formats, with roots of four shapes.
    @Test(arguments: formats, [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func atTheDefaultLimit(_ format: BinaryFormat, _ seed: UInt64) {
        let limit = BinaryEncoder().maximumDepth
        #expect(limit == BinaryDecoder().limits.maximumDepth)
        Self.onLargeStack {
            var random = SplitMix64(seed: SplitMix64.derive(0x4445_5054_48, seed))
            return [limit, limit + 1].flatMap { levels in
                Self.rootFailures(levels: levels, limit: limit, format: format, &random, "seed \(seed)")
            }
        }
    }

    /// Small limits, many values: the same rule at every limit.
    @Test(arguments: formats)
    func atSmallLimits(_ format: BinaryFormat) {
        Self.onLargeStack {
            var random = SplitMix64(seed: 0x5348_414c_4c4f_57)
            var failures: [String] = []
            for limit in 2...24 {
                for _ in 0..<6 {
                    for levels in [limit - 1, limit, limit + 1, limit + 2] {
                        failures += Self.rootFailures(
                            levels: levels, limit: limit, format: format, &random, "limit \(limit)")
                    }
                }
            }
            return failures
        }
    }

    /// A class whose subclass codes it through a `superEncoder()`: the super content is a level.
    class Base: Codable, Equatable {
        let inner: Chain
        init(inner: Chain) { self.inner = inner }
        static func == (a: Base, b: Base) -> Bool {
            a.inner == b.inner && (a as? Derived)?.tag == (b as? Derived)?.tag
        }
    }

    final class Derived: Base {
        let tag: Int
        enum K: CodingKey { case tag }
        init(tag: Int, inner: Chain) {
            self.tag = tag
            super.init(inner: inner)
        }
        required init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: K.self)
            tag = try c.decode(Int.self, forKey: .tag)
            try super.init(from: c.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(tag, forKey: .tag)
            try super.encode(to: c.superEncoder())
        }
    }

    /// Dictionaries (of leaves too), sets and super encoders are levels; leaves, arrays of
    /// leaves and optionals are not: each value at its exact depth and one short of it.
    @Test(arguments: formats)
    func whatCountsAsALevel(_ format: BinaryFormat) {
        func check<T: Codable & Equatable>(
            _ value: T, levels: Int, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            for limit in [levels - 1, levels] {
                let text = "\(label), limit \(limit)"
                for failure in Self.failures(value, levels: levels, format: format, limit: limit, text) {
                    Issue.record(Comment(rawValue: failure), sourceLocation: sourceLocation)
                }
            }
        }
        check(["a": 1], levels: 1, "[String: Int]")
        check([1: ["a": [1, 2]]], levels: 2, "[Int: [String: [Int]]]")
        check(["a": Chain.end], levels: 2, "[String: Chain]")
        check([["a": 1]], levels: 2, "[[String: Int]]")
        check(Set([Record(tag: 1, next: nil)]), levels: 2, "Set<Record>")
        check(Record(tag: 1, next: nil), levels: 1, "Record")
        check([Int?](arrayLiteral: 1, 2), levels: 1, "[Int?]")
        check(Wrapper(.end), levels: 2, "Wrapper")
        check(Derived(tag: 1, inner: .end), levels: 3, "Derived")
        check(Derived(tag: 1, inner: .payload(.end)), levels: 4, "Derived")
    }

    /// The failures of a `Chain`, an array of chains, an optional chain and a struct at the root,
    /// each of exactly `levels` levels.
    static func rootFailures(
        levels: Int, limit: Int, format: BinaryFormat, _ random: inout SplitMix64, _ label: String
    ) -> [String] {
        let inner = chain(levels: max(levels - 1, 1), &random)
        let whole = chain(levels: levels, &random)
        let text = "\(label), \(levels) levels, limit \(limit)"
        var found = failures(whole, levels: levels, format: format, limit: limit, "Chain, \(text)")
        found += failures(Chain?.some(whole), levels: levels, format: format, limit: limit, "Chain?, \(text)")
        guard levels >= 2 else { return found }
        found += failures([inner, .end], levels: levels, format: format, limit: limit, "[Chain], \(text)")
        found += failures(Record(tag: 3, next: inner), levels: levels, format: format, limit: limit, "Record, \(text)")
        return found
    }
}
