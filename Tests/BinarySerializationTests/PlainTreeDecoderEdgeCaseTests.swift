import BinarySerialization
import Foundation
import Testing
import TreeCoding

/// The plain tree decoder (`TreeDecoder`) on hand-made trees of its edge cases, each answer
/// written out, and each also the engine's (`BinaryDecoder(format: .v3).decode(_:fromTree:)`).
@Suite struct PlainTreeDecoderEdgeCaseTests {
    /// `TreeDecoder`'s result for `tree` (at depth limit `depth`), after checking that the
    /// engine's is the same.
    func decode<T: Decodable & Equatable>(
        _ type: T.Type, _ tree: BinaryValue, depth: Int = 512, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<T, any Error> {
        var plainDecoder = TreeDecoder()
        plainDecoder.maximumDepth = depth
        var engineDecoder = BinaryDecoder(format: .v3)
        engineDecoder.limits.maximumDepth = depth
        let plain = Result { try plainDecoder.decode(T.self, fromTree: tree) }
        let engine = Result { try engineDecoder.decode(T.self, fromTree: tree) }
        let outcome = compare(plain, engine, ==)
        #expect(outcome.disagreement == nil, "\(outcome.disagreement ?? "")", sourceLocation: sourceLocation)
        return plain
    }

    /// The error `decode` threw, described (case, path as `string#int`, description).
    func error<T: Decodable & Equatable>(
        _ type: T.Type, _ tree: BinaryValue, depth: Int = 512, sourceLocation: SourceLocation = #_sourceLocation
    ) -> String {
        switch decode(type, tree, depth: depth, sourceLocation: sourceLocation) {
        case .success(let value):
            Issue.record("decoded \(value)", sourceLocation: sourceLocation)
            return ""
        case .failure(let error): return describeDecodingError(error)
        }
    }

    static func keyed(_ pairs: KeyValuePairs<String, BinaryValue>) -> BinaryValue {
        .keyed(KeyedFields(pairs.map { (BinaryKey(stringValue: $0.key), $0.value) }))
    }

    // MARK: superDecoder

    @Test func superDecoderReadsTheSuperKey() throws {
        let base = Self.keyed(["a": .int(7)])
        let tree: BinaryValue = .keyed(
            KeyedFields([
                (BinaryKey(stringValue: "b"), .packed(.int([1]))), (BinaryKey(stringValue: "c"), .string("x")),
                (BinaryKey.super, base),
            ]))
        let value = try decode(RCDerived.self, tree).get()
        #expect(value.a == 7 && value.s == nil && value.b == [1] && value.c == "x")
        // A hand-made tree may name the super key (integer 0) by its string; without it, the
        // error names the key.
        let named = Self.keyed(["b": .packed(.int([1])), "c": .string("x"), "super": base])
        #expect(try decode(RCDerived.self, named).get().a == 7)
        #expect(
            error(RCDerived.self, Self.keyed(["b": .packed(.int([1])), "c": .string("x")]))
                == #"keyNotFound super#0 at []: No value for key 0 ("super") at <root>."#)
        // The base reads below the super key.
        let badBase: BinaryValue = .keyed(
            KeyedFields([
                (BinaryKey(stringValue: "b"), .packed(.int([]))), (BinaryKey(stringValue: "c"), .string("")),
                (BinaryKey.super, Self.keyed(["a": .string("7")])),
            ]))
        #expect(
            error(RCDerived.self, badBase)
                == "typeMismatch Int at [super#0/a#-]: expected Int (zigZag), found String node"
        )
    }

    @Test func superDecoderOfAnUnkeyedContainerTakesTheNextElement() throws {
        let tree: BinaryValue = .unkeyed([
            .int(1), Self.keyed(["name": .string("n"), "n": .int(2), "flag": .bool(true)]), .unkeyed([]),
        ])
        #expect(
            try decode(SuperInUnkeyed.self, tree).get()
                == SuperInUnkeyed(n: 1, inner: RCInner(name: "n", n: 2, flag: true), tail: []))
        #expect(
            error(SuperInUnkeyed.self, .unkeyed([.int(1)]))
                == "valueNotFound Any at [Index 1#1]: the unkeyed container is at its end"
        )
        #expect(
            error(SuperInUnkeyed.self, .unkeyed([.int(1), .int(2)]))
                == "typeMismatch CodingKeys at [Index 1#1]: expected a keyed container, found Int node"
        )
    }

    // MARK: Nested containers

    @Test func nestedContainersNameTheirKeysAndIndexes() {
        #expect(
            error(RCCustomNested.self, Self.keyed(["x": .int(1)]))
                == #"keyNotFound nested#- at []: keys present: "x""#)
        #expect(
            error(RCCustomNested.self, Self.keyed(["x": .int(1), "nested": .int(2)]))
                == "typeMismatch NK at [nested#-]: expected a keyed container, found Int node"
        )
        let nested: BinaryValue = .keyed(
            KeyedFields([
                (BinaryKey(intValue: 1), .int32(1)), (BinaryKey(intValue: 2), .int32(2)),
                (BinaryKey(intValue: 3), Self.keyed(["name": .string(""), "n": .int(0), "flag": .bool(false)])),
            ]))
        let pairs: BinaryValue = .unkeyed([.packed(.uint8([1])), .unkeyed([.uint8(2), .string("3")])])
        #expect(
            error(
                RCCustomNested.self, Self.keyed(["x": .int(1), "nested": nested, "list": .unkeyed([]), "pairs": pairs]))
                == "typeMismatch UInt8 at [pairs#-/Index 1#1/Index 1#1]: expected UInt8, found String node"
        )
    }

    // MARK: Containers kept past their value

    /// Keeps its keyed container and reads it after the decode call returned.
    final class Keeper: @unchecked Sendable {
        var kept: [KeyedDecodingContainer<Keeping.K>] = []
        static let key = CodingUserInfoKey(rawValue: "keeper")!
    }

    struct Keeping: Decodable, Equatable {
        enum K: String, CodingKey { case n }

        init(from decoder: any Decoder) throws {
            let keeper = try #require(decoder.userInfo[Keeper.key] as? Keeper)
            keeper.kept.append(try decoder.container(keyedBy: K.self))
        }
    }

    /// A tree is not freed when the call returns: a container kept past its value (or the call)
    /// still reads its node, as the engine's does for a tree (only byte input is "closed").
    @Test func aContainerKeptPastTheCallStillReadsTheTree() throws {
        let tree: BinaryValue = .unkeyed([Self.keyed(["n": .int(1)]), Self.keyed(["n": .string("2")])])
        for engine in [false, true] {
            let keeper = Keeper()
            if engine {
                var decoder = BinaryDecoder()
                decoder.userInfo[Keeper.key] = keeper
                _ = try decoder.decode([Keeping].self, fromTree: tree)
            } else {
                var decoder = TreeDecoder()
                decoder.userInfo[Keeper.key] = keeper
                _ = try decoder.decode([Keeping].self, fromTree: tree)
            }
            #expect(keeper.kept.count == 2)
            #expect(try keeper.kept[0].decode(Int.self, forKey: .n) == 1)
            #expect(keeper.kept[0].allKeys.map(\.stringValue) == ["n"])
            #expect(keeper.kept[0].codingPath.map(\.stringValue) == ["Index 0"])
            #expect(throws: DecodingError.self) { try keeper.kept[1].decode(Int.self, forKey: .n) }
            // The kept containers hold the decoder's `userInfo`, which holds the keeper: a cycle.
            keeper.kept.removeAll()
        }
    }

    // MARK: Depth

    @Test func theDepthLimitNamesThePathOfTheValueTooDeep() throws {
        let leaf = Self.keyed(["value": .int(3), "children": .unkeyed([])])
        let tree = Self.keyed([
            "value": .int(1), "children": .unkeyed([Self.keyed(["value": .int(2), "children": .unkeyed([leaf])])]),
        ])
        #expect(try decode(RCNode.self, tree, depth: 6).get().children[0].children[0].value == 3)
        #expect(
            error(RCNode.self, tree, depth: 2)
                == "dataCorrupted at [children#-/Index 0#0]: the data is nested deeper than the maximum depth of 2"
        )
        #expect(
            error(RCNode.self, tree, depth: 1)
                == "dataCorrupted at [children#-]: the data is nested deeper than the maximum depth of 1"
        )
        #expect(
            error(RCNode.self, tree, depth: 0)
                == "dataCorrupted at []: the data is nested deeper than the maximum depth of 0"
        )
        // Packed arrays and optionals add no level, nor do nested containers; a dictionary is a
        // level, as the encoders count it; a super decoder is a level below its container's value.
        let dictionary = Self.keyed(["a": .optional(.packed(.int([1])))])
        #expect(try decode([String: [Int]?].self, dictionary, depth: 1).get() == ["a": [1]])
        #expect(
            error([String: [Int]?].self, dictionary, depth: 0)
                == "dataCorrupted at []: the data is nested deeper than the maximum depth of 0")
        let inner = Self.keyed(["name": .string("n"), "n": .int(2), "flag": .bool(true)])
        #expect(try decode(SuperInUnkeyed.self, .unkeyed([.int(1), inner, .unkeyed([])]), depth: 1).get().n == 1)
        let superTree: BinaryValue = .keyed(KeyedFields([(BinaryKey.super, .unkeyed([inner]))]))
        #expect(try decode(InnersBelowSuper.self, superTree, depth: 3).get().inners.count == 1)
        #expect(
            error(InnersBelowSuper.self, superTree, depth: 2)
                == "dataCorrupted at [super#0/Index 0#0]: the data is nested deeper than the maximum depth of 2"
        )
    }

    /// `[RCInner]` read by `Array.init(from:)` from a keyed container's `superDecoder()`.
    struct InnersBelowSuper: Decodable, Equatable {
        var inners: [RCInner]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Keeping.K.self)
            inners = try [RCInner](from: c.superDecoder())
        }
    }

    // MARK: Optionals

    struct Optionals: Codable, Equatable {
        var once: Int?
        var twice: Int??
    }

    @Test func anAbsentKeyIsNilAndAPresentNilIsTheOptionalsToRead() throws {
        #expect(try decode(Optionals.self, .emptyKeyed).get() == Optionals(once: nil, twice: .none))
        // A present nil: no Int for the primitive; for `Int??`, an `Int?` that is nil.
        for marker in [BinaryValue.nil, .optional(nil)] {
            let value = try decode(Optionals.self, Self.keyed(["once": marker, "twice": marker])).get()
            #expect(value == Optionals(once: nil, twice: .some(.none)))
        }
        #expect(
            try decode(Optionals.self, Self.keyed(["once": .int(1), "twice": .optional(.int(2))])).get()
                == Optionals(once: 1, twice: 2))
        // The optional's content is marked; the primitive's is not.
        #expect(
            error(Optionals.self, Self.keyed(["twice": .int(2)]))
                == "typeMismatch Optional<Int> at [twice#-]: expected an optional, found Int node"
        )
        #expect(
            error(Optionals.self, Self.keyed(["once": .optional(.int(1))]))
                == "typeMismatch Int at [once#-]: expected Int (zigZag), found optional node"
        )
        // At the top, an optional holds a value only in a mark.
        #expect(try decode(Int?.self, .optional(.int(5))).get() == 5)
        #expect(try decode(Int?.self, .nil).get() == nil)
        #expect(
            error(Int?.self, .int(5))
                == "typeMismatch Optional<Int> at []: expected an optional, found Int node"
        )
    }

    // MARK: Single values and empty types

    @Test func aSingleValueAtTheTopNeedsItsMark() throws {
        #expect(try decode(RCSingleString.self, .single(.string("a"))).get() == RCSingleString(s: "a"))
        #expect(
            error(RCSingleString.self, .string("a"))
                == "typeMismatch Any at []: expected a single-value container, found String node"
        )
        // Inside a container, the mark may be left out.
        #expect(
            try decode([RCSingleString].self, .unkeyed([.string("a"), .single(.string("b"))])).get().map(\.s) == [
                "a", "b",
            ])
        #expect(try decode(RCSingleOptional.self, .single(.nil)).get() == RCSingleOptional(v: nil))
        #expect(
            error(RCSingleString.self, .single(.nil))
                == "valueNotFound String at []: Expected String but found nil at <root>.")
    }

    @Test func aTypeThatReadsNothingNeedsAnEmptyContainer() throws {
        #expect(try decode(RCEmpty.self, .emptyKeyed).get() == RCEmpty())
        #expect(try decode(RCEmpty.self, .unkeyed([])).get() == RCEmpty())
        #expect(
            error([RCEmpty].self, .unkeyed([.emptyKeyed, .int(1)]))
                == "typeMismatch RCEmpty at [Index 1#1]: expected an empty container, found Int node"
        )
        #expect(
            error(RCEmpty.self, .packed(.int([])))
                == "typeMismatch RCEmpty at []: expected an empty container, found [Int] node"
        )
    }

    // MARK: Dictionaries, wrappers, packed arrays

    @Test func dictionaryKeysAndWrappers() throws {
        let twins: BinaryValue = .keyed(
            KeyedFields([(BinaryKey(intValue: 3), .string("a")), (BinaryKey(stringValue: "3"), .string("b"))]))
        #expect(
            error([Int: String].self, twins)
                == #"dataCorrupted at [3#-]: The key "3" is stored twice (as an integer and as a string key)."#
        )
        #expect(
            error([Int: String].self, Self.keyed(["x": .string("a")]))
                == #"typeMismatch Int at [x#-]: Expected a Int key, found "x"."#)
        #expect(error([String: String].self, twins).hasPrefix(#"dataCorrupted at [3#-]: The key "3" is stored twice"#))
        #expect(try decode(FixedSizeEncoded<UInt32>.self, .uint32(9, .fixed)).get().wrappedValue == 9)
        #expect(
            error(FixedSizeEncoded<UInt32>.self, .uint32(9))
                == "typeMismatch FixedSizeEncoded<UInt32> at []: expected UInt32 (fixed), found UInt32 node"
        )
        #expect(try decode(Packed<[Int16]>.self, .packed(.int16([1, -1]))).get().wrappedValue == [1, -1])
        #expect(try decode(Data.self, .packed(.uint8([1, 2]))).get() == Data([1, 2]))
        #expect(try decode(Set<Int8>.self, .packed(.int8([1, 1]))).get() == [1])
    }
}
