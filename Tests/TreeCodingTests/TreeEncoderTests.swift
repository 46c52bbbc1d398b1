import Foundation
import Testing
import TreeCoding

/// `TreeEncoder`: which tree each container call produces.
@Suite struct TreeEncoderTests {
    func tree<T: Encodable>(_ value: T, sorted: Bool = false, recorder: Recorder? = nil) throws -> BinaryValue {
        var encoder = TreeEncoder()
        encoder.sortKeysDuringEncoding = sorted
        if let recorder { encoder.userInfo[Recorder.key] = recorder }
        return try encoder.encodeTree(value)
    }

    // MARK: The three containers

    struct Leaves: Encodable {
        var i = -1
        var s = "s"
        var b = true
        var d = 0.5
        var f: Float = 1.5
        var i8: Int8 = -8
        var i16: Int16 = -16
        var i32: Int32 = -32
        var i64: Int64 = -64
        var u: UInt = 1
        var u8: UInt8 = 8
        var u16: UInt16 = 16
        var u32: UInt32 = 32
        var u64: UInt64 = 64
        var data = Data([1, 2])
    }

    @Test func keyedContainerLeavesKeepTheirTypes() throws {
        let expected: BinaryValue = [
            "i": .int(-1), "s": "s", "b": true, "d": .double(0.5), "f": .float(1.5),
            "i8": .int8(-8), "i16": .int16(-16, .fixed), "i32": .int32(-32, .zigZag), "i64": .int64(-64, .zigZag),
            "u": .uint(1, .varint), "u8": .uint8(8), "u16": .uint16(16, .fixed), "u32": .uint32(32, .varint),
            "u64": .uint64(64, .varint), "data": .data(Data([1, 2])),
        ]
        #expect(try tree(Leaves()) == expected)
    }

    struct Unkeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(1)
            try c.encode("a")
            try c.encodeNil()
            try c.encode(UInt16(2))
            try c.encode(Message(sender: "m", isRead: false, unreadCount: 0))
        }
    }

    @Test func unkeyedContainer() throws {
        let expected: BinaryValue = [1, "a", .nil, .uint16(2), ["sender": "m", "isRead": false, "unreadCount": 0]]
        #expect(try tree(Unkeyed()) == expected)
    }

    struct Single: Encodable {
        var value: any Encodable & Sendable
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(value)
        }
    }

    struct SingleNil: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        }
    }

    @Test func singleValueContainer() throws {
        #expect(try tree(Single(value: 5)) == .single(.int(5)))
        #expect(try tree(Single(value: "x")) == .single("x"))
        #expect(
            try tree(Single(value: Message(sender: "", isRead: true, unreadCount: 1)))
                == .single(["sender": "", "isRead": true, "unreadCount": 1]))
        #expect(try tree(SingleNil()) == .single(.nil))
        #expect(try tree(Level.high) == .single(.int(2)))
        #expect(try tree(Color.green) == .single("green"))
        #expect(try tree(Date(timeIntervalSinceReferenceDate: 1)) == .single(.double(1)))
        // A bare primitive has no single-value mark.
        #expect(try tree(5) == .int(5))
        #expect(try tree("x") == .string("x"))
    }

    @Test func nestedContainers() throws {
        let value = NestedManual(x: 1, flag: true, y: "v", small: 2, after: 3)
        #expect(try tree(value) == NestedManual.tree(x: 1, flag: true, y: "v", small: 2, after: 3))
    }

    @Test func packedAndUnpackedArrays() throws {
        #expect(try tree([1, -2]) == .packed(.int([1, -2])))
        #expect(try tree([UInt8(1), 2]) == .packed(.uint8([1, 2])))
        #expect(try tree([true]) == .packed(.bool([true])))
        #expect(try tree([Double]()) == .packed(.double([])))
        #expect(try tree(Set([Int8(3)])) == .packed(.int8([3])))
        #expect(try tree(["a", "b"]) == ["a", "b"])
        #expect(try tree([Data([1])]) == [.data(Data([1]))])
        #expect(try tree([[1], []]) == [.packed(.int([1])), .packed(.int([]))])
        #expect(try tree([Level.low]) == [.single(.int(1))])
        #expect(try tree(Data([9])) == .data(Data([9])))
    }

    @Test func dictionaries() throws {
        #expect(try tree(["a": 1]) == ["a": 1])
        // A decimal string key is an integer key that keeps its string.
        guard case .keyed(let fields) = try tree(["7": true]) else {
            Issue.record("not keyed")
            return
        }
        #expect(fields.keys.first?.intValue == 7)
        #expect(fields.keys.first?.stringValue == "7")
        #expect(try tree([300: "x"]) == [300: "x"])
        // Other key types give an unkeyed container: key, value, key, value.
        #expect(try tree([true: 1]) == [true, 1])
    }

    // MARK: Super encoders

    struct SuperUser: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(1, forKey: "a")
            var sup = c.superEncoder().container(keyedBy: AnyKey.self)
            try sup.encode(2, forKey: "b")
            var parent = c.superEncoder(forKey: "parent").singleValueContainer()
            try parent.encode(3)
            _ = c.superEncoder(forKey: "unused")
            var u = c.nestedUnkeyedContainer(forKey: "list")
            var inList = u.superEncoder().container(keyedBy: AnyKey.self)
            try inList.encode(true, forKey: "t")
        }
    }

    @Test func superEncoders() throws {
        let expected: BinaryValue = [
            "a": 1, .super: ["b": 2], "parent": .single(.int(3)), "unused": .emptyKeyed, "list": [["t": true]],
        ]
        let value = try tree(SuperUser())
        #expect(value == expected)
        guard case .keyed(let fields) = value else { return }
        let superKey = fields.keys[1]
        #expect(superKey.intValue == 0)
        #expect(superKey.stringValue == "super")
    }

    @Test func superEncoderOfAClass() throws {
        let recorder = Recorder()
        #expect(try tree(Derived(a: 5, b: "five"), recorder: recorder) == ["b": "five", .super: ["a": 5]])
        #expect(recorder["superEncoder"] == ["super"])
    }

    // MARK: Container reuse and overwrites

    enum OtherKeys: String, CodingKey { case b }

    struct TwoKeyedRequests: Encodable {
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: AnyKey.self)
            try first.encode(1, forKey: "a")
            var second = encoder.container(keyedBy: OtherKeys.self)
            try second.encode(2, forKey: .b)
            try first.encode(3, forKey: "c")
        }
    }

    @Test func keyedContainerRequestedTwiceSharesStorage() throws {
        #expect(try tree(TwoKeyedRequests()) == ["a": 1, "b": 2, "c": 3])
    }

    struct Overwrites: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(1, forKey: "a")
            try c.encode(2, forKey: "b")
            try c.encode(3, forKey: "a")
            // A nested container replaced by a plain value, and the other way round.
            var n = c.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try n.encode(1, forKey: "x")
            try c.encode("plain", forKey: "n")
            try c.encode("plain", forKey: "m")
            var m = c.nestedUnkeyedContainer(forKey: "m")
            try m.encode(true)
        }
    }

    @Test func sameKeyTwiceLastWriteWinsAtFirstPosition() throws {
        #expect(try tree(Overwrites()) == ["a": 3, "b": 2, "n": "plain", "m": [true]])
    }

    struct TwoUnkeyedRequests: Encodable {
        func encode(to encoder: any Encoder) throws {
            var first = encoder.unkeyedContainer()
            try first.encode(1)
            var second = encoder.unkeyedContainer()
            #expect(second.count == 1)
            try second.encode(2)
            try first.encode(3)
            #expect(first.count == 3)
        }
    }

    @Test func unkeyedContainerRequestedTwiceAppendsInOrder() throws {
        #expect(try tree(TwoUnkeyedRequests()) == [1, 2, 3])
    }

    // MARK: Nil and optionals

    struct NilForKey: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encodeNil(forKey: "gone")
            try c.encode(Int?.none, forKey: "explicit")
            try c.encodeIfPresent(Int?.none, forKey: "ifPresent")
        }
    }

    struct Optionals: Encodable {
        var a: Int?
        var b: Int??
        var c: Message?
    }

    @Test func nilsAndOptionals() throws {
        #expect(try tree(NilForKey()) == ["explicit": .optional(nil)])
        #expect(try tree(Int?.none) == .optional(nil))
        #expect(try tree(Int?.some(5)) == .optional(.int(5)))
        #expect(try tree(Int??.some(nil)) == .optional(.optional(nil)))
        #expect(try tree(Int??.some(1)) == .optional(.optional(.int(1))))
        #expect(try tree([1, nil] as [Int?]) == [.optional(.int(1)), .optional(nil)])
        // Synthesized coding skips nil properties and removes one optional level.
        #expect(try tree(Optionals(a: nil, b: nil, c: nil)) == .emptyKeyed)
        #expect(
            try tree(Optionals(a: 1, b: .some(nil), c: Message(sender: "", isRead: true, unreadCount: 0)))
                == ["a": .int(1), "b": .optional(nil), "c": ["sender": "", "isRead": true, "unreadCount": 0]])
    }

    struct Empty: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    @Test func nothingEncodedIsAnEmptyKeyedContainer() throws {
        #expect(try tree(Empty()) == .emptyKeyed)
    }

    // MARK: userInfo and coding paths

    struct Probe: Encodable {
        let label: String
        func encode(to encoder: any Encoder) throws {
            let recorder = Recorder.from(encoder.userInfo)
            recorder?.record(label, encoder.codingPath)
            var c = encoder.container(keyedBy: AnyKey.self)
            recorder?.record(label + ".container", c.codingPath)
            let nested = c.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            recorder?.record(label + ".nested", nested.codingPath)
            var list = c.nestedUnkeyedContainer(forKey: "u")
            try list.encode(0)
            let inList = list.nestedContainer(keyedBy: AnyKey.self)
            recorder?.record(label + ".inList", inList.codingPath)
            recorder?.record(label + ".super", c.superEncoder().codingPath)
        }
    }

    struct Holder: Encodable {
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            var n = c.nestedContainer(keyedBy: AnyKey.self, forKey: "n")
            try n.encode(Probe(label: "inNested"), forKey: "p")
            var u = c.nestedUnkeyedContainer(forKey: "u")
            try u.encode(Probe(label: "inUnkeyed0"))
            try u.encode(Probe(label: "inUnkeyed1"))
        }
    }

    struct Outer: Encodable {
        var items = [Probe(label: "item0"), Probe(label: "item1")]
        var single = Probe(label: "single")
        var dict = ["k": Probe(label: "dict")]
        var holder = Holder()
        var opt: Probe? = Probe(label: "optional")
    }

    @Test func codingPathsInsideNestedEncodeTo() throws {
        let recorder = Recorder()
        _ = try tree(Outer(), recorder: recorder)
        #expect(recorder["item1"] == ["items", "Index 1"])
        #expect(recorder["item0"] == ["items", "Index 0"])
        #expect(recorder["single"] == ["single"])
        #expect(recorder["single.container"] == ["single"])
        #expect(recorder["single.nested"] == ["single", "n"])
        #expect(recorder["single.inList"] == ["single", "u", "Index 1"])
        #expect(recorder["single.super"] == ["single", "super"])
        #expect(recorder["dict"] == ["dict", "k"])
        #expect(recorder["optional"] == ["opt"])
        #expect(recorder["inNested"] == ["holder", "n", "p"])
        #expect(recorder["inNested.nested"] == ["holder", "n", "p", "n"])
        #expect(recorder["inUnkeyed1"] == ["holder", "u", "Index 1"])
    }

    // MARK: Misuse and limits

    struct KeyedAfterUnkeyed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var u = encoder.unkeyedContainer()
            try u.encode(1)
            var k = encoder.container(keyedBy: AnyKey.self)
            try k.encode(2, forKey: "a")
        }
    }

    struct SingleTwice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var s = encoder.singleValueContainer()
            try s.encode(1)
            try s.encode(2)
        }
    }

    struct UnkeyedAfterSingle: Encodable {
        func encode(to encoder: any Encoder) throws {
            var s = encoder.singleValueContainer()
            try s.encode(1)
            _ = encoder.unkeyedContainer()
        }
    }

    @Test func containerMisuseThrowsEncodingError() throws {
        #expect(throws: EncodingError.self) { try tree(KeyedAfterUnkeyed()) }
        // Encoding a single value twice keeps the last (BinaryCodable 3.1+; `super.encode(to:)` relies on it).
        #expect(try tree(SingleTwice()) == .single(.int(2)))
        #expect(throws: EncodingError.self) { try tree(UnkeyedAfterSingle()) }
        // Misuse deep inside a value is reported with its path.
        let error = #expect(throws: EncodingError.self) { try tree(["x": [KeyedAfterUnkeyed()]]) }
        if case .invalidValue(_, let context) = error {
            #expect(context.codingPath.map(\.stringValue) == ["x", "Index 0"])
        } else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
        }
    }

    final class Chain: Encodable {
        let next: Chain?
        init(depth: Int) { next = depth > 0 ? Chain(depth: depth - 1) : nil }
    }

    @Test func maximumDepth() throws {
        var encoder = TreeEncoder()
        encoder.maximumDepth = 10
        #expect(throws: EncodingError.self) { try encoder.encodeTree(Chain(depth: 20)) }
        #expect(throws: Never.self) { try encoder.encodeTree(Chain(depth: 5)) }
    }

    @Test func sortKeysDuringEncoding() throws {
        let value = NestedManual(x: 1, flag: true, y: "v", small: 2, after: 3)
        let sorted = try tree(value, sorted: true)
        guard case .keyed(let fields) = sorted else { return }
        #expect(fields.keys.map(\.stringValue) == ["after", "k", "u"])
        #expect(sorted == NestedManual.tree(x: 1, flag: true, y: "v", small: 2, after: 3).sortingKeys())
        #expect(try tree(Derived(a: 1, b: "b"), sorted: true) == ["b": "b", .super: ["a": 1]])
    }
}
