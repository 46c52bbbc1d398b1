import BinarySerialization
import Foundation
import Testing

/// The tree contract under seeded random edits: every shape of the random corpus (81 types:
/// primitives, optionals to three levels, arrays, sets, dictionaries, enums, classes, custom
/// containers, the wrappers, `Date`, `UUID`, recursive types), a few values each, each value's
/// tree edited many times through the public API (literals and nodes of other types in place
/// of leaves and elements, keys and elements added and removed, optionals set to nil), and
/// after each edit, in v3 and v2: if the type decodes the tree, the tree's bytes decode to the
/// same value (or the encoder refuses the tree), and that value's stored tree is its encoded
/// tree. A failure prints the seed, the edit and the trees before and after.
@Suite struct TreeEditContractTests {
    /// Change to explore; failures print the derived seed of each value.
    static let baseSeed: UInt64 = 0x6564_6974_7472_6565
    static let valuesPerCase: UInt64 = 4
    static let editsPerValue = 24

    @Test func randomEditsKeepTheContract() {
        var edits = 0
        var decodable = 0
        var failures: [String] = []
        for (caseIndex, c) in RandomCorpus.cases().enumerated() {
            for j in 0..<Self.valuesPerCase {
                let seed = SplitMix64.derive(Self.baseSeed, UInt64(caseIndex) << 32 | j)
                let value = RandomCorpus.value(of: c, seed: seed, size: Int(seed % 12), v2: true)
                let report = c.treeEdits(value, seed, Self.editsPerValue)
                edits += report.edits
                decodable += report.decodable
                for failure in report.failures where failures.count < 10 {
                    failures.append("\(c.name): \(failure)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.joined(separator: "\n\n"))")
        #expect(edits > 3_000, "\(edits) edits, \(decodable) left a decodable tree")
        #expect(decodable > edits / 3, "\(edits) edits, \(decodable) left a decodable tree")
    }
}
