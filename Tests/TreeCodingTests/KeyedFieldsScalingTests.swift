import Testing

@testable import TreeCoding

/// Building and editing large keyed containers by hand stays linear overall: each write and
/// lookup goes through the hash index, which every mutation keeps complete, and a write through
/// a tree's subscript edits the fields in place. These are checked on the structure, not with a
/// clock: a wall-clock limit fails when a parallel run starves the test of a thread (it did in
/// CI under AddressSanitizer), and passes a quadratic lookup on a fast machine.
@Suite struct KeyedFieldsScalingTests {
    static let n = 100_000

    static func key(_ i: Int) -> BinaryKey { BinaryKey(stringValue: "field\(i)") }

    /// Whether `fields` has its hash index, and the index gives every key its first position.
    static func hasCompleteIndex(_ fields: KeyedFields) -> Bool {
        guard let index = fields.keyIndex, index.count == fields.count else { return false }
        return fields.fields.indices.allSatisfy { index[fields.fields[$0].key] == $0 }
    }

    @Test func settingManyDistinctKeys() {
        var fields = KeyedFields()
        for i in 0...KeyLookup.scanLimit { fields.set(.int(i), for: Self.key(i)) }
        #expect(Self.hasCompleteIndex(fields))  // built by the write that crossed the threshold
        for i in (KeyLookup.scanLimit + 1)..<Self.n { fields.set(.int(i), for: Self.key(i)) }
        #expect(Self.hasCompleteIndex(fields))
        #expect(fields.count == Self.n)
        #expect(fields.position(of: Self.key(Self.n - 1)) == Self.n - 1)
        // Replacing keeps positions; the last write wins.
        for i in stride(from: 0, to: Self.n, by: 2) { fields[Self.key(i)] = .int(-i) }
        #expect(fields.count == Self.n)
        #expect(fields[Self.key(4)] == .int(-4))
        #expect(fields[Self.key(5)] == .int(5))
        #expect(fields.position(of: Self.key(4)) == 4)
        #expect(Self.hasCompleteIndex(fields))
        // A removal moves the later fields up one position.
        fields[Self.key(1)] = nil
        #expect(fields.position(of: Self.key(1)) == nil)
        #expect(fields.position(of: Self.key(2)) == 1)
        #expect(fields.position(of: Self.key(Self.n - 1)) == Self.n - 2)
        #expect(fields.keys.last == Self.key(Self.n - 1))
        #expect(Self.hasCompleteIndex(fields))
    }

    @Test func initFromManyPairs() {
        let pairs = (0..<Self.n).map { (Self.key($0 % (Self.n / 2)), BinaryValue.int($0)) }
        var fields = KeyedFields(pairs)
        #expect(fields.count == Self.n / 2)
        #expect(fields[Self.key(0)] == .int(Self.n / 2))  // the last value, at the first position
        #expect(fields.position(of: Self.key(0)) == 0)
        #expect(Self.hasCompleteIndex(fields))
        fields.reserveCapacity(Self.n / 2 + Self.n)
        var tree: BinaryValue = .keyed(fields)
        fields = KeyedFields()  // the tree holds the only reference to the storage
        let storage = Self.storageAddress(tree)
        for i in 0..<Self.n { tree[BinaryKey(intValue: i)] = .bool(true) }
        #expect(tree.count == Self.n / 2 + Self.n)
        // Written in place: a copy per write (O(n) each) would have moved the storage.
        #expect(storage != nil && Self.storageAddress(tree) == storage)
        guard case .keyed(let edited) = tree else {
            Issue.record("the tree is no longer keyed")
            return
        }
        #expect(Self.hasCompleteIndex(edited))
    }

    /// The address of the field storage of a keyed tree.
    static func storageAddress(_ tree: BinaryValue) -> UnsafeRawPointer? {
        guard case .keyed(let fields) = tree else { return nil }
        return fields.fields.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test func theIndexIsNotPartOfEquality() {
        let pairs = (0..<40).map { (BinaryKey(stringValue: "k\(1000 + $0)"), BinaryValue.int($0)) }
        let indexed = KeyedFields(pairs)
        let sorted = KeyedFields(pairs.reversed()).sortedByKey()  // no index: built by sorting
        #expect(indexed == sorted)
        #expect(indexed.hashValue == sorted.hashValue)
        #expect(Set([BinaryValue.keyed(indexed), .keyed(sorted)]).count == 1)
    }
}
