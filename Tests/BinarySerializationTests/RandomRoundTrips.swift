import BinarySerialization
import Foundation

// The round trips every value must survive, in one format: the checks of the seeded random suite
// (`RandomRoundTripTests`) and of the random reference corpus (`RandomCorpusTests`).

/// The format and options one random run uses.
struct RoundTripSetup: Sendable {
    var format: BinaryFormat
    var nilIndexSets = false

    var encoder: BinaryEncoder {
        var e = BinaryEncoder(format: format)
        e.sortKeysDuringEncoding = true
        e.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        return e
    }

    var decoder: BinaryDecoder {
        var d = BinaryDecoder(format: format)
        d.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        return d
    }

    /// The same options in the other format.
    var other: RoundTripSetup {
        RoundTripSetup(format: format == .v3 ? .v2 : .v3, nilIndexSets: nilIndexSets)
    }
}

/// One failed path: which path, and what happened.
struct PathFailure: CustomStringConvertible {
    let path: String
    let detail: String
    var description: String { "\(path): \(detail)" }
}

/// Runs every path of `value` in `setup`'s format and returns the ones that fail:
/// - `decode(encode(v)) == v`, also from a `Data` slice with a non-zero start index;
/// - `encode(tree: encodeTree(v)) == encode(v)` and `decode(fromTree: encodeTree(v)) == v`;
/// - unsorted: the streamed bytes (no tree) equal the tree's;
/// - `decodeTree(T, from: encode(v))` equals `encodeTree(v)` and re-encodes to the same bytes;
/// - transcoding to the other format gives what encoding in it gives, and back again the same bytes;
/// - a stream of the value twice decodes back to both.
///
/// A value the encoder refuses with an `EncodingError` is not a failure here (the corpus test
/// compares with the reference's bytes); any other error is.
///
/// Values holding a `Set` of several elements have no one byte form (the order depends on the set's
/// storage): for them (`orderFree`), two encodings are compared by decoding both.
func roundTripFailures<T: Codable & Equatable>(
    _ value: T, _ setup: RoundTripSetup, lossyV2Allowed: Bool = false, orderFree: Bool = false
) -> [PathFailure] {
    var failures: [PathFailure] = []
    func check(_ path: String, _ body: () throws -> String?) {
        do {
            if let problem = try body() { failures.append(PathFailure(path: path, detail: problem)) }
        } catch {
            failures.append(PathFailure(path: path, detail: "threw \(error)"))
        }
    }
    let encoder = setup.encoder
    let decoder = setup.decoder
    /// Whether two encodings in `format` are the same value's.
    func same(_ a: Data, _ b: Data, _ format: RoundTripSetup) throws -> Bool {
        if a == b { return true }
        guard orderFree else { return false }
        return try format.decoder.decode(T.self, from: a) == format.decoder.decode(T.self, from: b)
    }
    let bytes: Data
    let tree: BinaryValue
    do {
        bytes = try encoder.encode(value)
        tree = try encoder.encodeTree(value)
    } catch is EncodingError {
        return []
    } catch {
        return [PathFailure(path: "encode", detail: "threw \(error)")]
    }
    // v2 leaves nil optionals out of keyed containers (as BinaryCodable 2.x): a `T??` `.some(nil)`
    // field or a `[K: V?]` entry holding nil does not survive. Where the caller allows it (the
    // reference loses the same value), such a loss is accepted if the decoded value re-encodes
    // to the same bytes; the other paths then compare against the decoded value.
    var decoded = value
    check("decode") {
        decoded = try decoder.decode(T.self, from: bytes)
        if decoded == value { return nil }
        if lossyV2Allowed, setup.format == .v2, try same(encoder.encode(decoded), bytes, setup) { return nil }
        return "decoded a different value"
    }
    check("decode slice") {
        let padded = Data([0xEE]) + bytes
        return try decoder.decode(T.self, from: padded[1...]) == decoded ? nil : "decoded a different value"
    }
    check("encode(tree:)") {
        let again = try encoder.encode(tree: tree)
        return try same(again, bytes, setup)
            ? nil : "bytes \(randomCorpusHex([UInt8](again))) != \(randomCorpusHex([UInt8](bytes)))"
    }
    // Unsorted encoding is written without a tree (BinaryEncoder.streamed): the same bytes as the tree.
    check("streamed") {
        var unsorted = setup.encoder
        unsorted.sortKeysDuringEncoding = false
        guard let streamed = unsorted.streamed(value) else { return "the streaming encoder gave up" }
        let viaTree = try unsorted.encode(tree: unsorted.encodeTree(value))
        return streamed == viaTree
            ? nil : "streamed \(randomCorpusHex([UInt8](streamed))) != tree \(randomCorpusHex([UInt8](viaTree)))"
    }
    do {
        // Stream elements are streamed too.
        check("streamed element") {
            var unsorted = setup.encoder
            unsorted.sortKeysDuringEncoding = false
            let stream = BinaryStreamEncoder<T>(encoder: unsorted)
            let streamed = try stream.encode(value)
            let viaTree = try stream.encodeThroughTree(value)
            return streamed == viaTree
                ? nil : "streamed \(randomCorpusHex([UInt8](streamed))) != tree \(randomCorpusHex([UInt8](viaTree)))"
        }
    }
    // The tree decodes as its bytes do (v2 reads its tree as it stores it), but for one v2 loss
    // the tree does not show: a single-value `Optional` holding a value written as `00` (0,
    // false), which the bytes read as nil.
    check("decode(fromTree:)") {
        let fromTree = try decoder.decode(T.self, fromTree: tree)
        return fromTree == decoded || (lossyV2Allowed && fromTree == value) ? nil : "decoded a different value"
    }
    check("decodeTree") {
        let stored = try decoder.decodeTree(T.self, from: bytes)
        let again = try encoder.encode(tree: stored)
        return try same(again, bytes, setup)
            ? nil : "re-encoded \(randomCorpusHex([UInt8](again))) != \(randomCorpusHex([UInt8](bytes)))"
    }
    // A transcode gives what encoding the decoded value in the target format gives.
    let other = setup.other
    if let otherBytes = try? other.encoder.encode(decoded) {
        check("transcode \(setup.format)->\(other.format)") {
            var t = BinaryTranscoder(from: setup.format, to: other.format)
            t.encoder = other.encoder
            t.decoder = decoder
            let out = try t.transcode(T.self, from: bytes)
            return try same(out, otherBytes, other)
                ? nil : "\(randomCorpusHex([UInt8](out))) != \(randomCorpusHex([UInt8](otherBytes)))"
        }
        check("transcode \(other.format)->\(setup.format)") {
            var t = BinaryTranscoder(from: other.format, to: setup.format)
            t.encoder = encoder
            t.decoder = other.decoder
            let out = try t.transcode(T.self, from: otherBytes)
            let expected = try encoder.encode(other.decoder.decode(T.self, from: otherBytes))
            return try same(out, expected, setup)
                ? nil : "\(randomCorpusHex([UInt8](out))) != \(randomCorpusHex([UInt8](expected)))"
        }
    }
    check("stream") {
        let framed = try BinaryStreamEncoder<T>(encoder: encoder).encode(contentsOf: [value, value])
        let stream = BinaryStreamDecoder<T>(decoder: decoder)
        stream.add(framed)
        let back = try stream.decodeElements()
        return back == [decoded, decoded] ? nil : "decoded \(back.count) elements, or different ones"
    }
    return failures
}

/// The corpus generator's SplitMix64 serves every seeded test (mutations, chunkings, shuffles).
extension SplitMix64: RandomNumberGenerator {}
