import Foundation
import Testing
import TreeCoding

/// The tree value itself: rendering, subscripts, literals, `KeyedFields`, `BinaryKey`, and
/// decoding a tree built by hand.
@Suite struct BinaryValueTests {
    // MARK: Description

    static let sample: BinaryValue = [
        "sender": "Alice",
        "isRead": true,
        3: .int32(-5, .fixed),
        "list": [.nil, .optional(nil), .optional(.int(1)), .single(.uint16(7))],
        "inner": ["x": 1, "deeper": ["y": .uint8(2)]],
        "empty": [],
        "obj": .emptyKeyed,
        "p": .packed(.int([1, 2])),
        "d": .data(Data([1, 0xab])),
        .super: "a\"b\n",
    ]

    @Test func descriptionIsIndentedAndStable() {
        let expected = #"""
            keyed {
              "sender": "Alice"
              "isRead": true
              3: Int32 -5 (fixed)
              "list": unkeyed [
                nil
                optional(nil)
                optional(Int 1)
                single(UInt16 7)
              ]
              "inner": keyed {
                "x": Int 1
                "deeper": keyed {
                  "y": UInt8 2
                }
              }
              "empty": unkeyed []
              "obj": keyed {}
              "p": [Int] (2) [1, 2]
              "d": Data(2 bytes: 01 ab)
              0 ("super"): "a\"b\n"
            }
            """#
        #expect(Self.sample.description == expected)
        #expect(Self.sample.debugDescription == expected)
        #expect("\(Self.sample)" == expected)
    }

    @Test(arguments: [
        (BinaryValue.int(5), "Int 5"),
        (.int(5, .fixed), "Int 5 (fixed)"),
        (.int16(-2), "Int16 -2"),
        (.int16(-2, .zigZag), "Int16 -2 (zigZag)"),
        (.uint32(9), "UInt32 9"),
        (.uint32(9, .fixed), "UInt32 9 (fixed)"),
        (.int64(1, .varint), "Int64 1 (varint)"),
        (.uint(3), "UInt 3"),
        (.float(1.5), "Float 1.5"),
        (.double(-2), "Double -2.0"),
        (.string("tab\there"), #""tab\there""#),
        (.data(Data()), "Data(0 bytes)"),
        (
            .data(Data(repeating: 0xff, count: 40)),
            "Data(40 bytes: " + Array(repeating: "ff", count: 32).joined(separator: " ") + " ...)"
        ),
        (.packed(.bool([true, false])), "[Bool] (2) [true, false]"),
        (.packed(.uint8(Array(0..<20))), "[UInt8] (20) [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ...]"),
        (.packed(.double([])), "[Double] (0) []"),
        (.single(.optional(nil)), "single(optional(nil))"),
        (.nil, "nil"),
    ])
    func leafDescriptions(_ value: BinaryValue, _ expected: String) {
        #expect(value.description == expected)
    }

    // MARK: Subscripts

    @Test func subscriptByKey() {
        var tree: BinaryValue = ["a": 1, "b": "two", 7: true]
        #expect(tree["a"] == .int(1))
        #expect(tree[7] == .bool(true))  // an integer literal is a key, never a position
        #expect(tree[key: 7] == .bool(true))
        #expect(tree[BinaryKey(intValue: 7)] == .bool(true))
        #expect(tree[key: "b"] == "two")
        #expect(tree[position: 0] == nil)  // a keyed container has no positions
        #expect(tree["missing"] == nil)
        // Replacing keeps the position; adding appends; nil removes.
        tree["a"] = "one"
        tree["c"] = .double(3)
        tree["b"] = nil
        #expect(tree == ["a": "one", 7: true, "c": 3.0])
        #expect(tree.count == 3)
        // Reading and setting both look through single-value and optional wrappers.
        var wrapped: BinaryValue = .optional(.single(["x": 1]))
        #expect(wrapped["x"] == .int(1))
        wrapped["x"] = 2
        #expect(wrapped == .optional(.single(["x": 2])))
        // A leaf has no fields: setting one makes the node a keyed container with that field.
        var leaf: BinaryValue = 5
        #expect(leaf["x"] == nil)
        #expect(leaf.count == nil)
        leaf["x"] = 1
        #expect(leaf == ["x": 1])
    }

    @Test func subscriptByPosition() {
        let list: BinaryValue = [1, "b", .nil]
        #expect(list[position: 0] == .int(1))
        #expect(list[position: 2] == .nil)
        #expect(list[position: 3] == nil)
        #expect(list[position: -1] == nil)
        #expect(list[0] == nil)  // an integer literal is a key: an unkeyed container has none
        #expect(list.count == 3)
        let packed: BinaryValue = .optional(.packed(.int16([4, -5])))
        #expect(packed[position: 1] == .int16(-5))
        #expect(packed[position: 2] == nil)
        #expect(packed.count == 2)
    }

    @Test func scalarAccessors() {
        let tree: BinaryValue = ["s": "x", "b": true, "i": .uint8(200), "big": .uint64(.max), "d": .float(0.5)]
        #expect(tree["s"]?.stringValue == "x")
        #expect(tree["b"]?.boolValue == true)
        #expect(tree["i"]?.intValue == 200)
        #expect(tree["big"]?.intValue == nil)  // does not fit Int
        #expect(tree["d"]?.doubleValue == 0.5)
        #expect(BinaryValue.single(.string("w")).stringValue == "w")
        #expect(tree["s"]?.intValue == nil)
    }

    // MARK: Literals

    @Test func literals() {
        #expect(true as BinaryValue == .bool(true))
        #expect(42 as BinaryValue == .int(42, .zigZag))
        #expect(1.5 as BinaryValue == .double(1.5))
        #expect("s" as BinaryValue == .string("s"))
        #expect([1, "a"] as BinaryValue == .unkeyed([.int(1), .string("a")]))
        #expect([] as BinaryValue == .unkeyed([]))
        let keyed: BinaryValue = ["b": 1, 2: "x"]
        #expect(
            keyed
                == .keyed(
                    KeyedFields([(BinaryKey(stringValue: "b"), .int(1)), (BinaryKey(intValue: 2), .string("x"))])))
        #expect([:] as BinaryValue == .emptyKeyed)
        #expect(("k" as BinaryKey) == BinaryKey(stringValue: "k"))
        #expect((4 as BinaryKey) == BinaryKey(intValue: 4))
    }

    @Test func nilAndKindNames() {
        #expect(BinaryValue.nil.isNil)
        #expect(BinaryValue.optional(nil).isNil)
        #expect(!BinaryValue.optional(.nil).isNil)
        #expect(!BinaryValue.single(.nil).isNil)
        #expect(BinaryValue.packed(.float([])).kindName == "[Float]")
        #expect(BinaryValue.emptyKeyed.kindName == "keyed")
        #expect(BinaryValue.int16(1).kindName == "Int16")
    }

    // MARK: KeyedFields

    @Test func keyedFieldsLastWriteWinsAtFirstPosition() {
        var fields = KeyedFields([("a", 1), ("b", 2), ("a", 3)] as [(BinaryKey, BinaryValue)])
        #expect(fields.keys.map(\.stringValue) == ["a", "b"])
        #expect(fields.values == [3, 2])
        #expect(fields.set(4, for: "b") == 1)
        #expect(fields.set(5, for: "c") == 2)
        #expect(fields.position(of: "c") == 2)
        #expect(fields.position(of: "zz") == nil)
        #expect(fields.map(\.key.stringValue) == ["a", "b", "c"])
        #expect(fields.fields[1].value == 4)
        #expect(fields[fields.index(after: fields.startIndex)].value == 4)
        fields["a"] = nil
        #expect(fields.keys.map(\.stringValue) == ["b", "c"])
        #expect(fields.count == 2)
        // An integer key and the string key with the same text are different keys.
        fields[BinaryKey(intValue: 1)] = "int"
        fields["1"] = "string"
        #expect(fields.count == 4)
        #expect(fields[BinaryKey(intValue: 1)] == "int")
        #expect(fields["1"] == "string")
    }

    /// Large containers switch to a hash index; behaviour must not change.
    @Test func largeKeyedFields() {
        var fields = KeyedFields()
        for i in 0..<50 { fields.set(.int(i), for: BinaryKey(stringValue: "k\(i)")) }
        for i in 0..<50 { #expect(fields[BinaryKey(stringValue: "k\(i)")] == .int(i)) }
        fields["k10"] = "ten"
        #expect(fields.position(of: "k10") == 10)
        fields["k0"] = nil
        fields["k1"] = nil
        #expect(fields.count == 48)
        #expect(fields.position(of: "k10") == 8)
        #expect(fields["k49"] == 49)
        #expect(fields.keys.first == "k2")
        for i in 0..<45 { fields[BinaryKey(stringValue: "k\(i + 2)")] = nil }
        #expect(fields.keys.map(\.stringValue) == ["k47", "k48", "k49"])
        #expect(fields["k48"] == 48)
    }

    @Test func keyedFieldsEqualityIsOrdered() {
        let ab = KeyedFields([("a", 1), ("b", 2)] as [(BinaryKey, BinaryValue)])
        let ba = KeyedFields([("b", 2), ("a", 1)] as [(BinaryKey, BinaryValue)])
        #expect(ab != ba)
        #expect(ab == ba.sortedByKey())
        #expect(Set([ab, ab]).count == 1)
    }

    // MARK: BinaryKey

    @Test func binaryKeyEquality() {
        #expect(BinaryKey(intValue: 1) == BinaryKey(stringValue: "one", intValue: 1))
        #expect(BinaryKey(intValue: 1) != BinaryKey(stringValue: "1"))
        #expect(BinaryKey(stringValue: "a") == BinaryKey(stringValue: "a", intValue: nil))
        #expect(BinaryKey.super == BinaryKey(intValue: 0))
        #expect(BinaryKey.super.stringValue == "super")
        #expect(BinaryKey.super.intValue == 0)
        #expect(Set([BinaryKey(intValue: 2), BinaryKey(stringValue: "two", intValue: 2)]).count == 1)
        #expect(BinaryKey(AnyKey(intValue: 5)) == BinaryKey(intValue: 5))
        #expect(BinaryKey.super.description == #"0 ("super")"#)
        #expect(BinaryKey(intValue: 3).description == "3")
        #expect(BinaryKey(stringValue: "a").description == #""a""#)
    }

    /// The order of `sortedByKey()` for keys in the given insertion order.
    func sortedKeys(_ keys: [BinaryKey]) -> [String] {
        KeyedFields(keys.map { ($0, BinaryValue.nil) }).sortedByKey().keys.map(\.description)
    }

    @Test func sortedByKeyOrder() {
        // Integers by value, strings by string.
        #expect(sortedKeys([10, 2, 1]) == ["1", "2", "10"])
        #expect(sortedKeys(["b", "B", "aa", "a"]) == [#""B""#, #""a""#, #""aa""#, #""b""#])
        // An integer key and a string key by their strings: "b" < "super" < "zeta".
        #expect(sortedKeys(["name", .super, "b", "zeta"]) == [#""b""#, #""name""#, #"0 ("super")"#, #""zeta""#])
        #expect(sortedKeys(["b", 10, "a", 9]) == ["9", "10", #""a""#, #""b""#])
        // The same text as an integer key comes first.
        #expect(sortedKeys(["1", 1]) == ["1", #""1""#])
    }

    /// Integers by value but integer against string by string is not transitive on its own
    /// (2 < 10, "10" < "1a", "1a" < "2"); the order must still not depend on insertion order.
    @Test func sortedByKeyIsATotalOrder() {
        let keys: [BinaryKey] = [2, 10, "1a", "3", 25, "b"]
        let expected = sortedKeys(keys)
        #expect(expected == [#""1a""#, "2", "10", "25", #""3""#, #""b""#])
        var permutation = keys
        for _ in 0..<200 {
            permutation.shuffle()
            #expect(sortedKeys(permutation) == expected, "insertion order \(permutation)")
        }
    }

    @Test func sortingKeysSortsEveryLevel() {
        let tree: BinaryValue = [
            "b": [["z": 1, "y": 2]], "a": .optional(["d": 1, "c": 2]), "c": .single(["f": 1, "e": 2]),
        ]
        let sorted: BinaryValue = [
            "a": .optional(["c": 2, "d": 1]), "b": [["y": 2, "z": 1]], "c": .single(["e": 2, "f": 1]),
        ]
        #expect(tree.sortingKeys() == sorted)
        #expect(tree.sortingKeys().description == sorted.description)
    }

    @Test func packedArrays() {
        let p = PackedArray.int32([1, -2, 3])
        #expect(p.count == 3)
        #expect(p.elementKind == .int32)
        #expect(p.leaf(at: 1) == .int32(-2))
        #expect(p.leaves == [.int32(1), .int32(-2), .int32(3)])
        #expect(PackedArray.Kind.allCases.count == 13)
        #expect(PackedArray.bool([]).count == 0)
    }

    // MARK: A tree built by hand

    struct Person: Codable, Equatable {
        var name: String
        var age: Int32
        var tags: [String]
        var scores: [UInt16]
        var nickname: String?
        var level: Level
    }

    @Test func handBuiltTreeDecodes() throws {
        // An array of primitives is a packed node: v3 writes an unkeyed container differently.
        var tree: BinaryValue = [
            "name": "Ann", "age": 42, "tags": ["a", "b"], "scores": .packed(.uint16([1, 2])), "level": 2,
        ]
        let person = try TreeDecoder().decode(Person.self, fromTree: tree)
        #expect(person == Person(name: "Ann", age: 42, tags: ["a", "b"], scores: [1, 2], nickname: nil, level: .high))
        // Assigning an array literal in place of the packed node keeps it packed.
        tree["scores"] = [3, 4]
        #expect(tree["scores"] == .packed(.uint16([3, 4])))
        let unpacked: BinaryValue = ["name": "Ann", "age": 42, "tags": [], "scores": [1, 2], "level": 2]
        #expect(throws: DecodingError.self) { try TreeDecoder().decode(Person.self, fromTree: unpacked) }
    }

    struct Small: Decodable { var v: Int8 }

    @Test func outOfRangeIntegerIsATypeMismatch() throws {
        let error = #expect(throws: DecodingError.self) {
            try TreeDecoder().decode(Small.self, fromTree: ["v": 300])
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["v"])
    }
}
