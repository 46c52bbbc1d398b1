import Testing

@testable import BinarySerialization

/// `isValidUTF8`, the check of every non-ASCII string key read from bytes: each rule of the
/// Unicode Standard's table 3-7 by name, a seeded differential run against the standard
/// library's decoding, and the bounds of what it reads.
@Suite struct UTF8ValidationTests {
    static func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { isValidUTF8($0) } }

    /// What the check must agree with: `String(decoding:as:)` replaces every ill-formed sequence
    /// with U+FFFD, so the bytes come back unchanged exactly when they were well-formed.
    static func reference(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
    }

    @Test(
        arguments: [
            ([], "empty"),
            ([0x61, 0x7f], "ASCII"),
            ([0xc2, 0x80], "U+0080, the first two-byte character"),
            ([0xc3, 0xa9], "é"),
            ([0xdf, 0xbf], "U+07FF, the last two-byte character"),
            ([0xe0, 0xa0, 0x80], "U+0800, the first three-byte character"),
            ([0xe2, 0x82, 0xac], "€"),
            ([0xed, 0x9f, 0xbf], "U+D7FF, just below the surrogates"),
            ([0xee, 0x80, 0x80], "U+E000, just above the surrogates"),
            ([0xef, 0xbf, 0xbf], "U+FFFF"),
            ([0xf0, 0x90, 0x80, 0x80], "U+10000, the first four-byte character"),
            ([0xf0, 0x9d, 0x84, 0x9e], "𝄞"),
            ([0xf4, 0x8f, 0xbf, 0xbf], "U+10FFFF, the last code point"),
            ([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0x62], "mixed"),
        ] as [([UInt8], String)])
    func acceptsWellFormed(_ bytes: [UInt8], _ name: String) {
        #expect(Self.valid(bytes), "\(name)")
        #expect(Self.reference(bytes), "\(name): the reference disagrees")
    }

    @Test(
        arguments: [
            ([0x80], "a lone continuation byte"),
            ([0x61, 0xbf], "a continuation byte after ASCII"),
            ([0xc0, 0xaf], "an overlong two-byte form (C0)"),
            ([0xc1, 0xbf], "an overlong two-byte form (C1)"),
            ([0xe0, 0x80, 0x80], "an overlong three-byte form"),
            ([0xe0, 0x9f, 0xbf], "an overlong three-byte form, at its top"),
            ([0xed, 0xa0, 0x80], "U+D800, a surrogate"),
            ([0xed, 0xbf, 0xbf], "U+DFFF, a surrogate"),
            ([0xf0, 0x80, 0x80, 0x80], "an overlong four-byte form"),
            ([0xf0, 0x8f, 0xbf, 0xbf], "an overlong four-byte form, at its top"),
            ([0xf4, 0x90, 0x80, 0x80], "U+110000, past the last code point"),
            ([0xf5, 0x80, 0x80, 0x80], "the lead byte F5"),
            ([0xff], "the byte FF"),
            ([0xc3], "a two-byte sequence cut off"),
            ([0xe2, 0x82], "a three-byte sequence cut off"),
            ([0xf0, 0x9d, 0x84], "a four-byte sequence cut off"),
            ([0xc3, 0x28], "a second byte that is not a continuation"),
            ([0xe2, 0x28, 0xa1], "a three-byte sequence broken at its second byte"),
            ([0xe2, 0x82, 0x28], "a three-byte sequence broken at its third byte"),
            ([0xf0, 0x9d, 0x84, 0x28], "a four-byte sequence broken at its fourth byte"),
            ([0x61, 0x62, 0xe2, 0x82], "valid, then a sequence cut off at the end"),
        ] as [([UInt8], String)])
    func rejectsIllFormed(_ bytes: [UInt8], _ name: String) {
        #expect(!Self.valid(bytes), "\(name)")
        #expect(!Self.reference(bytes), "\(name): the reference disagrees")
    }

    /// 200,000 random byte strings (seeded), most of them built from UTF-8's lead and
    /// continuation bytes near the boundaries of table 3-7, the rest uniform: the check agrees
    /// with the standard library's decoding on every one. About a third come out well-formed.
    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var rng = XorShift(state: 0x5EED_0007)
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec,
            0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
        ]
        var validCount = 0
        for _ in 0..<200_000 {
            let length = Int(rng.next() % 9)
            let bytes = (0..<length).map { _ -> UInt8 in
                rng.next() % 4 == 0
                    ? UInt8(truncatingIfNeeded: rng.next())
                    : interesting[Int(rng.next() % UInt64(interesting.count))]
            }
            let expected = Self.reference(bytes)
            if expected { validCount += 1 }
            guard Self.valid(bytes) == expected else {
                Issue.record("disagrees on \(bytes.map { String($0, radix: 16) })")
                return
            }
        }
        // The run must exercise both answers, not only one.
        #expect(validCount > 20_000 && validCount < 180_000, "\(validCount) well-formed")
    }

    /// A sequence cut off by the end of the range is ill-formed even when the bytes after the
    /// range would complete it: the check reads nothing past its range (nor before it).
    @Test func readsOnlyItsRange() {
        let complete: [[UInt8]] = [[0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9d, 0x84, 0x9e]]
        for sequence in complete {
            for offset in 0...3 {
                let buffer = [UInt8](repeating: 0x61, count: offset) + sequence + [0x61]
                buffer.withUnsafeBytes { all in
                    for cut in 1..<sequence.count {
                        let range = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + cut)])
                        #expect(!isValidUTF8(range), "\(sequence), offset \(offset), cut after \(cut)")
                    }
                    let whole = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + sequence.count)])
                    #expect(isValidUTF8(whole), "\(sequence), offset \(offset)")
                    // Starting on a continuation byte, with the lead before the range.
                    let tail = UnsafeRawBufferPointer(rebasing: all[(offset + 1)..<(offset + sequence.count)])
                    #expect(!isValidUTF8(tail), "\(sequence), offset \(offset), without its lead")
                }
            }
        }
    }
}

/// xorshift64*: a seeded stream of bytes for the differential run.
private struct XorShift {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }
}
