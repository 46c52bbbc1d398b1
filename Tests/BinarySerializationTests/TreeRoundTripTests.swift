import BinarySerialization
import Foundation
import Testing

/// Acceptance 2: for every conformance case, the tree is a faithful middle stage:
/// `encode(tree: encodeTree(v)) == encode(v)`, `decode(fromTree: encodeTree(v)) == v`, and, where the
/// encoding is deterministic, `decodeTree(T.self, from: encode(v)) == encodeTree(v)`.
@Suite struct TreeRoundTripTests {
    /// Built once: `Fixtures.casesByName` rebuilds every case on each access.
    /// Whether the v2 format is implemented yet (its stub throws on every encode).
    static let v2Available: Bool = (try? BinaryEncoder(format: .v2).encode(1)) != nil

    nonisolated(unsafe) static let cases: [String: VecCase] = Fixtures.casesByName
    static let names: [String] = Fixtures.allCases.map(\.name)

    @Test func everyCaseIsCovered() {
        #expect(Self.names.count > 180)
        #expect(Set(Self.names).count == Self.names.count, "case names are not unique")
    }

    @Test("v3 tree round trip", arguments: names, [true, false])
    func v3(_ name: String, sorted: Bool) throws {
        try check(name, format: .v3, sorted: sorted)
    }

    /// Cases v2 can only store with `prependNilIndexSetForUnkeyedContainers` (`encodeNil()` in an
    /// unkeyed container); they run with that option on.
    static let v2NeedsNilIndexSets: Set<String> = ["v3.UnkeyedMix.seed"]

    @Test(
        "v2 tree round trip", .enabled(if: TreeRoundTripTests.v2Available, "the v2 format is not implemented yet"),
        arguments: names, [true, false])
    func v2(_ name: String, sorted: Bool) throws {
        try check(name, format: .v2, sorted: sorted, nilIndexSets: Self.v2NeedsNilIndexSets.contains(name))
    }

    func check(_ name: String, format: BinaryFormat, sorted: Bool, nilIndexSets: Bool = false) throws {
        let c = try #require(Self.cases[name])
        var codec = ProjectCodec(format: format, sorted: sorted)
        codec.encoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        codec.decoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        #expect(try c.treeRoundTrip(codec), "\(format) sorted: \(sorted) \(name): tree round trip failed")
    }
}
