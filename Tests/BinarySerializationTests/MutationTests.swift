import BinarySerialization
import Foundation
import Testing

/// Mutation testing of the decoder's contract: every input either decodes or throws a
/// `DecodingError` — never traps, hangs, or throws anything else.
///
/// For every reference vector that round-trips, in both formats, each mutant is decoded as the
/// vector's own Swift type:
/// (a) every truncation (every proper prefix; 300 evenly spaced cut points for big vectors),
/// (b) every single-bit flip of the first 64 bytes,
/// (c) 20 insertions of a random byte at a random position,
/// (d) 20 overwrites of a random byte with a different random byte.
/// The random mutations use a fixed-seed SplitMix64 per vector, so every run decodes the same mutants.
@Suite struct MutationTests {
    /// Built once: `Fixtures.casesByName` rebuilds every case on each access.
    nonisolated(unsafe) static let cases: [String: VecCase] = Fixtures.casesByName

    /// Vectors longer than this get `truncationPoints` evenly spaced cut points instead of all.
    static let fullTruncationLimit = 512
    static let truncationPoints = 300
    static let flippedPrefix = 64
    static let randomInsertions = 20
    static let randomOverwrites = 20
    /// At most this many failures are reported per vector and format (all are counted).
    static let reportedFailuresPerVector = 5

    /// A stable seed (FNV-1a of the name and format): `Hasher` is randomly seeded per process.
    static func seed(_ name: String, _ format: BinaryFormat) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in "\(format)/\(name)".utf8 {
            h ^= UInt64(b)
            h &*= 0x0000_0100_0000_01B3
        }
        return h
    }

    struct Mutant {
        let description: String
        let bytes: [UInt8]
    }

    /// All mutants of `original`, in a fixed order.
    static func mutants(of original: [UInt8], seed: UInt64) -> [Mutant] {
        var out: [Mutant] = []
        let n = original.count
        // (a) Truncations: every proper prefix, or evenly spaced cut points for big inputs.
        let cuts: [Int]
        if n <= fullTruncationLimit {
            cuts = Array(0..<n)
        } else {
            var set = Set((0..<truncationPoints).map { $0 * n / truncationPoints })
            set.formUnion([1, 2, 3, n - 3, n - 2, n - 1])
            cuts = set.filter { $0 >= 0 && $0 < n }.sorted()
        }
        for cut in cuts {
            out.append(Mutant(description: "truncated to \(cut) of \(n) bytes", bytes: Array(original[..<cut])))
        }
        // (b) Every single-bit flip of the first 64 bytes.
        for i in 0..<min(n, flippedPrefix) {
            for bit in 0..<8 {
                var m = original
                m[i] ^= UInt8(1) << UInt8(bit)
                out.append(Mutant(description: "bit \(bit) of byte \(i) flipped", bytes: m))
            }
        }
        var rng = SplitMix64(seed: seed)
        // (c) Insertions of a random byte at a random position (0...n).
        for _ in 0..<randomInsertions {
            let at = Int(rng.next() % UInt64(n + 1))
            let b = UInt8(truncatingIfNeeded: rng.next())
            var m = original
            m.insert(b, at: at)
            out.append(Mutant(description: "byte \(hexByte(b)) inserted at \(at)", bytes: m))
        }
        // (d) Overwrites of a random byte with a different random byte.
        if n > 0 {
            for _ in 0..<randomOverwrites {
                let at = Int(rng.next() % UInt64(n))
                let delta = UInt8(truncatingIfNeeded: rng.next() % 255 + 1)  // 1...255: the byte changes
                var m = original
                m[at] ^= delta
                out.append(
                    Mutant(
                        description: "byte \(at) overwritten \(hexByte(original[at])) -> \(hexByte(m[at]))", bytes: m))
            }
        }
        return out
    }

    static func hexByte(_ b: UInt8) -> String { String(format: "%02x", b) }

    static func hexDump(_ bytes: [UInt8], limit: Int = 256) -> String {
        let shown = bytes.prefix(limit).map(hexByte).joined(separator: " ")
        return bytes.count > limit ? "\(shown) ... (\(bytes.count) bytes)" : shown
    }

    struct Tally: CustomStringConvertible {
        var vectors = 0
        var mutants = 0
        var decoded = 0
        var decodingErrors = 0
        var failures = 0
        /// DecodingErrors from the wire layer whose description does not say where.
        var withoutOffset = 0
        var missingCases: [String] = []
        var description: String {
            "\(vectors) vectors, \(mutants) mutants: \(decoded) decoded, \(decodingErrors) threw DecodingError, \(failures) failed, \(withoutOffset) without a byte offset"
        }
    }

    /// Decodes every mutant of every round-tripping vector of `format` with its case type.
    static func run(_ format: BinaryFormat, vectors: [Vector]) -> Tally {
        var tally = Tally()
        let codec = ProjectCodec(format: format)
        for vector in vectors where vector.roundtrip {
            guard let c = cases[vector.name] else {
                tally.missingCases.append(vector.name)
                continue
            }
            tally.vectors += 1
            var reported = 0
            for mutant in mutants(of: vector.bytes, seed: seed(vector.name, format)) {
                tally.mutants += 1
                do {
                    _ = try c.decodesEqual(codec, mutant.bytes)  // any value is fine
                    tally.decoded += 1
                } catch let error as DecodingError {
                    tally.decodingErrors += 1
                    // An error the library found in the bytes names where.
                    if let context = error.mutationContext, context.underlyingError is WireFormatError,
                        (context.underlyingError as? WireFormatError)?.offset == nil
                    {
                        tally.withoutOffset += 1
                        if reported < reportedFailuresPerVector {
                            reported += 1
                            Issue.record(
                                """
                                \(format) \(vector.name), \(mutant.description): no byte offset in "\(context.debugDescription)"
                                mutant: \(hexDump(mutant.bytes))
                                """)
                        }
                    }
                } catch {
                    tally.failures += 1
                    if reported < reportedFailuresPerVector {
                        reported += 1
                        Issue.record(
                            """
                            \(format) \(vector.name), \(mutant.description): threw \(Swift.type(of: error)), not DecodingError: \(error)
                            mutant: \(hexDump(mutant.bytes))
                            """)
                    }
                }
            }
        }
        return tally
    }

    @Test
    func v3Mutants() {
        let tally = Self.run(.v3, vectors: Fixtures.v3)
        print("MutationTests v3: \(tally)")
        #expect(tally.missingCases.isEmpty, "no case for \(tally.missingCases)")
        #expect(tally.vectors > 180)
        #expect(tally.failures == 0)
        #expect(tally.withoutOffset == 0)
    }

    @Test
    func v2Mutants() {
        let tally = Self.run(.v2, vectors: Fixtures.v2)
        print("MutationTests v2: \(tally)")
        #expect(tally.missingCases.isEmpty, "no case for \(tally.missingCases)")
        #expect(tally.vectors > 180)
        #expect(tally.failures == 0)
        #expect(tally.withoutOffset == 0)
    }

    /// The mutant generator is deterministic and covers what it says it does.
    @Test func mutantsAreDeterministic() {
        let original: [UInt8] = Array(0..<100)
        let a = Self.mutants(of: original, seed: 42).map(\.bytes)
        let b = Self.mutants(of: original, seed: 42).map(\.bytes)
        #expect(a == b)
        #expect(a.count == 100 + 64 * 8 + 20 + 20)
        let big = Self.mutants(of: [UInt8](repeating: 7, count: 20_000), seed: 1)
        #expect(big.filter { $0.bytes.count < 20_000 }.count <= Self.truncationPoints + 6)
        #expect(Self.mutants(of: [], seed: 3).count == 20)  // only insertions
    }
}

extension DecodingError {
    /// The context of any case.
    fileprivate var mutationContext: Context? {
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): return c
        @unknown default: return nil
        }
    }
}
