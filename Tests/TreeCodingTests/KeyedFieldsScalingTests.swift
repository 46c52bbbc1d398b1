import Testing
import TreeCoding

/// Building and editing large keyed containers by hand stays linear overall: these would take
/// minutes with a linear key lookup per write.
@Suite struct KeyedFieldsScalingTests {
    static let n = 100_000

    static func key(_ i: Int) -> BinaryKey { BinaryKey(stringValue: "field\(i)") }

    @Test(.timeLimit(.minutes(1))) func settingManyDistinctKeys() {
        var fields = KeyedFields()
        for i in 0..<Self.n { fields.set(.int(i), for: Self.key(i)) }
        #expect(fields.count == Self.n)
        #expect(fields.position(of: Self.key(Self.n - 1)) == Self.n - 1)
        // Replacing keeps positions; the last write wins.
        for i in stride(from: 0, to: Self.n, by: 2) { fields[Self.key(i)] = .int(-i) }
        #expect(fields.count == Self.n)
        #expect(fields[Self.key(4)] == .int(-4))
        #expect(fields[Self.key(5)] == .int(5))
        #expect(fields.position(of: Self.key(4)) == 4)
        // A removal moves the later fields up one position.
        fields[Self.key(1)] = nil
        #expect(fields.position(of: Self.key(1)) == nil)
        #expect(fields.position(of: Self.key(2)) == 1)
        #expect(fields.position(of: Self.key(Self.n - 1)) == Self.n - 2)
        #expect(fields.keys.last == Self.key(Self.n - 1))
    }

    @Test(.timeLimit(.minutes(1))) func initFromManyPairs() {
        let pairs = (0..<Self.n).map { (Self.key($0 % (Self.n / 2)), BinaryValue.int($0)) }
        let fields = KeyedFields(pairs)
        #expect(fields.count == Self.n / 2)
        #expect(fields[Self.key(0)] == .int(Self.n / 2))  // the last value, at the first position
        #expect(fields.position(of: Self.key(0)) == 0)
        var tree: BinaryValue = .keyed(fields)
        for i in 0..<Self.n { tree[BinaryKey(intValue: i)] = .bool(true) }
        #expect(tree.count == Self.n / 2 + Self.n)
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
