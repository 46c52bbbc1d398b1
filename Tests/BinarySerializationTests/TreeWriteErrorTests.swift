import BinarySerialization
import Foundation
import Testing

/// What each format's writer refuses in a tree handed to `encode(tree:)`, and where: the error
/// names the coding path from the root to the refused node, and the rule.
@Suite struct TreeWriteErrorTests {
    static func refusal(_ tree: BinaryValue, _ encoder: BinaryEncoder) -> (path: [String], message: String)? {
        do {
            _ = try encoder.encode(tree: tree)
            return nil
        } catch let EncodingError.invalidValue(_, context) {
            return (context.codingPath.map(\.stringValue), context.debugDescription)
        } catch {
            Issue.record("not an EncodingError: \(error)")
            return nil
        }
    }

    static func keyed(_ pairs: (BinaryKey, BinaryValue)...) -> BinaryValue {
        .keyed(KeyedFields(pairs))
    }

    static var v2: BinaryEncoder {
        var encoder = BinaryEncoder()
        encoder.format = .v2
        return encoder
    }

    @Test func aNegativeKeyDeepInsideIsRefusedInV3WithItsPath() throws {
        let tree = Self.keyed(
            ("list", .unkeyed([.int(1), .optional(Self.keyed((BinaryKey(intValue: -3), .int(1))))])))
        let refusal = try #require(Self.refusal(tree, BinaryEncoder()))
        #expect(refusal.path == ["list", "Index 1", "-3"])
        #expect(refusal.message == "Integer key -3 is negative, which v3 cannot write.")
        // v2 writes negative keys.
        #expect(Self.refusal(tree, Self.v2) == nil)
    }

    @Test func aKeyPast2To59IsRefusedInV2() throws {
        let key = BinaryKey(intValue: 1 << 60)
        let tree = Self.keyed(("outer", Self.keyed((key, .string("x")))))
        let refusal = try #require(Self.refusal(tree, Self.v2))
        #expect(refusal.path == ["outer", "\(1 << 60)"])
        #expect(refusal.message.hasPrefix("Integer key \(1 << 60) is outside -2^59..<2^59"))
        // ...unless v2 leaves the field out: a nil optional writes no key.
        #expect(Self.refusal(Self.keyed((key, .optional(nil))), Self.v2) == nil)
        #expect(Self.refusal(tree, BinaryEncoder()) == nil)
    }

    @Test func aNilElementWithoutNilIndexSetsIsRefusedInV2AtItsIndex() throws {
        let tree = Self.keyed(("values", .unkeyed([.int(1), .int(2), .nil, .int(4)])))
        let refusal = try #require(Self.refusal(tree, Self.v2))
        #expect(refusal.path == ["values", "Index 2"])
        #expect(refusal.message.contains("prependNilIndexSetForUnkeyedContainers"))
        var withSets = Self.v2
        withSets.prependNilIndexSetForUnkeyedContainers = true
        #expect(Self.refusal(tree, withSets) == nil)
    }

    @Test func storedV3BytesAreRefusedInV2() throws {
        let tree = Self.keyed(("kept", .unknown(Data([0x02, 0x01]))))
        let refusal = try #require(Self.refusal(tree, Self.v2))
        #expect(refusal.path == ["kept"])
        #expect(refusal.message.contains("wire type"))
        #expect(Self.refusal(tree, BinaryEncoder()) == nil)
    }

    /// A hand-built tree deeper than four nodes per level of `maximumDepth` is an error, not a
    /// stack overflow, in both formats; the path leads to where the limit was passed.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func aTreeDeeperThanTheLimitIsRefused(_ format: BinaryFormat) throws {
        var encoder = BinaryEncoder()
        encoder.format = format
        encoder.maximumDepth = 8
        var tree: BinaryValue = .int(1)
        for _ in 0..<40 { tree = Self.keyed(("n", tree)) }
        let refusal = try #require(Self.refusal(tree, encoder))
        #expect(
            refusal.message
                == "The tree is nested deeper than the maximum depth allows a tree: 32 nested nodes, 4 per level.")
        #expect(refusal.path == Array(repeating: "n", count: 32))
        // At the limit it writes.
        tree = .int(1)
        for _ in 0..<32 { tree = Self.keyed(("n", tree)) }
        #expect(Self.refusal(tree, encoder) == nil)
    }
}

/// Writing recurses once per nested node, so a tree at the default limit (4 × 512 nodes) needs a
/// stack of its depth: it writes on a thread of 8 MiB in a debug build (whose frames are several
/// times larger) and of 512 KiB in a release build, the size of a secondary thread on Apple
/// systems (`Mixed --stack-check`, in the benchmark smoke, checks the release build in CI).
@Suite struct TreeWriteStackTests {
    @Test(arguments: [BinaryFormat.v3, .v2])
    func aTreeAtTheDefaultLimitWritesOnASecondaryThreadsStack(_ format: BinaryFormat) throws {
        var encoder = BinaryEncoder()
        encoder.format = format
        var tree: BinaryValue = .int(1)
        for i in 0..<(4 * encoder.maximumDepth) {
            switch i % 4 {
            case 0: tree = .keyed(KeyedFields([(BinaryKey(stringValue: "n"), tree)]))
            case 1: tree = .unkeyed([.int(2), tree])
            case 2: tree = .single(tree)
            default: tree = .optional(tree)
            }
        }
        let result = Locked<Result<Data, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread { [tree, encoder] in
            result.mutate { $0 = Result { try encoder.encode(tree: tree) } }
            done.signal()
        }
        #if DEBUG
            thread.stackSize = 8 << 20
        #else
            thread.stackSize = 512 << 10
        #endif
        thread.start()
        done.wait()
        let bytes = try #require(result.value).get()
        #expect(bytes.count > 4 * 512)
        // One more level is refused, not a crash.
        #expect(throws: EncodingError.self) { try encoder.encode(tree: .single(tree)) }
    }
}
