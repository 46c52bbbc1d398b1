import Foundation
import BinarySerialization

// libFuzzer entry point. The first input byte selects what to do with the rest:
//   bit 0      format: 0 = .v3, 1 = .v2
//   bit 1      v2: decoder and encoder use `prependNilIndexSetForUnkeyedContainers`;
//              v3: decode from a `Data` slice with a non-zero `startIndex` instead of `[UInt8]`
//   bits 2...7 the case: `fuzzCases[(byte >> 2) % fuzzCases.count]` (see Cases.swift)
//
// What traps (and so is reported by libFuzzer), besides the decoder trapping by itself:
// - decode, decodeTree or transcode throwing anything but `DecodingError`/`EncodingError`;
// - with FUZZ_ROUNDTRIP unset or not "0": a decoded value that re-encodes (v3 and v2) to bytes
//   that do not decode, or, for deterministic types, that re-encode to different bytes; or whose
//   unsorted (streamed) encoding differs from its encoding through the tree.
// Thrown `DecodingError`s are the expected answer to bad input and are ignored.

struct FuzzInput {
    let format: BinaryFormat
    let bytes: [UInt8]
    let useDataSlice: Bool
    /// v2 side uses `prependNilIndexSetForUnkeyedContainers` (the decoder only for v2 input).
    let nilIndexSets: Bool
    /// Stream and file modes: seeds the chunk sizes, discards and repetitions (see Modes.swift).
    var plan: UInt16 = 0
    /// The first input byte.
    var selector: UInt8 = 0

    var decoder: BinaryDecoder {
        var d = BinaryDecoder(format: format)
        d.prependNilIndexSetForUnkeyedContainers = nilIndexSets && format == .v2
        return d
    }

    func encoder(_ format: BinaryFormat) -> BinaryEncoder {
        var e = BinaryEncoder(format: format)
        e.sortKeysDuringEncoding = true
        e.prependNilIndexSetForUnkeyedContainers = nilIndexSets && format == .v2
        return e
    }

    func decoder(_ format: BinaryFormat) -> BinaryDecoder {
        var d = BinaryDecoder(format: format)
        d.prependNilIndexSetForUnkeyedContainers = nilIndexSets && format == .v2
        return d
    }
}

let checkRoundTrip: Bool = ProcessInfo.processInfo.environment["FUZZ_ROUNDTRIP"] != "0"

@inline(never)
func violation(_ what: String, _ input: FuzzInput) -> Never {
    let hex = input.bytes.prefix(256).map { String(format: "%02x", $0) }.joined(separator: " ")
    fatalError("FUZZ VIOLATION (\(input.format)): \(what); input (\(input.bytes.count) bytes): \(hex)")
}

@inline(never)
func exercise<T: Codable>(_ type: T.Type, _ input: FuzzInput, deterministic: Bool) {
    let decoder = input.decoder
    // 1. Decode: a value or a DecodingError.
    let value: T?
    do {
        if input.useDataSlice {
            var padded = Data([0xA5, 0x5A])
            padded.append(contentsOf: input.bytes)
            value = try decoder.decode(T.self, from: padded[2...])
        } else {
            value = try decoder.decode(T.self, from: input.bytes)
        }
    } catch is DecodingError {
        value = nil
    } catch {
        violation("decode(\(T.self)) threw \(Swift.type(of: error)): \(error)", input)
    }

    // 2. The typed tree and transcoding read through the recorder: same contract.
    let data = Data(input.bytes)
    var tree: BinaryValue?
    do {
        tree = try decoder.decodeTree(T.self, from: data)
    } catch is DecodingError {
        tree = nil
    } catch {
        violation("decodeTree(\(T.self)) threw \(Swift.type(of: error)): \(error)", input)
    }
    if let tree {
        _ = tree.description
        for format in BinaryFormat.allCases {
            do { _ = try input.encoder(format).encode(tree: tree) } catch is EncodingError {} catch {
                violation("encode(tree:) to \(format) threw \(Swift.type(of: error)): \(error)", input)
            }
        }
        let engine = Result { try decoder.decode(T.self, fromTree: tree) }
        if input.format == .v3 { comparePlainTreeDecoder(T.self, tree, engine, decoder, input) }
    }
    do {
        var transcoder = BinaryTranscoder(from: input.format, to: input.format == .v3 ? .v2 : .v3)
        transcoder.decoder = decoder
        transcoder.encoder = input.encoder(input.format == .v3 ? .v2 : .v3)
        _ = try transcoder.transcode(T.self, from: data)
    } catch is DecodingError {} catch is EncodingError {} catch {
        violation("transcode(\(T.self)) threw \(Swift.type(of: error)): \(error)", input)
    }

    // 3. A decoded value re-encodes to bytes that decode, and re-encoding is stable.
    guard let value, checkRoundTrip else { return }
    for format in BinaryFormat.allCases {
        let encoder = input.encoder(format)
        let bytes: Data
        do { bytes = try encoder.encode(value) } catch is EncodingError { continue } catch {
            violation("encode(\(T.self)) to \(format) threw \(Swift.type(of: error)): \(error)", input)
        }
        let again: T
        do { again = try input.decoder(format).decode(T.self, from: bytes) } catch {
            let hex = bytes.prefix(256).map { String(format: "%02x", $0) }.joined(separator: " ")
            violation("\(T.self) decoded, re-encoded to \(format) as [\(hex)], which does not decode: \(error)", input)
        }
        // The unsorted encoder writes without a tree (streaming): the same bytes as through the
        // tree, or the same error. Both runs encode the same instance (a `Set` iterates alike).
        var unsorted = encoder
        unsorted.sortKeysDuringEncoding = false
        let streamed = Result { try unsorted.encode(value) }
        let viaTree = Result { try unsorted.encode(tree: unsorted.encodeTree(value)) }
        switch (streamed, viaTree) {
        case (.success(let a), .success(let b)) where a == b: break
        case (.failure, .failure): break
        default:
            violation(
                "\(T.self) unsorted encode to \(format): streamed \(streamed) but through the tree \(viaTree)", input)
        }
        guard deterministic else { continue }
        let bytesAgain: Data
        do { bytesAgain = try encoder.encode(again) } catch {
            violation("\(T.self) re-decoded from \(format) does not encode: \(error)", input)
        }
        if bytesAgain != bytes {
            let a = bytes.prefix(128).map { String(format: "%02x", $0) }.joined(separator: " ")
            let b = bytesAgain.prefix(128).map { String(format: "%02x", $0) }.joined(separator: " ")
            violation("\(T.self) re-encoding to \(format) is not stable: [\(a)] then [\(b)]", input)
        }
    }
}

/// What the harness does with an input: `FUZZ_MODE` (default `decode`); see README.md.
enum FuzzMode: String {
    /// `BinaryDecoder.decode`, `decodeTree`, `transcode` contracts and the value round trip.
    case decode
    /// `BinaryStreamDecoder` fed in chunks, against the same bytes fed at once; `discardBytes`.
    case stream
    /// `BinaryFileDecoder` on the bytes written to a file, against `BinaryStreamDecoder`.
    case file
    /// `decodeTree` then `encode(tree:)` in the same format: decodes to the same value.
    case tree
    /// `BinaryTranscoder`: the output decodes (target format) to the input's value (source).
    case transcode
    /// Not fuzzing: writes stream seeds (see make_corpus.py --stream) to `FUZZ_SEED_OUT`.
    case seeds
    /// `ProtobufDecoder` (`decode`, `decodeTree`, `decodeRaw`) and the protobuf round trips
    /// (Protobuf.swift): its own types and input layout.
    case protobuf
    /// Not fuzzing: writes the protobuf seed corpus (generated values) to `FUZZ_SEED_OUT`.
    case protobufSeeds = "protobuf-seeds"

    /// Stream and file inputs carry two plan bytes after the selector.
    var hasPlan: Bool { self == .stream || self == .file || self == .seeds }
}

let fuzzMode: FuzzMode = {
    let name = ProcessInfo.processInfo.environment["FUZZ_MODE"] ?? "decode"
    guard let mode = FuzzMode(rawValue: name) else {
        fatalError("FUZZ_MODE=\(name): expected decode, stream, file, tree, transcode, protobuf, seeds or protobuf-seeds")
    }
    return mode
}()

nonisolated(unsafe) var protobufSeedsWritten = false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let mode = fuzzMode
    switch mode {
    case .protobufSeeds:
        if !protobufSeedsWritten {
            protobufSeedsWritten = true
            writeProtobufSeeds()
        }
        return 0
    case .protobuf:
        guard size >= 1 else { return 0 }
        let input = PBFuzzInput(selector: data[0], bytes: Array(UnsafeBufferPointer(start: data + 1, count: size - 1)))
        protobufCases[Int(data[0] >> 2) % protobufCases.count].run(input)
        return 0
    default: break
    }
    let header = mode.hasPlan ? 3 : 1
    guard size >= header else { return 0 }
    let selector = data[0]
    let plan = mode.hasPlan ? UInt16(data[1]) | UInt16(data[2]) << 8 : 0
    let rest = Array(UnsafeBufferPointer(start: data + header, count: size - header))
    let format: BinaryFormat = selector & 1 == 0 ? .v3 : .v2
    // Bit 1: v2 (or, in transcode mode, the v2 side) uses nil index sets; v3 (decode and tree
    // modes) reads from a Data slice with a non-zero startIndex.
    let bit1 = selector & 2 != 0
    let input = FuzzInput(
        format: format, bytes: rest,
        useDataSlice: format == .v3 && bit1 && (mode == .decode || mode == .tree),
        nilIndexSets: bit1 && (format == .v2 || mode == .transcode),
        plan: plan, selector: selector)
    fuzzCases[Int(selector >> 2) % fuzzCases.count].run(mode, input)
    return 0
}

/// `TreeDecoder` (TreeCoding's plain decoder) must agree with the engine's tree path, which a v3
/// `BinaryDecoder` runs on the tree as it is: the same value (the same v3 bytes, or `==`: a set's
/// or dictionary's bytes follow its order) or a `DecodingError` with the same description.
func comparePlainTreeDecoder<T: Codable>(
    _ type: T.Type, _ tree: BinaryValue, _ engine: Result<T, any Error>, _ decoder: BinaryDecoder, _ input: FuzzInput
) {
    var plain = TreeDecoder()
    plain.userInfo = decoder.userInfo
    plain.maximumDepth = decoder.limits.maximumDepth
    let result = Result { try plain.decode(T.self, fromTree: tree) }
    switch (result, engine) {
    case (.success(let a), .success(let b)):
        let bytes = (try? BinaryEncoder().encode(a), try? BinaryEncoder().encode(b))
        let equal = bytes.0 == bytes.1 || (a as? any Equatable)?.isEqual(to: b) == true
        if !equal { violation("TreeDecoder gave \(a), the engine \(b); tree \(tree)", input) }
    case (.failure(let a as DecodingError), .failure(let b as DecodingError)):
        if "\(a)" != "\(b)" && describe(a) != describe(b) {
            violation("TreeDecoder threw \(describe(a)), the engine \(describe(b)); tree \(tree)", input)
        }
    case (.failure(let error), .success), (.success, .failure(let error)):
        violation("TreeDecoder and the engine disagree (\(error)); tree \(tree)", input)
    case (.failure(let a), .failure(let b)):
        violation("TreeDecoder threw \(Swift.type(of: a)), the engine \(Swift.type(of: b)); tree \(tree)", input)
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this value.
    fileprivate func isEqual(to other: Any) -> Bool { (other as? Self) == self }
}

/// A `DecodingError`'s case, coding path and description, without its underlying error.
private func describe(_ error: DecodingError) -> String {
    func path(_ c: DecodingError.Context) -> String {
        c.codingPath.map { "\($0.stringValue)#\($0.intValue.map(String.init) ?? "-")" }.joined(separator: "/")
            + ": " + c.debugDescription
    }
    switch error {
    case .typeMismatch(let t, let c): return "typeMismatch \(t) \(path(c))"
    case .valueNotFound(let t, let c): return "valueNotFound \(t) \(path(c))"
    case .keyNotFound(let k, let c): return "keyNotFound \(k.stringValue) \(path(c))"
    case .dataCorrupted(let c): return "dataCorrupted \(path(c))"
    @unknown default: return "\(error)"
    }
}
