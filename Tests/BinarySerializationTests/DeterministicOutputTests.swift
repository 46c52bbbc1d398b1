import BinarySerialization
import Foundation
import Testing

/// README's "Deterministic output": what sorted keys make stable, and what they do not.
@Suite struct DeterministicOutputTests {
    static let words = (0..<40).map { "word\($0)" }

    @Test func sortedKeysMakeDictionariesStable() throws {
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        var forward: [String: Int] = [:]
        for (i, w) in Self.words.enumerated() { forward[w] = i }
        var backward: [String: Int] = [:]
        for (i, w) in Self.words.enumerated().reversed() { backward[w] = i }
        #expect(try encoder.encode(forward) == encoder.encode(backward))
    }

    @Test func setsFollowTheirIterationOrderEvenWithSortedKeys() throws {
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        let reference = try encoder.encode(Set(Self.words))
        var generator = SystemRandomNumberGenerator()
        var differs = false
        for _ in 0..<200 where !differs {
            var set = Set<String>()
            for w in Self.words.shuffled(using: &generator) { set.insert(w) }
            #expect(set == Set(Self.words))
            differs = try encoder.encode(set) != reference
        }
        #expect(differs, "two equal sets built in different orders encoded alike in 200 tries")
    }
}
