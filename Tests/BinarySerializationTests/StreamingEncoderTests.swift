import BinarySerialization
import Foundation
import Testing

/// Unsorted encoding, in v3 and in v2, is written without a tree (`BinaryEncoder.streamed`).
/// Whenever the streaming run finishes, its bytes must be the tree's; whenever it gives up,
/// `encode` must give exactly what the tree path gives (bytes or error). The random suites check
/// the first over ~9,000 values of synthesized types; these tests name the call sequences of
/// hand-written `encode(to:)` code, in each format and option that changes the bytes.
@Suite struct StreamingEncoderTests {
    /// An unsorted encoder: v3, v2, or v2 with nil index sets.
    typealias Setup = EncoderSetup

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ s: String) { stringValue = s }
        init(int: Int) {
            stringValue = String(int)
            intValue = int
        }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A value whose `encode(to:)` is a closure, so each test states its call sequence.
    struct Scripted: Encodable {
        let body: @Sendable (any Encoder) throws -> Void
        func encode(to encoder: any Encoder) throws { try body(encoder) }
    }

    /// Bytes, or the description of the error.
    enum Outcome: Equatable {
        case bytes(Data)
        case error(String)
    }

    /// The tree path's outcome.
    static func viaTree(_ value: some Encodable, _ encoder: BinaryEncoder = BinaryEncoder()) -> Outcome {
        do {
            return .bytes(try encoder.encode(tree: encoder.encodeTree(value)))
        } catch {
            return .error("\(error)")
        }
    }

    static func viaEncode(_ value: some Encodable, _ encoder: BinaryEncoder = BinaryEncoder()) -> Outcome {
        do {
            return .bytes(try encoder.encode(value))
        } catch {
            return .error("\(error)")
        }
    }

    // MARK: Sequences the streaming encoder handles (where the format can write them)

    struct Streams: CustomStringConvertible, Sendable {
        let description: String
        let value: Scripted
    }

    /// One instance, so that both paths see its entries in the same order.
    static let largeDictionary = Dictionary(uniqueKeysWithValues: (0..<500).map { ("key\($0)", $0) })

    static let streams: [Streams] = [
        Streams(
            description: "nested keyed, then parent written again (lazy close)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                var n = c.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
                try n.encode(1, forKey: Key("x"))
                try n.encode("deep", forKey: Key("y"))
                try c.encode(2, forKey: Key("after"))
            }),
        Streams(
            description: "nested unkeyed in unkeyed, three levels, then the outer again",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                var a = c.nestedUnkeyedContainer()
                var b = a.nestedUnkeyedContainer()
                try b.encode(Int8(-1))
                try b.encodeNil()
                try a.encode("a")
                try c.encode(true)
            }),
        Streams(
            description: "super encoders, keyed and unkeyed, with every container kind",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                var s = c.superEncoder().singleValueContainer()
                try s.encode(UInt16(7))
                var k = c.superEncoder(forKey: Key("k")).container(keyedBy: Key.self)
                try k.encode(Data([1, 2, 3]), forKey: Key("d"))
                var u = c.nestedUnkeyedContainer(forKey: Key("u"))
                let empty = u.superEncoder()  // asks for nothing: an empty keyed container
                _ = empty
                var v = u.superEncoder().unkeyedContainer()
                try v.encode(3.5)
            }),
        Streams(
            description: "the same container asked for twice",
            value: Scripted { e in
                var a = e.container(keyedBy: Key.self)
                try a.encode(1, forKey: Key("a"))
                var b = e.container(keyedBy: Key.self)
                try b.encode(2, forKey: Key("b"))
                try a.encode(3, forKey: Key("c"))
            }),
        Streams(
            description: "optionals at every depth, explicit nils, encodeNil(forKey:)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(Int??.some(nil), forKey: Key("someNil"))
                try c.encode(Int?.none, forKey: Key("none"))
                try c.encodeNil(forKey: Key("skipped"))
                try c.encode([Int?.none, 3], forKey: Key("list"))
                var s = c.superEncoder(forKey: Key("s")).singleValueContainer()
                try s.encode(String??.some(.some("x")))
            }),
        Streams(
            description: "a single value holding a keyed value, and a single nil",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode(
                            Scripted { deeper in
                                var k = deeper.container(keyedBy: Key.self)
                                try k.encode("v", forKey: Key("k"))
                            })
                    })
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encodeNil()
                    })
            }),
        Streams(
            description: "a keyed container of 40 string keys (the key set)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<40 { try c.encode(i, forKey: Key("field\(i)")) }
            }),
        Streams(
            description: "a keyed container of 40 keys: string, integer and non-ASCII (the key set)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<20 { try c.encode(i, forKey: Key("k\(i)")) }
                for i in 0..<10 { try c.encode(i, forKey: Key(int: i)) }
                for i in 0..<10 { try c.encode(i, forKey: Key("é\(i)")) }
                try c.encode(1, forKey: Key("last"))
            }),
        Streams(
            description: "a [String: Int] of 500 entries",
            value: Scripted { e in
                var c = e.singleValueContainer()
                try c.encode(largeDictionary)
            }),
        Streams(
            description:
                "the Kelvin sign after K in a container of 20 keys (equal strings, other bytes: two keys, as in the tree)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(0, forKey: Key("K"))
                for i in 0..<20 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(1, forKey: Key("\u{212A}"))
            }),
        Streams(
            description: "K after the Kelvin sign in a container of 20 keys (two keys, in either order)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(0, forKey: Key("\u{212A}"))
                for i in 0..<20 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(1, forKey: Key("K"))
            }),
        Streams(
            description: "integer keys past 63 that share a filter bit",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in [1, 65, 129, 2, 66] { try c.encode(i, forKey: Key(int: i)) }
            }),
        Streams(
            description: "elements long enough for two- and three-byte prefixes",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                try c.encode([String](repeating: "0123456789", count: 7))
                try c.encode(String(repeating: "x", count: 70_000))
                var n = c.nestedContainer(keyedBy: Key.self)
                try n.encode(String(repeating: "y", count: 200), forKey: Key("y"))
            }),
    ]

    /// Where v2 and v3 differ: wire types of keys (through `.single`), fields v2 leaves out,
    /// optionals, nil index sets, and what only one of the formats can write.
    static let formatCases: [Streams] = [
        Streams(
            description: "a negative integer key (v2 bytes, no v3 bytes)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(1, forKey: Key(int: -3))
                try c.encode("s", forKey: Key(int: -(1 << 59)))
            }),
        Streams(
            description: "an integer key past 2^59 (v3 bytes, no v2 bytes)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(1, forKey: Key(int: 1 << 59))
            }),
        Streams(
            description: "an integer key past 2^59 on a field v2 leaves out, then another field",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(Int?.none, forKey: Key(int: 1 << 60))
                try c.encode(2, forKey: Key(int: 2))
            }),
        Streams(
            description: "a key on every wire type, directly and through single-value containers",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(true, forKey: Key("bool"))
                try c.encode(Int8(-2), forKey: Key("i8"))
                try c.encode(UInt16(300), forKey: Key("u16"))
                try c.encode(FixedSizeEncoded(wrappedValue: Int32(-5)), forKey: Key("fixed32"))
                try c.encode(FixedSizeEncoded(wrappedValue: UInt64(7)), forKey: Key(int: 9))
                try c.encode(Float(1.5), forKey: Key("f"))
                try c.encode(2.5, forKey: Key("d"))
                try c.encode(Data([1, 2]), forKey: Key("data"))
                try c.encode([1.0, 2.0], forKey: Key("packed"))
                try c.encode(["a", "b"], forKey: Key("strings"))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode(
                            Scripted { deeper in
                                var t = deeper.singleValueContainer()
                                try t.encode(Float(3))
                            })
                    }, forKey: Key("singleSingleFloat"))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode(Int8(4))
                    }, forKey: Key(int: 1))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode([UInt8(1), 2])
                    }, forKey: Key("singlePacked"))
            }),
        Streams(
            description: "nil fields: left out directly, written inside single-value containers",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(Int?.none, forKey: Key("a"))
                try c.encode(Int??.some(nil), forKey: Key("b"))
                try c.encodeNil(forKey: Key("c"))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encodeNil()
                    }, forKey: Key("singleNil"))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode(Int?.none)
                    }, forKey: Key("singleOptionalNil"))
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encode(Int?.some(3))
                    }, forKey: Key("singleOptional"))
                try c.encode(Int?.none, forKey: Key("last"))
            }),
        Streams(
            description: "optionals as fields, elements, top level and inside optionals",
            value: Scripted { e in
                var u = e.unkeyedContainer()
                try u.encode(Int?.some(1))
                try u.encode(Int?.none)
                try u.encode(String???.some(.some(.some("x"))))
                var k = u.nestedContainer(keyedBy: Key.self)
                try k.encode(Int??.some(.some(5)), forKey: Key("o"))
                try k.encode([Int?.none, 2], forKey: Key("list"))
                try k.encode(["x": Int?.none], forKey: Key("dict"))
            }),
        Streams(
            description: "an optional at the top level",
            value: Scripted { e in
                var s = e.singleValueContainer()
                try s.encode(Int??.some(.some(8)))
            }),
        Streams(
            description: "explicit nil elements at several indices and depths",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                try c.encodeNil()
                try c.encode(1)
                var n = c.nestedUnkeyedContainer()
                try n.encode("a")
                try n.encodeNil()
                var m = n.nestedUnkeyedContainer()
                try m.encodeNil()
                try m.encodeNil()
                try n.encodeNil()
                try c.encodeNil()
                var k = c.nestedContainer(keyedBy: Key.self)
                var l = k.nestedUnkeyedContainer(forKey: Key("l"))
                try l.encode(true)
                try l.encodeNil()
                try c.encode([Int8(1)])
                try c.encodeNil()
            }),
        Streams(
            description: "an explicit nil element at index 200 in a long container",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                for i in 0..<200 { try c.encode(String(repeating: "z", count: i)) }
                try c.encodeNil()
            }),
        Streams(
            description: "a single-value nil as an element (a value, not a nil index)",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                try c.encode(
                    Scripted { inner in
                        var s = inner.singleValueContainer()
                        try s.encodeNil()
                    })
                try c.encode(2)
            }),
        Streams(
            description: "arrays of strings in every context (sent to the sink whole)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(["a", "", "é😀", String(repeating: "s", count: 130)], forKey: Key("field"))
                try c.encode(Optional(["o"]), forKey: Key("optional"))
                try c.encodeIfPresent(Optional([String]()), forKey: Key("emptyIfPresent"))
                try c.encode([["x", "y"], [], ["z"]], forKey: Key("nested"))
                var u = c.nestedUnkeyedContainer(forKey: Key("elements"))
                try u.encode(["in", "unkeyed"])
                try u.encode([String]())
                try u.encode(
                    Scripted { inner in
                        var single = inner.singleValueContainer()
                        try single.encode(["through", "single"])
                    })
                try c.encode(
                    Scripted { inner in
                        var single = inner.singleValueContainer()
                        try single.encode(["single", "field"])
                    }, forKey: Key("single"))
            }),
        Streams(
            description: "arrays of strings between nil elements (nil index sets count the arrays)",
            value: Scripted { e in
                var c = e.unkeyedContainer()
                try c.encode(["a", "b"])
                try c.encodeNil()
                try c.encode([String]())
                try c.encodeNil()
                var n = c.nestedUnkeyedContainer()
                try n.encode(["n"])
                try n.encodeNil()
            }),
        Streams(
            description: "an array of strings at the top level, inside a single value",
            value: Scripted { e in
                var single = e.singleValueContainer()
                try single.encode(["top", "", "level"])
            }),
        Streams(
            description: "empty containers everywhere",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                _ = c.nestedUnkeyedContainer(forKey: Key("u"))
                _ = c.nestedContainer(keyedBy: Key.self, forKey: Key("k"))
                try c.encode([Int](), forKey: Key("packed"))
                try c.encode([String](), forKey: Key("strings"))
                try c.encode(Scripted { _ in }, forKey: Key("nothing"))
            }),
    ]

    /// Every case in every setup: streamed exactly when the tree path can write the value, and
    /// then the same bytes.
    @Test(arguments: streams + formatCases, Setup.all)
    func streamedEqualsTree(_ c: Streams, _ setup: Setup) throws {
        let tree = Self.viaTree(c.value, setup.encoder)
        let streamed = setup.encoder.streamed(c.value)
        if case .bytes = tree {
            let bytes = try #require(streamed, "the streaming encoder gave up")
            #expect(tree == .bytes(bytes))
        } else {
            #expect(streamed == nil)
        }
        #expect(Self.viaEncode(c.value, setup.encoder) == tree)
    }

    /// Which cases the formats cannot write (the tree path's errors), so that the test above
    /// covers giving up in each.
    @Test func formatsRefuseTheExpectedCases() {
        let refused = Setup.all.map { setup in
            (Self.streams + Self.formatCases).filter { c in
                if case .error = Self.viaTree(c.value, setup.encoder) { return true }
                return false
            }.map(\.description)
        }
        #expect(refused[0] == ["a negative integer key (v2 bytes, no v3 bytes)"])
        #expect(
            refused[1] == [
                "nested unkeyed in unkeyed, three levels, then the outer again",
                "an integer key past 2^59 (v3 bytes, no v2 bytes)",
                "explicit nil elements at several indices and depths",
                "an explicit nil element at index 200 in a long container",
                "arrays of strings between nil elements (nil index sets count the arrays)",
            ])
        #expect(refused[2] == ["an integer key past 2^59 (v3 bytes, no v2 bytes)"])
    }

    // MARK: Sequences it leaves to the tree

    static let givesUp: [Streams] = [
        Streams(
            description: "a key written twice (the tree keeps the last value in place)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(1, forKey: Key("a"))
                try c.encode(2, forKey: Key("b"))
                try c.encode(3, forKey: Key("a"))
            }),
        Streams(
            description: "a key written twice in a container of 20 keys",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<20 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(99, forKey: Key("f3"))
            }),
        Streams(
            description: "a key written twice in a container of 40 keys",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<40 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(99, forKey: Key("f30"))
            }),
        Streams(
            description: "a non-ASCII key written twice in a container of 30 keys",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<20 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(1, forKey: Key("ü"))
                for i in 20..<30 { try c.encode(i, forKey: Key("f\(i)")) }
                try c.encode(2, forKey: Key("ü"))
            }),
        Streams(
            description: "a nested container written after a sibling was opened",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                var a = c.nestedUnkeyedContainer(forKey: Key("a"))
                var b = c.nestedUnkeyedContainer(forKey: Key("b"))
                try b.encode(2)
                try a.encode(1)
            }),
        Streams(
            description: "a single-value container written twice (the tree keeps the last)",
            value: Scripted { e in
                var s = e.singleValueContainer()
                try s.encode(1)
                try s.encode("two")
            }),
        Streams(
            description: "a keyed container asked for after an unkeyed one",
            value: Scripted { e in
                var u = e.unkeyedContainer()
                try u.encode(1)
                var k = e.container(keyedBy: Key.self)
                try k.encode(2, forKey: Key("k"))
            }),
        Streams(
            description: "a single-value container without a value",
            value: Scripted { e in _ = e.singleValueContainer() }),
        Streams(
            description: "two keys with one integer value",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(1, forKey: Key(int: 7))
                var k = Key("007")
                k.intValue = 7
                try c.encode(2, forKey: k)
            }),
        // Primitive fields note an integer key without its name (`BinaryKey(writtenAs:)`):
        // repeats are still found, by the integer, against named keys too.
        Streams(
            description: "an integer key written twice in a container of 40 integer keys",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                for i in 0..<40 { try c.encode(i, forKey: Key(int: i)) }
                try c.encode(99, forKey: Key(int: 31))
            }),
        Streams(
            description: "an integer key of a primitive repeating a nested value's",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode([1, 2], forKey: Key(int: 4))
                try c.encode(true, forKey: Key(int: 4))
            }),
        Streams(
            description: "a nested value's integer key repeating a primitive's",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(true, forKey: Key(int: 4))
                var n = c.nestedUnkeyedContainer(forKey: Key(int: 4))
                try n.encode(1)
            }),
        Streams(
            description: "an error thrown by encode(to:)",
            value: Scripted { e in
                var c = e.container(keyedBy: Key.self)
                try c.encode(1, forKey: Key("a"))
                throw EncodingError.invalidValue(1, .init(codingPath: c.codingPath, debugDescription: "refused"))
            }),
    ]

    @Test(arguments: givesUp, Setup.all)
    func givesUpAndEncodeMatchesTree(_ c: Streams, _ setup: Setup) {
        #expect(setup.encoder.streamed(c.value) == nil)
        #expect(Self.viaEncode(c.value, setup.encoder) == Self.viaTree(c.value, setup.encoder))
    }

    /// A container kept past its `encode(to:)` and written later: the streaming run gives up, and
    /// `encode` reports the late write as the tree path does.
    @Test(arguments: Setup.all)
    func lateWriteIsAnError(_ setup: Setup) {
        final class Keeper: @unchecked Sendable { var container: UnkeyedEncodingContainer? }
        let keeper = Keeper()
        let value = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(Scripted { inner in keeper.container = inner.unkeyedContainer() })
            try keeper.container?.encode(5)
        }
        #expect(setup.encoder.streamed(value) == nil)
        #expect(throws: EncodingError.self) { try setup.encoder.encode(value) }
    }

    /// An `encode(to:)` that encodes another value with a `BinaryEncoder` while its own encoding
    /// runs: each run has its own engine and sink (the thread's cached pair is in use).
    @Test(arguments: Setup.all)
    func nestedEncodingRuns(_ setup: Setup) throws {
        let value = Scripted { e in
            var c = e.container(keyedBy: Key.self)
            try c.encode("before", forKey: Key("a"))
            let inner = try setup.encoder.encode(["x", "y"])
            try c.encode(inner, forKey: Key("inner"))
            try c.encode(
                Scripted { e2 in
                    var u = e2.unkeyedContainer()
                    try u.encode(try BinaryEncoder(format: .v3).encode([1, 2, 3]))
                    try u.encode(try BinaryEncoder(format: .v2).encode([Int?.some(1)]))
                }, forKey: Key("b"))
        }
        let streamed = try #require(setup.encoder.streamed(value))
        #expect(Self.viaTree(value, setup.encoder) == .bytes(streamed))
        // The thread's scratch is back and gives the same bytes again.
        #expect(setup.encoder.streamed(value) == streamed)
    }

    /// A container kept from one run and written during a later run on the same thread (whose
    /// engine is the same object): it never reaches the later run's bytes.
    @Test(arguments: Setup.all)
    func containerFromAnEarlierRunDoesNotWriteIntoALaterOne(_ setup: Setup) throws {
        final class Keeper: @unchecked Sendable { var container: UnkeyedEncodingContainer? }
        let keeper = Keeper()
        let first = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(1)
            keeper.container = c
        }
        _ = try setup.encoder.encode(first)
        let second = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(2)
            try? keeper.container?.encode(99)
            try c.encode(3)
        }
        let encoded = try setup.encoder.encode(second)
        #expect(.bytes(encoded) == Self.viaTree(second, setup.encoder))
        let twoAndThree = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(2)
            try c.encode(3)
        }
        #expect(encoded == (try setup.encoder.encode(twoAndThree)))
    }

    /// A container handed out after the streaming run gave up (a misuse), kept, and written at the
    /// end of a later run on the same thread: it must not reach the later run's bytes (the
    /// container of a run that gave up belongs to no frame, not even the later run's root).
    @Test(arguments: Setup.all)
    func containerFromARunThatGaveUpDoesNotWriteIntoALaterOne(_ setup: Setup) throws {
        final class Keeper: @unchecked Sendable { var container: KeyedEncodingContainer<Key>? }
        let keeper = Keeper()
        let first = Scripted { e in
            var u = e.unkeyedContainer()
            try u.encode(1)
            // A keyed container after an unkeyed one: the streaming run gives up here. Only the
            // streaming run's container is kept (the tree path runs this closure again).
            let k = e.container(keyedBy: Key.self)
            if keeper.container == nil { keeper.container = k }
        }
        _ = try? setup.encoder.encode(first)
        let second = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(2)
            try? keeper.container?.encode(99, forKey: Key("late"))
        }
        let encoded = try setup.encoder.encode(second)
        #expect(.bytes(encoded) == Self.viaTree(second, setup.encoder))
        let justTwo = Scripted { e in
            var c = e.unkeyedContainer()
            try c.encode(2)
        }
        #expect(encoded == (try setup.encoder.encode(justTwo)))
    }

    /// `codingPath` read inside `encode(to:)` is the same in both paths.
    @Test func codingPathsMatchTheTreePath() throws {
        final class Paths: @unchecked Sendable { var seen: [String] = [] }
        func value(_ paths: Paths) -> Scripted {
            Scripted { e in
                var c = e.container(keyedBy: Key.self)
                var n = c.nestedUnkeyedContainer(forKey: Key("list"))
                try n.encode(
                    Scripted { inner in
                        paths.seen.append(inner.codingPath.map(\.stringValue).joined(separator: "/"))
                        var k = inner.container(keyedBy: Key.self)
                        paths.seen.append(k.codingPath.map(\.stringValue).joined(separator: "/"))
                        try k.encode(1, forKey: Key("x"))
                    })
                paths.seen.append(n.codingPath.map(\.stringValue).joined(separator: "/"))
                var sup = c.superEncoder(forKey: Key("sup")).container(keyedBy: Key.self)
                var s = sup.nestedContainer(keyedBy: Key.self, forKey: Key("inner"))
                paths.seen.append(s.codingPath.map(\.stringValue).joined(separator: "/"))
                try s.encode(2, forKey: Key("y"))
            }
        }
        let streamedPaths = Paths()
        _ = try #require(BinaryEncoder().streamed(value(streamedPaths)))
        let treePaths = Paths()
        _ = try BinaryEncoder().encodeTree(value(treePaths))
        #expect(streamedPaths.seen == treePaths.seen)
        #expect(streamedPaths.seen == ["list/Index 0", "list/Index 0", "list", "sup/inner"])
    }

    /// Deeper than `maximumDepth`: an error in both paths, at the same limit.
    @Test(arguments: [3, 4, 5], Setup.all)
    func depthLimit(_ depth: Int, _ setup: Setup) {
        indirect enum Chain: Encodable {
            case end
            case link(Chain)
            func encode(to encoder: any Encoder) throws {
                var c = encoder.unkeyedContainer()
                if case .link(let next) = self { try c.encode(next) }
            }
        }
        var chain = Chain.end
        for _ in 0..<depth { chain = .link(chain) }
        var encoder = setup.encoder
        encoder.maximumDepth = 4
        let streamed = encoder.streamed(chain)
        let tree = Result { try encoder.encode(tree: encoder.encodeTree(chain)) }
        switch tree {
        case .success(let bytes): #expect(streamed == bytes)
        case .failure: #expect(streamed == nil)
        }
        #expect((try? encoder.encode(chain)) == (try? tree.get()))
    }
}
