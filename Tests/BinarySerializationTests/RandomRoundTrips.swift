import Foundation
import BinarySerialization

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
/// - `decodeTree(T, from: encode(v))` equals `encodeTree(v)` and re-encodes to the same bytes;
/// - transcoding to the other format gives what encoding in it gives, and back again the same bytes;
/// - a stream of the value twice decodes back to both.
///
/// A value the encoder refuses with an `EncodingError` is not a failure here (the corpus test
/// compares with the reference's bytes); any other error is.
func roundTripFailures<T: Codable & Equatable>(_ value: T, _ setup: RoundTripSetup) -> [PathFailure] {
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
    check("decode") { try decoder.decode(T.self, from: bytes) == value ? nil : "decoded a different value" }
    check("decode slice") {
        let padded = Data([0xEE]) + bytes
        return try decoder.decode(T.self, from: padded[1...]) == value ? nil : "decoded a different value"
    }
    check("encode(tree:)") {
        let again = try encoder.encode(tree: tree)
        return again == bytes ? nil : "bytes \(randomCorpusHex([UInt8](again))) != \(randomCorpusHex([UInt8](bytes)))"
    }
    check("decode(fromTree:)") { try decoder.decode(T.self, fromTree: tree) == value ? nil : "decoded a different value" }
    check("decodeTree") {
        let stored = try decoder.decodeTree(T.self, from: bytes)
        let again = try encoder.encode(tree: stored)
        return again == bytes ? nil : "re-encoded \(randomCorpusHex([UInt8](again))) != \(randomCorpusHex([UInt8](bytes)))"
    }
    let other = setup.other
    if let otherBytes = try? other.encoder.encode(value) {
        check("transcode \(setup.format)->\(other.format)") {
            var t = BinaryTranscoder(from: setup.format, to: other.format)
            t.encoder = other.encoder
            t.decoder = decoder
            let out = try t.transcode(T.self, from: bytes)
            return out == otherBytes ? nil : "\(randomCorpusHex([UInt8](out))) != \(randomCorpusHex([UInt8](otherBytes)))"
        }
        check("transcode \(other.format)->\(setup.format)") {
            var t = BinaryTranscoder(from: other.format, to: setup.format)
            t.encoder = encoder
            t.decoder = other.decoder
            let out = try t.transcode(T.self, from: otherBytes)
            return out == bytes ? nil : "\(randomCorpusHex([UInt8](out))) != \(randomCorpusHex([UInt8](bytes)))"
        }
    }
    check("stream") {
        let framed = try BinaryStreamEncoder<T>(encoder: encoder).encode(contentsOf: [value, value])
        var stream = BinaryStreamDecoder<T>(decoder: decoder)
        stream.add(framed)
        let back = try stream.decodeElements()
        return back == [value, value] ? nil : "decoded \(back.count) elements, or different ones"
    }
    return failures
}
