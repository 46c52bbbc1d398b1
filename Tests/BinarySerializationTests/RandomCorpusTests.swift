import BinarySerialization
import Foundation
import Testing

/// The random reference corpus (`Fixtures/random`, ~9,300 values of 81 shapes written by the real
/// BinaryCodable 4.0.0 and 2.0.3): each line's value is regenerated from its seed, and
///
/// 1. encoding it gives the reference's bytes, except on lines tagged `deliberate`, lines where
///    the reference cannot read its own bytes (its known bugs; there our bytes may be better),
///    and lines whose only difference is the order of keys whose UTF-8 order and `String` order
///    disagree (the reference's bytes, re-encoded through `decodeTree`, equal ours);
/// 2. decoding the reference's bytes gives the value back wherever the reference itself can;
/// 3. every round-trip path of `roundTripFailures` holds.
@Suite struct RandomCorpusTests {
    struct Line: Decodable {
        let `case`: String
        let seed: UInt64
        let size: Int
        let ref: String
        let refRoundTrips: Bool
        let deliberate: String?
    }

    struct Corpus: Sendable, CustomStringConvertible {
        let file: String
        let setup: RoundTripSetup
        var description: String { file }
    }

    static let corpora = [
        Corpus(file: "v3", setup: RoundTripSetup(format: .v3)),
        Corpus(file: "v2", setup: RoundTripSetup(format: .v2)),
        Corpus(file: "v2-nilset", setup: RoundTripSetup(format: .v2, nilIndexSets: true)),
    ]

    static func lines(_ file: String) throws -> [Line] {
        let url = try #require(
            Bundle.module.url(forResource: file, withExtension: "jsonl", subdirectory: "Fixtures/random"))
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    /// Failures of one kind, with the first few examples.
    struct Tally {
        var count = 0
        var examples: [String] = []
        mutating func add(_ example: @autoclosure () -> String) {
            count += 1
            if examples.count < 3 { examples.append(example()) }
        }
    }

    @Test(arguments: corpora)
    func corpus(_ corpus: Corpus) throws {
        let lines = try Self.lines(corpus.file)
        #expect(lines.count > 3000)
        let cases = Dictionary(uniqueKeysWithValues: RandomCorpus.cases().map { ($0.name, $0) })
        let encoder = corpus.setup.encoder
        let decoder = corpus.setup.decoder
        var tallies: [String: Tally] = [:]
        var deliberateDifferences = 0
        var keyOrderDifferences = 0
        for line in lines {
            let c = try #require(cases[line.case], "no case \(line.case)")
            let value = RandomCorpus.value(of: c, seed: line.seed, size: line.size, v2: corpus.setup.format == .v2)
            let label = "\(line.case) seed \(line.seed) size \(line.size)"
            let ours = (try? c.encode(value, encoder)).map { randomCorpusHex([UInt8]($0)) }
            if ours != line.ref {
                let reordered = try? c.resorted(Data(randomCorpusUnhex(line.ref)), encoder, decoder)
                if line.deliberate != nil {
                    deliberateDifferences += 1
                } else if let reordered, randomCorpusHex([UInt8](reordered)) == ours {
                    // The same fields in our key order (UTF-8 bytes; Docs/FormatV3.md#sorting).
                    keyOrderDifferences += 1
                } else if line.refRoundTrips {
                    tallies["bytes \(line.case)", default: Tally()].add(
                        "\(label): ours \(ours ?? "threw") ref \(line.ref) value \(c.describe(value))")
                }
            }
            if line.refRoundTrips, line.deliberate == nil {
                let reference = Data(randomCorpusUnhex(line.ref))
                do {
                    if try !c.decodeEquals(reference, decoder, value) {
                        tallies["decode ref \(line.case)", default: Tally()].add("\(label): wrong value")
                    }
                } catch {
                    tallies["decode ref \(line.case)", default: Tally()].add("\(label): \(error)")
                }
            }
            // The corpus holds only values whose bytes are deterministic (no multi-element sets).
            for failure in c.checkPaths(value, corpus.setup, !line.refRoundTrips, false) {
                tallies["\(failure.path) \(line.case)", default: Tally()].add(
                    "\(label): \(failure.detail) value \(c.describe(value))")
            }
        }
        for (kind, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            let examples = tally.examples.joined(separator: "\n  ")
            Issue.record(Comment(rawValue: "\(corpus.file) \(kind): \(tally.count) lines, e.g.\n  \(examples)"))
        }
        print(
            "\(corpus.file): \(lines.count) lines, \(deliberateDifferences) tagged deliberate differences, "
                + "\(keyOrderDifferences) differences in key order only")
    }
}
