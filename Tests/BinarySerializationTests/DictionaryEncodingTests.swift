import BinarySerialization
import Foundation
import Testing

/// `[String: V]` and `[Int: V]` are written without calling `Dictionary.encode(to:)`: both
/// encoders build the keyed container themselves. These tests hold that path to the standard
/// library's `encode(to:)`, which a wrapper hands the encoder unchanged (so the encoders see the
/// wrapper's type, not a dictionary): bytes in every format and option, trees, and errors must be
/// the same, for random dictionaries whose keys include every kind of integer-like string.
@Suite struct DictionaryEncodingTests {
    /// Runs `Dictionary`'s own `encode(to:)` on the encoder it is given.
    struct ThroughCodable<D: Encodable>: Encodable {
        let d: D
        func encode(to encoder: any Encoder) throws { try d.encode(to: encoder) }
    }

    /// The unsorted setups, and sorted v3.
    typealias Setup = EncoderSetup
    static let setups = EncoderSetup.all + [EncoderSetup.sortedV3]

    /// The bytes in hex, or the error's coding path and message (not its value, which is the
    /// wrapper on one side and the dictionary on the other).
    static func outcome(_ body: () throws -> Data) -> String {
        do {
            return spacedHex(try body())
        } catch let EncodingError.invalidValue(_, context) {
            return "error at \(context.codingPath.map(\.stringValue)): \(context.debugDescription)"
        } catch {
            return "other error: \(error)"
        }
    }

    /// Checks `value` against the same value written through the standard library.
    static func expectSameAsStandardLibrary<D: Encodable>(
        _ value: D, _ setup: Setup, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let e = setup.encoder
        let direct = outcome { try e.encode(value) }
        let general = outcome { try e.encode(ThroughCodable(d: value)) }
        #expect(direct == general, "\(setup): \(value)", sourceLocation: sourceLocation)
        let directTree = Result { try e.encodeTree(value) }.map { "\($0)" }
        let generalTree = Result { try e.encodeTree(ThroughCodable(d: value)) }.map { "\($0)" }
        #expect(
            (try? directTree.get()) == (try? generalTree.get()), "\(setup) tree: \(value)",
            sourceLocation: sourceLocation)
    }

    /// Keys that `Dictionary`'s key type reads as integers in every way it can (sign, leading
    /// zeros, the limits and one past them), strings that look alike but are not integers, and
    /// strings that are equal to each other as Swift strings but differ in their bytes.
    static let keyPool: [String] = [
        "", "0", "1", "01", "+1", "-0", "-1", "007", "7", "42", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", " 1", "1 ", "1.0", "0x1", "a", "b", "K", "\u{212A}", "é",
        "e\u{301}", "super", "😀",
    ]

    static func randomKey(_ rng: inout SplitMix64) -> String {
        switch rng.next() % 4 {
        case 0: return String(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64))
        case 1: return String(rng.next() % 1000)
        default: return keyPool[Int(rng.next() % UInt64(keyPool.count))]
        }
    }

    @Test(arguments: setups)
    func randomStringKeyedDictionariesMatchTheStandardLibrary(_ setup: Setup) {
        var rng = SplitMix64(seed: 0xD1C7)
        for _ in 0..<400 {
            var d: [String: Int] = [:]
            for _ in 0..<(rng.next() % 40) { d[Self.randomKey(&rng)] = Int(truncatingIfNeeded: rng.next()) }
            Self.expectSameAsStandardLibrary(d, setup)
        }
    }

    @Test(arguments: setups)
    func randomNestedDictionariesMatchTheStandardLibrary(_ setup: Setup) {
        var rng = SplitMix64(seed: 0xD1C8)
        for _ in 0..<200 {
            var d: [String: [Int: String?]] = [:]
            for _ in 0..<(rng.next() % 8) {
                var inner: [Int: String?] = [:]
                for _ in 0..<(rng.next() % 6) {
                    inner[Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64)] =
                        rng.next() % 3 == 0 ? nil : Self.randomKey(&rng)
                }
                d[Self.randomKey(&rng)] = inner
            }
            Self.expectSameAsStandardLibrary(d, setup)
        }
    }

    /// Past 16 keys the encoders switch to a hashed check for repeated keys; integer-like keys
    /// that collide there must still be reported.
    @Test(arguments: setups)
    func largeDictionariesWithCollidingIntegerKeys(_ setup: Setup) {
        var d: [String: Int] = [:]
        for i in 0..<40 { d["k\(i)"] = i }
        for i in 0..<40 { d[String(i)] = i }
        Self.expectSameAsStandardLibrary(d, setup)
        d["007"] = 1
        Self.expectSameAsStandardLibrary(d, setup)
        let result = Self.outcome { try setup.encoder.encode(d) }
        #expect(result.hasPrefix("error at []") && result.contains("\"007\"") && result.contains("\"7\""), "\(result)")
    }

    @Test(arguments: setups)
    func emptyAndSingleEntryDictionaries(_ setup: Setup) {
        Self.expectSameAsStandardLibrary([String: Int](), setup)
        Self.expectSameAsStandardLibrary([Int: Int](), setup)
        Self.expectSameAsStandardLibrary(["super": 1], setup)
        Self.expectSameAsStandardLibrary([0: [String: Int]()], setup)
        Self.expectSameAsStandardLibrary(["a": Optional<Int>.none], setup)
    }

    /// The depth limit counts a dictionary like any container, on both paths.
    @Test(arguments: setups)
    func depthLimit(_ setup: Setup) {
        var limited = setup
        for depth in 1...3 {
            var e = setup.encoder
            e.maximumDepth = depth
            limited = Setup(description: "\(setup) depth \(depth)", encoder: e)
            Self.expectSameAsStandardLibrary(["a": ["b": ["c": 1]]], limited)
            Self.expectSameAsStandardLibrary([1: [2: [3: 1]]], limited)
        }
    }

    /// Errors thrown by a value name its key in the path.
    @Test(arguments: setups)
    func errorsOfValuesCarryTheKey(_ setup: Setup) {
        struct Failing: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(
                    0, .init(codingPath: encoder.codingPath, debugDescription: "failing on purpose"))
            }
        }
        Self.expectSameAsStandardLibrary(["x": Failing()], setup)
        Self.expectSameAsStandardLibrary([5: ["y": Failing()]], setup)
        let result = Self.outcome { try setup.encoder.encode([5: ["y": Failing()]]) }
        #expect(result == "error at [\"5\", \"y\"]: failing on purpose")
    }
}
