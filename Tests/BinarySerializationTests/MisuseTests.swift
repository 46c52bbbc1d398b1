import BinarySerialization
import Foundation
import Testing

/// Every sequence of `Encoder`/`Decoder` calls that Swift's type system allows ends in a value
/// or an `EncodingError`/`DecodingError`: never a trap, a read of memory the decoder does not
/// own, or a silently dropped write. Run under AddressSanitizer in CI.
@Suite struct MisuseTests {
    static let formats: [BinaryFormat] = [.v3, .v2]

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ s: String) { stringValue = s }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    // MARK: Encoding: container requests in every order

    /// The steps a misbehaving `encode(to:)` performs, in order.
    enum Step: CaseIterable {
        case keyed, keyedMany, unkeyed, single, nestedKeyed, nestedUnkeyed, superEncoder, reencodeKey
    }

    struct Scripted: Encodable {
        let steps: [Step]
        func encode(to encoder: any Encoder) throws {
            for step in steps {
                switch step {
                case .keyed:
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(1, forKey: Key("a"))
                case .keyedMany:
                    // More than 16 fields: the encoder's key index is in use.
                    var c = encoder.container(keyedBy: Key.self)
                    for i in 0..<20 { try c.encode(i, forKey: Key("f\(i)")) }
                case .unkeyed:
                    var c = encoder.unkeyedContainer()
                    try c.encode("x")
                case .single:
                    var c = encoder.singleValueContainer()
                    try c.encode(true)
                case .nestedKeyed:
                    var c = encoder.container(keyedBy: Key.self)
                    var n = c.nestedContainer(keyedBy: Key.self, forKey: Key("n"))
                    try n.encode(2, forKey: Key("b"))
                case .nestedUnkeyed:
                    var c = encoder.unkeyedContainer()
                    var n = c.nestedUnkeyedContainer()
                    try n.encode(3)
                case .superEncoder:
                    var c = encoder.container(keyedBy: Key.self)
                    var s = c.superEncoder().singleValueContainer()
                    try s.encode(4)
                case .reencodeKey:
                    var c = encoder.container(keyedBy: Key.self)
                    try c.encode(5, forKey: Key("f3"))
                    try c.encode(6, forKey: Key("a"))
                }
            }
        }
    }

    /// All sequences of up to three steps, in both formats and as a tree.
    @Test(arguments: formats)
    func everyContainerSequenceEndsInAValueOrAnError(_ format: BinaryFormat) throws {
        var sequences: [[Step]] = Step.allCases.map { [$0] }
        for a in Step.allCases { for b in Step.allCases { sequences.append([a, b]) } }
        for a in Step.allCases {
            for b in Step.allCases { for c in [Step.keyed, .keyedMany, .reencodeKey] { sequences.append([a, b, c]) } }
        }
        var values = 0
        var errors = 0
        for steps in sequences {
            for wrapped in [false, true] {
                do {
                    if wrapped {
                        _ = try BinaryEncoder(format: format).encode(["k": [Scripted(steps: steps)]])
                    } else {
                        _ = try BinaryEncoder(format: format).encode(Scripted(steps: steps))
                    }
                    values += 1
                } catch let error as EncodingError {
                    errors += 1
                    if wrapped, case .invalidValue(_, let context) = error {
                        #expect(context.codingPath.first?.stringValue == "k", "\(steps): \(context.codingPath)")
                    }
                } catch {
                    Issue.record("\(steps): threw \(type(of: error)), not EncodingError")
                }
            }
        }
        #expect(values > 0 && errors > 0)
    }

    /// The reported trap: more than 16 fields, an unkeyed container, a keyed container again,
    /// and an existing key encoded again.
    @Test(arguments: formats)
    func keyedUnkeyedKeyedWithManyFieldsThrows(_ format: BinaryFormat) throws {
        let error = #expect(throws: EncodingError.self) {
            try BinaryEncoder(format: format).encode(Scripted(steps: [.keyedMany, .unkeyed, .reencodeKey]))
        }
        if case .invalidValue(_, let context) = error {
            #expect(context.debugDescription.contains("misuse"), "\(context.debugDescription)")
        }
    }

    // MARK: Encoding: containers used after their value was finished

    final class Stash: @unchecked Sendable {
        var keyed: KeyedEncodingContainer<Key>?
        var unkeyed: (any UnkeyedEncodingContainer)?
        var encoder: (any Encoder)?
    }

    struct Leaky: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(1, forKey: Key("a"))
            stash.keyed = c
            stash.unkeyed = c.nestedUnkeyedContainer(forKey: Key("u"))
            stash.encoder = encoder
        }
    }

    struct LateWriter: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(Leaky(stash: stash))
            // The Leaky value is finished: a write into its containers now cannot reach the
            // output, so the encoding run fails instead of dropping it.
            try stash.keyed?.encode(2, forKey: Key("late"))
            try stash.unkeyed?.encode(3)
            var again = stash.encoder?.container(keyedBy: Key.self)
            try again?.encode(4, forKey: Key("later"))
        }
    }

    /// Encodes `value`, which writes through a container after that container's value was
    /// finished, and returns the context of the `invalidValue` error that must name the late write
    /// (`nil`, with an issue recorded, for any other outcome).
    func lateWriteError(
        encoding value: some Encodable, _ format: BinaryFormat, sourceLocation: SourceLocation = #_sourceLocation
    ) -> EncodingError.Context? {
        let error = #expect(throws: EncodingError.self, sourceLocation: sourceLocation) {
            try BinaryEncoder(format: format).encode(value)
        }
        guard case .invalidValue(_, let context) = error else {
            if let error { Issue.record("expected invalidValue, got \(error)", sourceLocation: sourceLocation) }
            return nil
        }
        #expect(
            context.debugDescription.contains("after the value it belongs to was finished"),
            sourceLocation: sourceLocation)
        return context
    }

    @Test(arguments: formats)
    func containersUsedAfterTheirValueFinished(_ format: BinaryFormat) throws {
        let stash = Stash()
        let context = lateWriteError(encoding: LateWriter(stash: stash), format)
        #expect(context?.codingPath.map(\.stringValue) == ["Index 0"])
        // Without late writes the same values encode.
        #expect(try !BinaryEncoder(format: format).encode([Leaky(stash: Stash())]).isEmpty)
        // After the top-level call returned there is no output left to protect: no crash.
        try stash.keyed?.encode(5, forKey: Key("afterReturn"))
        try stash.unkeyed?.encode(6)
        var c = stash.encoder?.unkeyedContainer()
        try c?.encode(7)
    }

    /// Keeps its keyed container.
    struct Stasher: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(1, forKey: Key("a"))
            stash.keyed = c
        }
    }

    /// Opens a keyed container of the same key type, then writes through the kept one.
    struct WritesThroughTheStash: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(2, forKey: Key("b"))
            try stash.keyed?.encode(3, forKey: Key("late"))
        }
    }

    struct StasherThenWriter: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(Stasher(stash: stash))
            try c.encode(WritesThroughTheStash(stash: stash))
        }
    }

    /// The encoder hands a finished container's box out again for the next container of its key
    /// type at the same depth, unless something still holds it. A kept container must not become
    /// the sibling's: its late write fails instead of landing in the sibling's value.
    @Test(arguments: formats)
    func aKeptKeyedContainerIsNotHandedToTheNextValue(_ format: BinaryFormat) throws {
        let stash = Stash()
        _ = lateWriteError(encoding: StasherThenWriter(stash: stash), format)
        stash.keyed = nil
    }

    /// Opens a keyed container of another key type, so that the kept container's box becomes a
    /// spare at its depth.
    struct OtherKeyType: Encodable {
        enum Keys: String, CodingKey { case other }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(0, forKey: .other)
        }
    }

    struct StasherOtherThenWriter: Encodable {
        let stash: Stash
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(Stasher(stash: stash))
            try c.encode(OtherKeyType())
            try c.encode(WritesThroughTheStash(stash: stash))
        }
    }

    /// The same with a value of another key type in between: the kept container's box is then
    /// a spare, which is not handed out either.
    @Test(arguments: formats)
    func aKeptKeyedContainerAmongSparesIsNotHandedToALaterValue(_ format: BinaryFormat) throws {
        let stash = Stash()
        _ = lateWriteError(encoding: StasherOtherThenWriter(stash: stash), format)
        stash.keyed = nil
    }

    // MARK: Decoding: decoders and containers kept past the decode call

    final class DecoderStash: @unchecked Sendable {
        var keyed: KeyedDecodingContainer<Key>?
        var unkeyed: (any UnkeyedDecodingContainer)?
        var single: (any SingleValueDecodingContainer)?
        var superDecoder: (any Decoder)?
        var decoder: (any Decoder)?

        func clear() {
            (keyed, unkeyed, single, superDecoder, decoder) = (nil, nil, nil, nil, nil)
        }
    }

    static let stashKey = CodingUserInfoKey(rawValue: "stash")!

    /// Keeps its decoder and containers in the stash passed in `userInfo`.
    struct Keeper: Decodable {
        let text: String
        init(from decoder: any Decoder) throws {
            let stash = try #require(decoder.userInfo[MisuseTests.stashKey] as? DecoderStash)
            let c = try decoder.container(keyedBy: Key.self)
            text = try c.decode(String.self, forKey: Key("text"))
            stash.keyed = c
            stash.unkeyed = try c.nestedUnkeyedContainer(forKey: Key("list"))
            stash.superDecoder = try c.superDecoder(forKey: Key("text"))
            stash.single = try stash.superDecoder?.singleValueContainer()
            stash.decoder = decoder
        }
    }

    struct Stored: Codable, Equatable {
        var text = "Hello"
        var list = ["a", "b"]
    }

    /// Before the fix, a stored container read freed memory (garbage such as "\0\0\0\0\0"
    /// instead of "Hello", a heap-use-after-free under AddressSanitizer).
    @Test(arguments: formats)
    func containersKeptPastDecodeThrowInsteadOfReadingFreedMemory(_ format: BinaryFormat) throws {
        var data = try BinaryEncoder(format: format).encode(Stored())
        let stash = DecoderStash()
        var decoder = BinaryDecoder(format: format)
        decoder.userInfo[Self.stashKey] = stash
        #expect(try decoder.decode(Keeper.self, from: data).text == "Hello")
        data.resetBytes(in: 0..<data.count)  // the caller reuses its buffer
        // Another run on this thread must not take over the kept decoders (the thread reuses a
        // finished run's decoder only when nothing holds it).
        let other = try BinaryEncoder(format: format).encode(Stored(text: "other"))
        #expect(try BinaryDecoder(format: format).decode(Stored.self, from: other).text == "other")
        #expect(throws: DecodingError.self) { try stash.keyed?.decode(String.self, forKey: Key("text")) }
        #expect(throws: DecodingError.self) { try stash.keyed?.decodeNil(forKey: Key("text")) }
        #expect(throws: DecodingError.self) { try stash.keyed?.decodeIfPresent(String.self, forKey: Key("text")) }
        #expect(throws: DecodingError.self) { try stash.keyed?.nestedContainer(keyedBy: Key.self, forKey: Key("x")) }
        #expect(throws: DecodingError.self) { try stash.keyed?.superDecoder() }
        #expect(stash.keyed?.allKeys.isEmpty == true)
        #expect(stash.keyed?.contains(Key("text")) == false)
        #expect(throws: DecodingError.self) { try stash.unkeyed?.decode(String.self) }
        #expect(throws: DecodingError.self) { try stash.unkeyed?.decodeNil() }
        #expect(stash.unkeyed?.isAtEnd == true)
        #expect(throws: DecodingError.self) { try stash.single?.decode(String.self) }
        #expect(stash.single?.decodeNil() == false)
        #expect(throws: DecodingError.self) { try stash.superDecoder?.container(keyedBy: Key.self) }
        #expect(throws: DecodingError.self) { try stash.decoder?.unkeyedContainer() }
        #expect(throws: DecodingError.self) { try stash.decoder?.singleValueContainer() }
        stash.clear()  // the stash and the decoder's userInfo hold each other
    }

    /// Keeps the keyed container of each value it decodes.
    final class KeptContainers: @unchecked Sendable {
        var keyed: [KeyedDecodingContainer<Key>] = []
    }

    static let keptKey = CodingUserInfoKey(rawValue: "kept")!

    struct KeepsItsContainer: Decodable {
        init(from decoder: any Decoder) throws {
            let kept = try #require(decoder.userInfo[MisuseTests.keptKey] as? KeptContainers)
            kept.keyed.append(try decoder.container(keyedBy: Key.self))
        }
    }

    /// Decodes each element with `KeepsItsContainer`, then reads every kept container.
    struct ReadsKeptContainersLater: Decodable {
        let texts: [String]
        let lists: [[String]]
        init(from decoder: any Decoder) throws {
            let kept = try #require(decoder.userInfo[MisuseTests.keptKey] as? KeptContainers)
            var elements = try decoder.unkeyedContainer()
            while !elements.isAtEnd { _ = try elements.decode(KeepsItsContainer.self) }
            texts = try kept.keyed.map { try $0.decode(String.self, forKey: Key("text")) }
            lists = try kept.keyed.map { try $0.decode([String].self, forKey: Key("list")) }
        }
    }

    /// The decoder reuses a finished value's keyed container state for the next value; one that
    /// its type kept must go on reading its own value while the decode call runs.
    @Test(arguments: formats)
    func keyedContainersKeptPastTheirValueReadTheirOwnFields(_ format: BinaryFormat) throws {
        let values = [Stored(text: "one", list: ["a"]), Stored(text: "two", list: []), Stored(text: "three")]
        let data = try BinaryEncoder(format: format).encode(values)
        let kept = KeptContainers()
        var decoder = BinaryDecoder(format: format)
        decoder.userInfo[Self.keptKey] = kept
        let decoded = try decoder.decode(ReadsKeptContainersLater.self, from: data)
        #expect(decoded.texts == ["one", "two", "three"])
        #expect(decoded.lists == [["a"], [], ["a", "b"]])
        kept.keyed.removeAll()
    }

    /// Keeps only a super decoder of an unkeyed container (whose path refers to no container).
    struct KeepsSuperDecoder: Decodable {
        init(from decoder: any Decoder) throws {
            let stash = try #require(decoder.userInfo[MisuseTests.stashKey] as? DecoderStash)
            var elements = try decoder.unkeyedContainer()
            stash.superDecoder = try elements.superDecoder()
        }
    }

    /// Uses the super decoder kept by an earlier run, while it is itself being decoded.
    struct UsesKeptSuperDecoder: Decodable {
        let keptDecoderThrew: Bool
        init(from decoder: any Decoder) throws {
            let stash = try #require(decoder.userInfo[MisuseTests.stashKey] as? DecoderStash)
            var elements = try decoder.unkeyedContainer()
            _ = try elements.decode(String.self)
            do {
                _ = try stash.superDecoder?.singleValueContainer().decode(String.self)
                keptDecoderThrew = false
            } catch {
                keptDecoderThrew = true
            }
        }
    }

    /// A thread reuses a finished run's decoder for its next run, unless something still refers
    /// to it or to its run: a super decoder kept from the first run must go on throwing while the
    /// next run on the thread is under way, not read the first run's input. (v3 only: a v2
    /// element is framed by reading it, so its super decoder must be read before the next.)
    @Test func superDecoderKeptPastDecodeThrowsDuringTheNextRun() throws {
        let format = BinaryFormat.v3
        let stash = DecoderStash()
        var decoder = BinaryDecoder(format: format)
        decoder.userInfo[Self.stashKey] = stash
        // The first input stays alive, so that reading it again would succeed rather than fail
        // by chance.
        let first = try BinaryEncoder(format: format).encode(["Hello", "b"])
        _ = try decoder.decode(KeepsSuperDecoder.self, from: first)
        let next = try decoder.decode(
            UsesKeptSuperDecoder.self, from: try BinaryEncoder(format: format).encode(["next"]))
        #expect(next.keptDecoderThrew)
        withExtendedLifetime(first) { stash.clear() }
    }

    /// A tree owns its values: containers kept past `decode(fromTree:)` go on working.
    @Test func treeContainersKeptPastDecodeKeepWorking() throws {
        let tree = try BinaryEncoder().encodeTree(Stored())
        let stash = DecoderStash()
        var decoder = BinaryDecoder()
        decoder.userInfo[Self.stashKey] = stash
        #expect(try decoder.decode(Keeper.self, fromTree: tree).text == "Hello")
        #expect(try stash.keyed?.decode(String.self, forKey: Key("text")) == "Hello")
        stash.clear()
    }

    struct Outer: Codable, Equatable {
        var name = "outer"
        var inner = Stored(text: "inner", list: ["x"])
    }

    /// Decodes another value with a decoder of its own in the middle of reading its fields.
    struct DecodesInsideInit: Decodable {
        static let nestedKey = CodingUserInfoKey(rawValue: "nested")!
        let name: String
        let nested: Outer
        let inner: Stored

        enum CodingKeys: String, CodingKey { case name, inner }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            let (format, data) = try #require(decoder.userInfo[Self.nestedKey] as? (BinaryFormat, Data))
            nested = try BinaryDecoder(format: format).decode(Outer.self, from: data)
            inner = try c.decode(Stored.self, forKey: .inner)
        }
    }

    /// A decode call made from inside `init(from:)` gets container states of its own: the outer
    /// run's, still in use, are not handed to it, and each reads its own input.
    @Test(arguments: formats)
    func decodingInsideInitFromKeepsEachRunsContainers(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        let other = Outer(name: "other", inner: Stored(text: "deep", list: []))
        var decoder = BinaryDecoder(format: format)
        decoder.userInfo[DecodesInsideInit.nestedKey] = (format, try encoder.encode(other))
        for _ in 0..<3 {
            let decoded = try decoder.decode(DecodesInsideInit.self, from: try encoder.encode(Outer()))
            #expect(decoded.name == "outer")
            #expect(decoded.nested == other)
            #expect(decoded.inner.text == "inner" && decoded.inner.list == ["x"])
        }
    }

    /// A tree's keyed container kept past `decode(fromTree:)` can still open nested containers
    /// (their states belong to no run's pool then).
    @Test func treeContainerKeptPastDecodeOpensNestedContainers() throws {
        struct KeepsOuter: Decodable {
            init(from decoder: any Decoder) throws {
                let stash = try #require(decoder.userInfo[MisuseTests.stashKey] as? DecoderStash)
                stash.keyed = try decoder.container(keyedBy: Key.self)
            }
        }
        let tree = try BinaryEncoder().encodeTree(Outer())
        let stash = DecoderStash()
        var decoder = BinaryDecoder()
        decoder.userInfo[Self.stashKey] = stash
        _ = try decoder.decode(KeepsOuter.self, fromTree: tree)
        let kept = try #require(stash.keyed)
        // Another run on this thread in between must not disturb the kept container.
        #expect(try BinaryDecoder().decode(Outer.self, fromTree: tree) == Outer())
        let inner = try kept.nestedContainer(keyedBy: Key.self, forKey: Key("inner"))
        #expect(try inner.decode(String.self, forKey: Key("text")) == "inner")
        #expect(try kept.decode(Stored.self, forKey: Key("inner")).list == ["x"])
        #expect(try kept.decode(String.self, forKey: Key("name")) == "outer")
        stash.clear()
    }

    /// Notes the coding paths its decoder and keyed container report, and keeps the container.
    final class PathLog: @unchecked Sendable {
        var paths: [String] = []
        var kept: [KeyedDecodingContainer<Key>] = []
        static func render(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: "/") }
    }

    static let pathLogKey = CodingUserInfoKey(rawValue: "paths")!

    struct Leaf: Decodable {
        init(from decoder: any Decoder) throws {
            let log = try #require(decoder.userInfo[MisuseTests.pathLogKey] as? PathLog)
            let c = try decoder.container(keyedBy: Key.self)
            log.paths.append("leaf " + PathLog.render(decoder.codingPath) + " " + PathLog.render(c.codingPath))
            log.kept.append(c)
        }
    }

    struct Branch: Decodable {
        init(from decoder: any Decoder) throws {
            let log = try #require(decoder.userInfo[MisuseTests.pathLogKey] as? PathLog)
            let c = try decoder.container(keyedBy: Key.self)
            _ = try c.decode([Leaf].self, forKey: Key("leaves"))
            _ = try c.decode(Leaf.self, forKey: Key("last"))
            log.paths.append("branch " + PathLog.render(c.codingPath))
        }
    }

    struct LeafValue: Codable { var v = 1 }
    struct BranchValue: Codable {
        var leaves = [LeafValue(), LeafValue()]
        var last = LeafValue()
    }

    /// Coding paths are built only when asked for; asked for at any depth, and again from kept
    /// containers after the decoder has moved on (and reused container states), they name the
    /// value where each was opened.
    @Test(arguments: [BinaryFormat.v3, .v2, nil] as [BinaryFormat?])
    func codingPathsOfNestedAndKeptContainers(_ format: BinaryFormat?) throws {
        let values = [BranchValue(), BranchValue()]
        let log = PathLog()
        var decoder = BinaryDecoder(format: format ?? .v3)
        decoder.userInfo[Self.pathLogKey] = log
        if let format {
            _ = try decoder.decode([Branch].self, from: try BinaryEncoder(format: format).encode(values))
        } else {
            _ = try decoder.decode([Branch].self, fromTree: try BinaryEncoder().encodeTree(values))
        }
        let leafPaths = [
            "Index 0/leaves/Index 0", "Index 0/leaves/Index 1", "Index 0/last",
            "Index 1/leaves/Index 0", "Index 1/leaves/Index 1", "Index 1/last",
        ]
        #expect(log.paths.filter { $0.hasPrefix("leaf") } == leafPaths.map { "leaf \($0) \($0)" })
        #expect(log.paths.filter { $0.hasPrefix("branch") } == ["branch Index 0", "branch Index 1"])
        #expect(log.kept.map { PathLog.render($0.codingPath) } == leafPaths)
        log.kept.removeAll()
    }

    // MARK: Decoding: container requests in every order

    struct ScriptedReader: Decodable {
        init(from decoder: any Decoder) throws {
            // Every kind of container on the same decoder, each used, in turn.
            if let k = try? decoder.container(keyedBy: Key.self) {
                _ = k.allKeys
                _ = try? k.decode(Int.self, forKey: Key("a"))
                _ = try? k.decodeNil(forKey: Key("zz"))
                _ = try? k.nestedUnkeyedContainer(forKey: Key("a"))
                _ = try? k.superDecoder().singleValueContainer().decode(Int.self)
            }
            if var u = try? decoder.unkeyedContainer() {
                _ = u.count
                _ = try? u.decodeNil()
                _ = try? u.decode(String.self)
                _ = try? u.nestedContainer(keyedBy: Key.self)
                _ = try? u.superDecoder()
                while !u.isAtEnd { if (try? u.decode(Int.self)) == nil { break } }
            }
            if let s = try? decoder.singleValueContainer() {
                _ = s.decodeNil()
                _ = try? s.decode(Int.self)
                _ = try? s.decode([Int].self)
            }
            _ = try decoder.container(keyedBy: Key.self)
        }
    }

    @Test(arguments: formats)
    func mixedContainerRequestsWhileDecoding(_ format: BinaryFormat) throws {
        let inputs: [Data] = [
            try BinaryEncoder(format: format).encode(["a": 1, "b": 2]),
            try BinaryEncoder(format: format).encode([1, 2, 3]),
            try BinaryEncoder(format: format).encode("text"),
            Data([0x01]), Data([0xff, 0xff]), Data(),
        ]
        for input in inputs {
            do {
                _ = try BinaryDecoder(format: format).decode(ScriptedReader.self, from: input)
            } catch is DecodingError {
            } catch {
                Issue.record("\(format) \(spacedHex(input)): threw \(type(of: error))")
            }
        }
    }
}
