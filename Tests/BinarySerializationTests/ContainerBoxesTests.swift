import Testing

@testable import BinarySerialization

/// A decoding run hands the standard library's box of a finished keyed container out again for the
/// next container of the same key type at the same depth, unless something still holds it
/// (``ContainerBoxes``).
@Suite struct ContainerBoxesTests {
    /// The reuse rests on the wrappers' layout; on the platforms CI runs, it holds, so the rest of
    /// the suite runs with reuse on.
    @Test func theWrappersAreOneReferenceHere() {
        #expect(ContainerBoxes.wrappersAreOneReference)
    }

    final class Log: @unchecked Sendable {
        struct Weak { weak var box: AnyObject? }
        var boxes: [Weak] = []
        var kept: [KeyedDecodingContainer<BoxTestKey>] = []
        let keepEvery: Int
        init(keepEvery: Int) { self.keepEvery = keepEvery }
        static let key = CodingUserInfoKey(rawValue: "boxes")!
    }

    struct Numbered: Codable { var n: Int }

    /// Notes its container's box (weakly), and keeps the container when `n` is a multiple of the
    /// log's `keepEvery`.
    struct Noting: Decodable {
        let n: Int
        init(from decoder: any Decoder) throws {
            let log = try #require(decoder.userInfo[Log.key] as? Log)
            let c = try decoder.container(keyedBy: BoxTestKey.self)
            n = try c.decode(Int.self, forKey: "n")
            log.boxes.append(Log.Weak(box: ContainerBoxes.box(of: c)))
            if log.keepEvery > 0, n % log.keepEvery == 0 { log.kept.append(c) }
        }
    }

    func decode(_ count: Int, _ log: Log) throws -> [Int] {
        let tree = try TreeEncoder().encodeTree((0..<count).map { Numbered(n: $0) })
        var decoder = BinaryDecoder()
        decoder.userInfo[Log.key] = log
        return try decoder.decode([Noting].self, fromTree: tree).map(\.n)
    }

    /// Siblings that let their containers go share one box, which the thread keeps for its next
    /// run (so the weak references still reach it).
    @Test(.enabled(if: ContainerBoxes.reusesBoxes, "boxes are reused"))
    func siblingsShareOneBox() throws {
        let log = Log(keepEvery: 0)
        #expect(try decode(10, log) == Array(0..<10))
        let first = try #require(log.boxes.first?.box)
        #expect(log.boxes.allSatisfy { $0.box === first })
    }

    /// A kept container's box is never handed to a later value: each kept container has a box of
    /// its own and reads its own value.
    @Test func aKeptContainersBoxIsNotHandedOut() throws {
        let log = Log(keepEvery: 3)
        #expect(try decode(10, log) == Array(0..<10))
        let keptBoxes = log.kept.map { ObjectIdentifier(ContainerBoxes.box(of: $0)) }
        #expect(keptBoxes.count == 4)
        #expect(Set(keptBoxes).count == 4)
        // Tree containers keep working after the run.
        #expect(try log.kept.map { try $0.decode(Int.self, forKey: "n") } == [0, 3, 6, 9])
        log.kept.removeAll()
    }

    /// Values of two key types one after the other at the same depth: each container is rebuilt
    /// for its own key type (``ContainerBoxes/Rebuilder``), never from the other type's box, and
    /// reads its own field.
    struct Alternating: Decodable {
        enum KeysA: String, CodingKey { case a }
        enum KeysB: String, CodingKey { case b }
        let value: Int
        init(from decoder: any Decoder) throws {
            if let a = try? decoder.container(keyedBy: KeysA.self), a.contains(.a) {
                value = try a.decode(Int.self, forKey: .a)
            } else {
                value = -(try decoder.container(keyedBy: KeysB.self).decode(Int.self, forKey: .b))
            }
        }
    }

    @Test func alternatingKeyTypesEachGetTheirOwnWrapper() throws {
        let elements: [BinaryValue] = (0..<12).map { i in
            i % 3 == 2 ? ["b": .int(i)] : ["a": .int(i)]
        }
        let values = try BinaryDecoder().decode([Alternating].self, fromTree: .unkeyed(elements)).map(\.value)
        #expect(values == (0..<12).map { $0 % 3 == 2 ? -$0 : $0 })
    }

    /// Notes, per key type, the box of each container it opens (weakly), and keeps the container
    /// of every `keepEvery`-th value.
    final class TurnLog: @unchecked Sendable {
        var boxes: [String: [Log.Weak]] = [:]
        var kept: [(n: Int, read: () throws -> Int)] = []
        let keepEvery: Int
        init(keepEvery: Int) { self.keepEvery = keepEvery }
        static let key = CodingUserInfoKey(rawValue: "turns")!
    }

    /// Three key types taking turns at one depth, as an enum's cases or a struct's fields of
    /// different types do: `{"a": n}`, `{"b": n}` or `{"c": n}` by `n % 3`.
    struct TakingTurns: Decodable {
        enum KeysA: String, CodingKey { case a }
        enum KeysB: String, CodingKey { case b }
        enum KeysC: String, CodingKey { case c }
        let n: Int

        init(from decoder: any Decoder) throws {
            let log = try #require(decoder.userInfo[TurnLog.key] as? TurnLog)
            func read<K: CodingKey>(_ type: K.Type, _ key: K) throws -> Int {
                let c = try decoder.container(keyedBy: K.self)
                let n = try c.decode(Int.self, forKey: key)
                log.boxes["\(K.self)", default: []].append(Log.Weak(box: ContainerBoxes.box(of: c)))
                if log.keepEvery > 0, n % log.keepEvery == 0 {
                    log.kept.append((n, { try c.decode(Int.self, forKey: key) }))
                }
                return n
            }
            let any = try decoder.container(keyedBy: BoxTestKey.self)
            if any.contains("a") {
                n = try read(KeysA.self, .a)
            } else if any.contains("b") {
                n = try read(KeysB.self, .b)
            } else {
                n = try read(KeysC.self, .c)
            }
        }
    }

    func decodeTurns(_ count: Int, _ log: TurnLog) throws -> [Int] {
        let elements: [BinaryValue] = (0..<count).map { i in [["a", "b", "c"][i % 3]: .int(i)] }
        var decoder = BinaryDecoder()
        decoder.userInfo[TurnLog.key] = log
        return try decoder.decode([TakingTurns].self, fromTree: .unkeyed(elements)).map(\.n)
    }

    /// Key types taking turns at one depth each get the box of their own type back (the others
    /// are kept as spares), not a new box per value.
    @Test(.enabled(if: ContainerBoxes.reusesBoxes, "boxes are reused"))
    func keyTypesTakingTurnsEachReuseTheirBox() throws {
        let log = TurnLog(keepEvery: 0)
        #expect(try decodeTurns(30, log) == Array(0..<30))
        #expect(log.boxes.count == 3)
        var firsts: [ObjectIdentifier] = []
        for (type, boxes) in log.boxes {
            let first = try #require(boxes.first?.box, "\(type)")
            #expect(boxes.count == 10 && boxes.allSatisfy { $0.box === first }, "\(type)")
            firsts.append(ObjectIdentifier(first))
        }
        #expect(Set(firsts).count == 3)
    }

    /// A kept container's box, last or spare, is never handed to a later value: each kept
    /// container has a box of its own and reads its own value after the run.
    @Test func aKeptContainerAmongTakingTurnsIsNotHandedOut() throws {
        let log = TurnLog(keepEvery: 4)
        #expect(try decodeTurns(30, log) == Array(0..<30))
        #expect(log.kept.map(\.n) == Array(stride(from: 0, to: 30, by: 4)))
        #expect(try log.kept.map { try $0.read() } == log.kept.map(\.n))
        log.kept.removeAll()
    }
}

/// A key of any name, for containers the tests open by hand.
struct BoxTestKey: CodingKey, ExpressibleByStringLiteral {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, self.intValue) = (stringValue, nil) }
    init?(intValue: Int) { (self.stringValue, self.intValue) = (String(intValue), intValue) }
    init(stringLiteral value: String) { self.init(stringValue: value) }
}
