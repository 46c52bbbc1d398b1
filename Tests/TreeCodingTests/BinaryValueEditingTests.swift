import Testing
import TreeCoding

/// Writing into a tree: the subscript setters and the throwing editing methods agree with the
/// getters; a setter always takes effect, a method either applies its edit exactly or throws.
@Suite struct BinaryValueEditingTests {
    // MARK: Through marks

    @Test func keySetterWritesInsideMarks() {
        var t: BinaryValue = .optional(["a": 1])
        t["a"] = 2
        #expect(t == .optional(["a": 2]))
        #expect(t["a"] == 2)
        t["b"] = "new"
        t["a"] = nil
        #expect(t == .optional(["b": "new"]))

        var nested: BinaryValue = .single(.optional(.single(["x": 1])))
        nested["x"] = .bool(true)
        #expect(nested == .single(.optional(.single(["x": true]))))
    }

    @Test func positionEditsWriteInsideMarks() throws {
        var t: BinaryValue = .single([.nil, 2])
        try t.setElement("zero", at: 0)  // any value in place of nil
        try t.append(3)
        #expect(t == .single(["zero", 2, 3]))
        try t.removeElement(at: 1)
        #expect(t == .single(["zero", 3]))
        #expect(t[position: 1] == 3)
        try t.insert(.nil, at: 1)
        #expect(t == .single(["zero", .nil, 3]))
    }

    @Test func modifyElementEditsInsideAnElement() throws {
        var people: BinaryValue = [["name": "Ann", "age": .uint8(30)], ["name": "Bo", "age": .uint8(4)]]
        try people.modifyElement(at: 1) { $0["age"] = 5 }
        #expect(people[position: 1]?["age"] == .uint8(5))
        let refused = #expect(throws: BinaryValue.EditError.self) {
            try people.modifyElement(at: 2) { $0["age"] = 1 }
        }
        #expect(refused?.code == .indexOutOfRange)
        var ids: BinaryValue = .packed(.uint32([1, 2]))
        try ids.modifyElement(at: 0) { $0 = 7 }
        #expect(ids == .packed(.uint32([7, 2])))
        #expect(throws: BinaryValue.EditError.self) { try ids.modifyElement(at: 0) { $0 = "x" } }
        #expect(ids == .packed(.uint32([7, 2])))
    }

    // MARK: Packed arrays

    @Test func packedEditsConvertToTheElementType() throws {
        var t: BinaryValue = .packed(.int([1, 2]))
        try t.setElement(.int(5), at: 0)
        #expect(t == .packed(.int([5, 2])))
        try t.append(.uint8(7))
        #expect(t == .packed(.int([5, 2, 7])))
        try t.removeElement(at: 1)
        #expect(t == .packed(.int([5, 7])))
        try t.insert(0, at: 0)
        #expect(t == .packed(.int([0, 5, 7])))

        var wrapped: BinaryValue = .optional(.packed(.int16([4, -5])))
        try wrapped.setElement(6, at: 1)
        #expect(wrapped == .optional(.packed(.int16([4, 6]))))
        var floats: BinaryValue = .packed(.float([1]))
        try floats.append(0.1)  // the literal's Float
        #expect(floats == .packed(.float([1, 0.1])))
    }

    @Test func packedEditsOfValuesThatDoNotConvertAreRefused() {
        var t: BinaryValue = .packed(.int16([1, 2]))
        let notString = #expect(throws: BinaryValue.EditError.self) { try t.setElement("two", at: 1) }
        #expect(notString?.code == .typeMismatch)
        #expect(throws: BinaryValue.EditError.self) { try t.append(70_000) }
        #expect(throws: BinaryValue.EditError.self) { try t.insert(.double(0.5), at: 0) }
        #expect(t == .packed(.int16([1, 2])))
    }

    // MARK: Leaves keep their type

    @Test func assignmentKeepsTheLeafTypeAndEncoding() {
        var t: BinaryValue = [
            "u32": .uint32(1), "i16": .int16(3), "d": .double(1.5), "f": .float(2.5),
            "fixed": .int64(9, .fixed), "raw": .single(.uint8(2)), "opt": .optional(.uint16(1, .varint)),
        ]
        t["u32"] = 5
        t["i16"] = -5
        t["d"] = 2
        t["f"] = 0.1
        t["fixed"] = 10
        t["raw"] = 3
        t["opt"] = 4
        #expect(t["u32"] == .uint32(5, .varint))
        #expect(t["i16"] == .int16(-5, .fixed))
        #expect(t["d"] == .double(2))
        #expect(t["f"] == .float(0.1))
        #expect(t["fixed"] == .int64(10, .fixed))
        #expect(t["raw"] == .single(.uint8(3)))
        #expect(t["opt"] == .optional(.uint16(4, .varint)))
        // A value that does not convert replaces the leaf as it is (the setter cannot refuse):
        // the field changes type.
        t["u32"] = -1
        #expect(t["u32"] == .int(-1))
        t["f"] = .double(0.1 + 0.2)
        #expect(t["f"] == .double(0.1 + 0.2))
    }

    @Test func setValueRefusesWhatDoesNotConvert() throws {
        var t: BinaryValue = ["n": .uint32(1), "s": "x", "o": .optional(.string("y")), "list": [1]]
        try t.setValue(7, forKey: "n")
        #expect(t["n"] == .uint32(7))
        for (value, key) in [(-1, "n"), ("x", "n"), (1, "s")] as [(BinaryValue, BinaryKey)] {
            let error = #expect(throws: BinaryValue.EditError.self) { try t.setValue(value, forKey: key) }
            #expect(error?.code == .typeMismatch)
        }
        try t.setValue(.optional(nil), forKey: "o")  // an optional can be nil
        try t.setValue("anything", forKey: "list")  // a container is replaced by any value
        try t.setValue(.int(-1), forKey: "new")
        #expect(t == ["n": .uint32(7), "s": "x", "o": .optional(nil), "list": "anything", "new": -1])
        // To change a leaf's type: remove the field, then set it.
        try t.removeValue(forKey: "n")
        try t.setValue(-1, forKey: "n")
        #expect(t["n"] == .int(-1))
    }

    // MARK: Writes with no place

    @Test func keySetterOnANodeWithoutFieldsMakesOne() {
        var none: BinaryValue = .optional(nil)
        none["a"] = 1
        #expect(none == .optional(["a": 1]))
        var list: BinaryValue = [1, 2]
        list[0] = 5  // an integer literal is a key
        #expect(list == [0: 5])
        var leaf: BinaryValue = "s"
        leaf["gone"] = nil  // nothing to remove: the field is absent, as asked
        #expect(leaf == "s")
    }

    @Test func editingMethodsThrowWhereThereIsNoPlace() throws {
        var list: BinaryValue = [1, 2]
        let outOfRange = #expect(throws: BinaryValue.EditError.self) { try list.setElement(3, at: 2) }
        #expect(outOfRange?.code == .indexOutOfRange)
        #expect(outOfRange?.description.contains("position 2") == true)
        #expect(throws: BinaryValue.EditError.self) { try list.removeElement(at: -1) }
        #expect(throws: BinaryValue.EditError.self) { try list.insert(0, at: 3) }
        let notKeyed = #expect(throws: BinaryValue.EditError.self) { try list.setValue(1, forKey: "a") }
        #expect(notKeyed?.code == .notKeyed)
        #expect(list == [1, 2])

        var leaf: BinaryValue = "s"
        let notIndexed = #expect(throws: BinaryValue.EditError.self) { try leaf.append(1) }
        #expect(notIndexed?.code == .notIndexed)
        #expect(throws: BinaryValue.EditError.self) { try leaf.removeValue(forKey: "a") }
        #expect(leaf == "s")

        var tree: BinaryValue = .optional(["a": [1, 2]])
        try tree.setValue(.packed(.uint8([7])), forKey: "b")
        #expect(try tree.removeValue(forKey: "a") == [1, 2])
        #expect(try tree.removeValue(forKey: "missing") == nil)
        var inner = try #require(tree["b"])
        try inner.append(.uint8(8))
        try inner.setElement(.uint8(6), at: 0)
        #expect(try inner.removeElement(at: 1) == .uint8(8))
        #expect(inner == .packed(.uint8([6])))
    }

    // MARK: KeyedFields

    @Test func keyedFieldsKeysAndPositions() {
        var fields = KeyedFields([(4, "name"), (12, "x"), ("s", .uint32(1))] as [(BinaryKey, BinaryValue)])
        #expect(fields[4] == "name")  // a key
        #expect(fields.fields[0].value == "name")  // a position
        #expect(fields[fields.startIndex].key == 4)
        fields[6] = 1  // adds key 6
        fields[12] = nil  // removes key 12
        fields["s"] = 9  // keeps the leaf type
        #expect(fields.keys == [4, "s", 6])
        #expect(fields["s"] == .uint32(9))
        fields.set(.int(9), for: "s")  // stores exactly as given
        #expect(fields["s"] == .int(9))
        #expect(fields.count == 3)
        #expect(fields.distance(from: fields.startIndex, to: fields.endIndex) == 3)
    }
}
