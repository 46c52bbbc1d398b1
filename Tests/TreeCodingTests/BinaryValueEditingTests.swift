import Testing
import TreeCoding

/// Writing into a tree: the subscript setters and the throwing editing methods agree with the
/// getters, and every write either applies or is reported.
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

    @Test func indexSetterWritesInsideMarks() {
        var t: BinaryValue = .single([1, 2])
        t[0] = "zero"
        t[2] = 3
        #expect(t == .single(["zero", 2, 3]))
        t[1] = nil
        #expect(t == .single(["zero", 3]))
        #expect(t[1] == 3)
    }

    // MARK: Packed arrays

    @Test func packedWriteOfTheElementKindStaysPacked() {
        var t: BinaryValue = .packed(.int([1, 2]))
        t[0] = .int(5)
        #expect(t == .packed(.int([5, 2])))
        t[2] = .int(7)  // appends
        #expect(t == .packed(.int([5, 2, 7])))
        t[1] = nil  // removes, still packed
        #expect(t == .packed(.int([5, 7])))

        var wrapped: BinaryValue = .optional(.packed(.int16([4, -5])))
        wrapped[1] = .int16(6)
        #expect(wrapped == .optional(.packed(.int16([4, 6]))))
    }

    @Test func packedWriteOfAnotherKindBecomesUnkeyed() {
        var t: BinaryValue = .packed(.int([1, 2]))
        t[1] = "two"
        #expect(t == [.int(1), "two"])
        // Another integer encoding is another kind: packed elements would lose it.
        var fixed: BinaryValue = .packed(.int32([1, 2]))
        fixed[0] = .int32(9, .fixed)
        #expect(fixed == .unkeyed([.int32(9, .fixed), .int32(2)]))
        #expect(fixed[0] == .int32(9, .fixed))
        var appended: BinaryValue = .packed(.bool([true]))
        appended[1] = .uint8(1)
        #expect(appended == .unkeyed([.bool(true), .uint8(1)]))
    }

    // MARK: Writes that cannot apply

    @Test func impossibleSubscriptWritesLeaveTheNodeUnchanged() {
        var list: BinaryValue = [1, 2]
        list[3] = 4
        list[-1] = 4
        list[2] = nil
        #expect(list == [1, 2])
        var keyed: BinaryValue = ["a": 1]
        keyed[0] = 5
        #expect(keyed == ["a": 1])
        var none: BinaryValue = .optional(nil)
        none["a"] = 1
        none[0] = 1
        #expect(none == .optional(nil))
    }

    @Test func editingMethodsThrowWhatTheSettersCannotSay() throws {
        var list: BinaryValue = [1, 2]
        let outOfRange = #expect(throws: BinaryValue.EditError.self) { try list.setElement(3, at: 2) }
        #expect(outOfRange?.code == .indexOutOfRange)
        #expect(outOfRange?.description.contains("index 2") == true)
        #expect(throws: BinaryValue.EditError.self) { try list.removeElement(at: -1) }
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
}
