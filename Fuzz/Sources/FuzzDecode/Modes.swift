import Foundation
import BinarySerialization

// The modes other than `decode` (selected by FUZZ_MODE, see FuzzDecode.swift and README.md).
// Every check that fails calls `violation`, which traps: that is how libFuzzer reports it.

/// Equal values; NaN (in `Float`, `Double`, `Date`, SIMD) compares by its v3 encoding with sorted
/// keys, so a NaN that survives bit for bit counts as equal.
func same<T: Codable & Equatable>(_ a: T, _ b: T) -> Bool {
    if a == b { return true }
    var e = BinaryEncoder(format: .v3)
    e.sortKeysDuringEncoding = true
    guard let x = try? e.encode(a), let y = try? e.encode(b) else { return false }
    return x == y
}

func hex<C: Collection>(_ bytes: C, limit: Int = 256) -> String where C.Element == UInt8 {
    bytes.prefix(limit).map { String(format: "%02x", $0) }.joined(separator: " ") + (bytes.count > limit ? " …" : "")
}

/// SplitMix64: the harness's only randomness, seeded from the input's plan bytes.
struct PlanRNG {
    var state: UInt64
    init(_ seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 ^ 0xD1B5_4A32_D192_ED03 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

// MARK: - Stream

/// The plan (two input bytes after the selector):
///   bits 0-1   chunk size: 1 byte; 1...4; 1...32; 1...512 (random within the range)
///   bits 2-3   the stream is the body repeated 1, 2, 3 or 8 times (file mode: 1, 2, 3 or 24)
///   bit 4      `maximumElementSize` = 1...64 instead of the default
///   bits 5-15  seed of the chunk sizes and of the bytes dropped after each error (1...8,
///              sometimes 1...512)
struct StreamPlan {
    let maxChunk: Int
    let repeats: Int
    let smallLimit: Int?
    let seed: UInt64

    init(_ plan: UInt16, fileMode: Bool) {
        maxChunk = [1, 4, 32, 512][Int(plan & 3)]
        repeats = (fileMode ? [1, 2, 3, 24] : [1, 2, 3, 8])[Int(plan >> 2 & 3)]
        smallLimit = plan & 16 != 0 ? 1 + Int(plan >> 5 & 63) : nil
        seed = UInt64(plan)
    }

    /// How many bytes to drop after the k-th decoding error: the same in both runs.
    func discardAfterError(_ k: Int) -> Int {
        var rng = PlanRNG(seed &+ UInt64(k) &* 0x1_0001)
        let big = rng.below(8) == 0
        return 1 + rng.below(big ? 512 : 8)
    }

    func decoder(_ input: FuzzInput) -> BinaryDecoder {
        var d = input.decoder
        if let smallLimit { d.limits.maximumElementSize = smallLimit }
        return d
    }

    func stream(_ input: FuzzInput) -> [UInt8] {
        repeats == 1 ? input.bytes : Array([[UInt8]](repeating: input.bytes, count: repeats).joined())
    }
}

/// What a stream decoder produced.
struct StreamOutcome<T> {
    var elements: [T] = []
    var errors = 0
    var leftover = 0
    var decodedCount = 0
    /// Whether the decoding stopped at `maxErrors`.
    var capped = false
}

let maxStreamErrors = 32

/// FUZZ_WORKAROUND_V2_STALL=1: see exerciseStream (set by run.sh for stream mode once reported).
let workaroundV2Stall = ProcessInfo.processInfo.environment["FUZZ_WORKAROUND_V2_STALL"] == "1"

@inline(never)
func streamViolation(_ what: String, _ input: FuzzInput, _ plan: StreamPlan) -> Never {
    violation("\(what) [plan: chunks ≤ \(plan.maxChunk), ×\(plan.repeats), limit \(plan.smallLimit.map(String.init) ?? "default"), seed \(plan.seed)]", input)
}

/// `finish()` must throw exactly when bytes are left over, with an `IncompleteElementError`.
func checkFinish<T>(_ stream: BinaryStreamDecoder<T>, _ label: String, _ input: FuzzInput, _ plan: StreamPlan) {
    let leftover = stream.bufferedByteCount
    let count = stream.decodedCount
    do {
        try stream.finish()
        if leftover != 0 { streamViolation("\(label): finish() did not throw with \(leftover) bytes left over", input, plan) }
    } catch let DecodingError.dataCorrupted(context) {
        guard leftover > 0 else { streamViolation("\(label): finish() threw with no bytes left over", input, plan) }
        guard let incomplete = context.underlyingError as? IncompleteElementError else {
            streamViolation("\(label): finish() threw without an IncompleteElementError: \(context)", input, plan)
        }
        if incomplete.completeElements != count || incomplete.leftoverBytes != leftover {
            streamViolation("\(label): finish() said \(incomplete), decodedCount \(count), buffered \(leftover)", input, plan)
        }
    } catch {
        streamViolation("\(label): finish() threw \(type(of: error)): \(error)", input, plan)
    }
}

/// The reference: all bytes added at once; after the k-th error, `discardAfterError(k)` bytes
/// are dropped and decoding goes on (at most `maxStreamErrors` errors).
func decodeAllAtOnce<T: Codable & Equatable>(
    _ type: T.Type, _ bytes: [UInt8], _ decoder: BinaryDecoder, _ plan: StreamPlan, _ input: FuzzInput,
    discarding: Bool = true
) -> StreamOutcome<T> {
    let stream = BinaryStreamDecoder<T>(decoder: decoder)
    stream.add(bytes)
    var out = StreamOutcome<T>()
    while true {
        do {
            guard let e = try stream.decodeElement() else { break }
            out.elements.append(e)
        } catch is DecodingError {
            out.errors += 1
            if !discarding || out.errors == maxStreamErrors { out.capped = true; break }
            let before = stream.bufferedByteCount
            let want = plan.discardAfterError(out.errors - 1)
            let dropped = stream.discardBytes(want)
            if dropped != min(want, before) || stream.bufferedByteCount != before - dropped {
                streamViolation("discardBytes(\(want)) with \(before) buffered dropped \(dropped), left \(stream.bufferedByteCount)", input, plan)
            }
        } catch {
            streamViolation("decodeElement() threw \(Swift.type(of: error)): \(error)", input, plan)
        }
    }
    out.leftover = stream.bufferedByteCount
    out.decodedCount = stream.decodedCount
    checkFinish(stream, "at once", input, plan)
    return out
}

/// (a) `BinaryStreamDecoder` fed in chunks must decode what it decodes from all bytes at once:
/// the same elements, errors at the same places (bytes dropped after each error as in the
/// reference), the same leftover; `finish()` throws `IncompleteElementError` iff bytes are left.
@inline(never)
func exerciseStream<T: Codable & Equatable>(_ type: T.Type, _ input: FuzzInput) {
    let plan = StreamPlan(input.plan, fileMode: false)
    let bytes = plan.stream(input)
    let decoder = plan.decoder(input)
    let reference = decodeAllAtOnce(T.self, bytes, decoder, plan, input)

    let stream = BinaryStreamDecoder<T>(decoder: decoder)
    var rng = PlanRNG(plan.seed ^ 0x5555)
    let data = Data(bytes)  // chunks alternate between [UInt8] and Data slices (non-zero startIndex)
    var out = StreamOutcome<T>()
    var position = 0
    var pendingDiscard = 0  // bytes still to drop after an error (they had not all arrived)
    while position < bytes.count {
        let size = min(1 + rng.below(plan.maxChunk), bytes.count - position)
        var lo = position
        position += size
        if pendingDiscard > 0 {
            let skip = min(pendingDiscard, position - lo)
            pendingDiscard -= skip
            lo += skip
        }
        if lo < position {
            if rng.next() & 1 == 0 { stream.add(Array(bytes[lo..<position])) } else { stream.add(data[lo..<position]) }
            // Known v2 issue (crashers/stream-v2-stall-*.bin): a truncation inside a complete
            // length-delimited region that ends at the buffer end is taken for "need more bytes",
            // and the decoder waits for them. discardBytes(0) resets that wait, so each chunk
            // gets a fresh attempt and fuzzing can look past it.
            if workaroundV2Stall && input.format == .v2 { stream.discardBytes(0) }
        }
        guard !out.capped else { continue }
        // Decode what is there, one element at a time or with decodeElementsUntilError().
        decoding: while true {
            let error: any Error
            if rng.next() & 1 == 0 {
                do {
                    guard let e = try stream.decodeElement() else { break decoding }
                    out.elements.append(e)
                    continue decoding
                } catch let thrown { error = thrown }
            } else {
                let (elements, e) = stream.decodeElementsUntilError()
                out.elements += elements
                guard let e else { break decoding }
                error = e
            }
            guard let error = error as? DecodingError else {
                streamViolation("chunked: decoding threw \(Swift.type(of: error)): \(error)", input, plan)
            }
            // The documented contract: the bytes stay, so the same error comes again.
            let before = stream.bufferedByteCount
            do {
                _ = try stream.decodeElement()
                streamViolation("chunked: after \(error), decoding again did not throw", input, plan)
            } catch is DecodingError {} catch let again {
                streamViolation("chunked: decoding again threw \(Swift.type(of: again))", input, plan)
            }
            out.errors += 1
            if out.errors == maxStreamErrors { out.capped = true; break decoding }
            let want = plan.discardAfterError(out.errors - 1)
            let dropped = stream.discardBytes(want)
            if dropped != min(want, before) || stream.bufferedByteCount != before - dropped {
                streamViolation("discardBytes(\(want)) with \(before) buffered dropped \(dropped), left \(stream.bufferedByteCount)", input, plan)
            }
            pendingDiscard = want - dropped
            if pendingDiscard > 0 { break decoding }  // drop the rest as it arrives
        }
    }
    out.leftover = stream.bufferedByteCount
    out.decodedCount = stream.decodedCount

    func describe(_ o: StreamOutcome<T>) -> String {
        "\(o.elements.count) elements (decodedCount \(o.decodedCount)), \(o.errors) errors\(o.capped ? " (capped)" : ""), \(o.leftover) bytes left"
    }
    // v2 applies `maximumElementSize` only to elements it has to wait for (LimitsAndErrors.md:
    // "how large an element the stream and file decoders are willing to wait for"), so with a
    // small limit the outcome depends on the chunking by design: compare only without one.
    let comparable = plan.smallLimit == nil || input.format == .v3
    let consistent = !comparable || out.elements.count == reference.elements.count
        && zip(out.elements, reference.elements).allSatisfy { same($0, $1) }
        && out.errors == reference.errors && out.leftover == reference.leftover
        && out.decodedCount == out.elements.count && reference.decodedCount == reference.elements.count
    if !consistent {
        let firstDiff = zip(out.elements, reference.elements).enumerated().first { !same($0.element.0, $0.element.1) }?.offset
        streamViolation("\(T.self) stream: chunked gave \(describe(out)); all at once \(describe(reference))"
            + (firstDiff.map { "; element \($0) differs: \(out.elements[$0]) vs \(reference.elements[$0])" } ?? ""),
            input, plan)
    }
    checkFinish(stream, "chunked", input, plan)

    // discardBytes edge cases: never more than is buffered, nothing for counts ≤ 0.
    let tail = Array(bytes.suffix(1 + rng.below(64)))
    stream.add(tail)
    for count in [0, -1, Int.min, 1 + rng.below(8), Int.max] {
        let before = stream.bufferedByteCount
        let dropped = stream.discardBytes(count)
        if dropped != min(max(count, 0), before) || stream.bufferedByteCount != before - dropped {
            streamViolation("discardBytes(\(count)) with \(before) buffered dropped \(dropped), left \(stream.bufferedByteCount)", input, plan)
        }
        do { _ = try stream.decodeElements() } catch is DecodingError {} catch {
            streamViolation("decodeElements() after discardBytes threw \(Swift.type(of: error))", input, plan)
        }
    }
    if stream.hasPartialElement { streamViolation("bytes buffered after discardBytes(Int.max)", input, plan) }
}

// MARK: - File

/// One file per process, rewritten for each input.
let fuzzFileURL = URL(fileURLWithPath: NSTemporaryDirectory())
    .appendingPathComponent("treecodable-fuzz-\(getpid()).bin")

/// (b) `BinaryFileDecoder` on the bytes written to a file must read what a stream decoder reads
/// from the same bytes at once: the elements up to the first error, then that error, or, if the
/// file ends inside an element, an `IncompleteElementError` (nothing with skipsTruncatedLastElement).
@inline(never)
func exerciseFile<T: Codable & Equatable>(_ type: T.Type, _ input: FuzzInput) {
    let plan = StreamPlan(input.plan, fileMode: true)
    let bytes = plan.stream(input)
    let decoder = plan.decoder(input)
    let reference = decodeAllAtOnce(T.self, bytes, decoder, plan, input, discarding: false)
    do { try Data(bytes).write(to: fuzzFileURL) } catch { fatalError("cannot write \(fuzzFileURL.path): \(error)") }

    let skips = plan.seed & 0x100 != 0
    let file: BinaryFileDecoder<T>
    do { file = try BinaryFileDecoder<T>(fileAt: fuzzFileURL, decoder: decoder, skipsTruncatedLastElement: skips) } catch {
        fatalError("cannot open \(fuzzFileURL.path): \(error)")
    }
    var elements: [T] = []
    var error: (any Error)?
    switch plan.seed >> 9 & 3 {
    case 0: (elements, error) = file.readElementsUntilError()
    case 1:
        do { elements = try file.readAll() } catch let e { error = e }
        if error != nil { elements = Array(reference.elements.prefix(file.elementsRead)) }  // readAll drops them
    case 2:
        do { try file.read { elements.append($0) } } catch let e { error = e }
    default:
        do { while let e = try file.readElement() { elements.append(e) } } catch let e { error = e }
    }

    let what = "\(T.self) file (\(bytes.count) bytes, skipsTruncatedLastElement \(skips))"
    let refDesc = "stream at once: \(reference.elements.count) elements, \(reference.errors) errors, \(reference.leftover) bytes left"
    if file.elementsRead != elements.count {
        streamViolation("\(what): read \(elements.count) elements, elementsRead \(file.elementsRead)", input, plan)
    }
    if let error, !(error is DecodingError) {
        streamViolation("\(what): threw \(Swift.type(of: error)): \(error)", input, plan)
    }
    // v2 with a small limit: the file's 64 KiB reads decide what it waits for (see exerciseStream).
    guard plan.smallLimit == nil || input.format == .v3 else { return }
    if elements.count != reference.elements.count || !zip(elements, reference.elements).allSatisfy({ same($0, $1) }) {
        streamViolation("\(what): read \(elements.count) elements (elementsRead \(file.elementsRead)), error \(error.map { "\($0)" } ?? "none"); \(refDesc)", input, plan)
    }
    if let error, !(error is DecodingError) {
        streamViolation("\(what): threw \(Swift.type(of: error)): \(error)", input, plan)
    }
    if reference.errors > 0 {
        if error == nil { streamViolation("\(what): no error; \(refDesc)", input, plan) }
    } else if reference.leftover > 0 && !skips {
        guard case .dataCorrupted(let c)? = error as? DecodingError,
              let incomplete = c.underlyingError as? IncompleteElementError else {
            streamViolation("\(what): \(error.map { "\($0)" } ?? "no error") instead of an IncompleteElementError; \(refDesc)", input, plan)
        }
        if incomplete.completeElements != reference.elements.count || incomplete.leftoverBytes != reference.leftover {
            streamViolation("\(what): \(incomplete); \(refDesc)", input, plan)
        }
    } else if let error {
        streamViolation("\(what): threw \(error); \(refDesc)", input, plan)
    }
    // close() twice is fine; reading after close() is a RecordFileError `.closed`, never a trap
    // and never an element (a use after close is a bug the caller should hear about).
    do { try file.close(); try file.close() } catch { streamViolation("\(what): close() threw \(error)", input, plan) }
    do {
        let element = try file.readElement()
        streamViolation("\(what): readElement() after close() gave \(element.map { "\($0)" } ?? "nil")", input, plan)
    } catch let error as RecordFileError where error.code == .closed {
    } catch { streamViolation("\(what): readElement() after close() threw \(error)", input, plan) }
}

// MARK: - Tree

/// FUZZ_SORT_KEYS=0: the tree and transcode modes encode without `sortKeysDuringEncoding`
/// (run.sh sets it while crashers/tree-v2-int-key-3-and-string-key-3-sorted.bin is open: a tree
/// with the same dictionary key twice, as an int and a string key, changes value when sorted).
let sortKeysInTreeModes = ProcessInfo.processInfo.environment["FUZZ_SORT_KEYS"] != "0"

extension FuzzInput {
    func treeEncoder(_ format: BinaryFormat) -> BinaryEncoder {
        var e = encoder(format)
        e.sortKeysDuringEncoding = sortKeysInTreeModes
        return e
    }
}

/// The input as `decode` reads it, or nil for a `DecodingError` (anything else is a violation).
func decodeInput<T: Codable>(_ type: T.Type, _ input: FuzzInput, _ decoder: BinaryDecoder) -> T? {
    do {
        return try decoder.decode(T.self, from: input.bytes)
    } catch is DecodingError {
        return nil
    } catch {
        violation("decode(\(T.self)) threw \(Swift.type(of: error)): \(error)", input)
    }
}

/// (c) `decodeTree` accepts exactly what `decode` accepts; the tree decodes (`fromTree`) to the
/// decoded value; `encode(tree:)` in the same format gives bytes that decode to that value.
@inline(never)
func exerciseTree<T: Codable & Equatable>(_ type: T.Type, _ input: FuzzInput) {
    let decoder = input.decoder
    let value = decodeInput(T.self, input, decoder)
    let tree: BinaryValue
    do {
        if input.useDataSlice {
            var padded = Data([0xA5, 0x5A])
            padded.append(contentsOf: input.bytes)
            tree = try decoder.decodeTree(T.self, from: padded[2...])
        } else {
            tree = try decoder.decodeTree(T.self, from: Data(input.bytes))
        }
    } catch is DecodingError {
        if let value { violation("decodeTree(\(T.self)) threw, but decode gave \(value)", input) }
        return
    } catch {
        violation("decodeTree(\(T.self)) threw \(Swift.type(of: error)): \(error)", input)
    }
    guard let value else { violation("decodeTree(\(T.self)) gave \(tree), but decode threw", input) }

    do {
        let fromTree = try decoder.decode(T.self, fromTree: tree)
        if !same(fromTree, value) { violation("decode(fromTree:) gave \(fromTree), decode gave \(value); tree \(tree)", input) }
    } catch {
        violation("decode(\(T.self), fromTree:) threw \(error); tree \(tree)", input)
    }

    let encoded: Data
    do { encoded = try input.treeEncoder(input.format).encode(tree: tree) } catch {
        violation("encode(tree:) in the same format threw \(Swift.type(of: error)): \(error); tree \(tree)", input)
    }
    do {
        let again = try decoder.decode(T.self, from: encoded)
        if !same(again, value) {
            violation("encode(tree:) gave [\(hex(encoded))], which decodes to \(again), not \(value)", input)
        }
    } catch {
        violation("encode(tree:) gave [\(hex(encoded))], which does not decode: \(error)", input)
    }
}

// MARK: - Transcode

/// (d) `BinaryTranscoder` from the input's format to the other: it succeeds only on input that
/// decodes, and its output decodes (in the target format) to the value the input decodes to
/// (in the source format); transcoding that output back decodes to the same value again.
@inline(never)
func exerciseTranscode<T: Codable & Equatable>(_ type: T.Type, _ input: FuzzInput) {
    let source = input.format
    let target: BinaryFormat = source == .v3 ? .v2 : .v3
    let value = decodeInput(T.self, input, input.decoder(source))

    var forward = BinaryTranscoder(from: source, to: target)
    forward.decoder = input.decoder(source)
    forward.encoder = input.treeEncoder(target)
    let output: Data
    do {
        output = try forward.transcode(T.self, from: Data(input.bytes))
    } catch is DecodingError {
        if let value { violation("transcode \(source)→\(target) threw a DecodingError, but decode gave \(value)", input) }
        return
    } catch is EncodingError {
        // The target format cannot hold the value (e.g. a negative integer key, in v3): nor can
        // encoding the decoded value.
        if let value, let direct = try? forward.encoder.encode(value) {
            violation(
                "transcode \(source)→\(target) threw an EncodingError, encoding the value gave [\(hex(direct))]", input)
        }
        return
    } catch {
        violation("transcode \(source)→\(target) threw \(Swift.type(of: error)): \(error)", input)
    }
    guard let value else { violation("transcode \(source)→\(target) gave [\(hex(output))], but decode threw", input) }

    // The transcode is the bytes of encoding the decoded value in the target format. (Sets, and
    // dictionaries without sorted keys, come in their iteration order, which differs between two
    // decoded copies: bytes that differ must then decode to the same value.)
    do {
        let direct = try forward.encoder.encode(value)
        let targetDecoder = input.decoder(target)
        if direct != output,
            !same(try targetDecoder.decode(T.self, from: direct), try targetDecoder.decode(T.self, from: output))
        {
            violation("transcode \(source)→\(target) gave [\(hex(output))], encoding the value [\(hex(direct))]", input)
        }
    } catch {
        violation("transcode \(source)→\(target) gave [\(hex(output))], encoding the value threw \(error)", input)
    }

    // What the target format holds of the value: the value encoded in it directly, read back.
    // (v2 has no "present nil": a `T??` field `.some(nil)` reads back as nil, as in BinaryCodable
    // 2.x.) The transcoded bytes must read back as that.
    let held: T
    do {
        held = try input.decoder(target).decode(T.self, from: input.treeEncoder(target).encode(value))
    } catch {
        violation("\(value) does not encode and decode back in \(target) directly: \(error)", input)
    }
    let decoded: T
    do { decoded = try input.decoder(target).decode(T.self, from: output) } catch {
        violation("transcode \(source)→\(target) gave [\(hex(output))], which does not decode in \(target): \(error)", input)
    }
    if !same(decoded, held) {
        violation(
            "transcode \(source)→\(target) gave [\(hex(output))], which decodes to \(decoded), not \(held)"
                + (same(held, value) ? "" : " (what \(target) holds of \(value))"), input)
    }

    var back = BinaryTranscoder(from: target, to: source)
    back.decoder = input.decoder(target)
    back.encoder = input.treeEncoder(source)
    do {
        let original = try back.transcode(T.self, from: output)
        let again = try input.decoder(source).decode(T.self, from: original)
        if !same(again, held) {
            violation("transcode back \(target)→\(source) gave [\(hex(original))], which decodes to \(again), not \(held)", input)
        }
    } catch {
        violation("transcode back \(target)→\(source) of [\(hex(output))] failed: \(error)", input)
    }
}

// MARK: - Seeds

/// Not a check: for an input (selector, two plan bytes, value bytes) whose value decodes, writes
/// `selector, plan, stream of [value, value]` (BinaryStreamEncoder framing) to $FUZZ_SEED_OUT.
func writeStreamSeed<T: Codable & Equatable>(_ type: T.Type, _ input: FuzzInput) {
    guard let dir = ProcessInfo.processInfo.environment["FUZZ_SEED_OUT"],
          let value = try? input.decoder.decode(T.self, from: input.bytes) else { return }
    let encoder = BinaryStreamEncoder<T>(encoder: input.encoder(input.format))
    guard let framed = try? encoder.encode(contentsOf: [value, value]) else { return }
    var out = Data([input.selector, UInt8(truncatingIfNeeded: input.plan), UInt8(truncatingIfNeeded: input.plan >> 8)])
    out.append(framed)
    var fnv: UInt32 = 2_166_136_261
    for b in out { fnv = (fnv ^ UInt32(b)) &* 16_777_619 }
    let name = String(format: "stream-%02x-%04x-%08x", input.selector, input.plan, fnv)
    try? out.write(to: URL(fileURLWithPath: dir).appendingPathComponent(name))
}
