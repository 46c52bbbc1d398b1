// The measured operations of each payload, built after a round-trip check of every coder.
import BenchSupport
import BinarySerialization
import Foundation

enum Direction: String {
    case encode, decode
    /// Bytes of one format to bytes of the other: compared with a decode plus an encode.
    case transcode
}

/// One (payload, operation, coder) cell of the table.
struct Case {
    /// Stable identifier, used by `--allocs` and the allocation table: "v3.encode", "json.decode", ...
    var id: String
    var coder: String
    var operation: String
    var direction: Direction
    /// The bytes that MB/s is computed from (the coder's own encoded size).
    var size: Int?
    /// The work of one operation; `nil` when the coder cannot do it (see `note`).
    var body: (() throws -> Void)?
    var note: String?
}

/// Every case of a payload, in table order.
let allCaseIDs = [
    "v3.encode", "v3.decode", "v2.encode", "v2.decode",
    "tree.encodeTree", "v3.encode(tree:)", "v2.encode(tree:)", "tree.decode(fromTree:)",
    "v3.decodeTree", "v2.decodeTree", "v2→v3.transcode",
    "floor.encode", "floor.decode",
    "json.encode", "json.decode", "plist.encode", "plist.decode",
    "hand.encode", "hand.decode",
]

struct BuildOptions {
    /// Build only this case (the `--allocs` mode); all cases when nil.
    var only: String?
    /// Leave out the v2 rows entirely.
    var skipV2 = false
    /// Raised container depth limits (P5), else the library defaults.
    var maximumDepth: Int?
    /// Include Foundation's binary property lists.
    var plist = false
    /// Build only these cases (the smoke check); all when nil.
    var subset: Set<String>?

    func wants(_ id: String) -> Bool {
        if let only { return only == id }
        if id.hasPrefix("plist.") && !plist { return false }
        if let subset { return subset.contains(id) }
        return true
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

/// A short reason for an error, on one line.
func reason(_ error: any Error) -> String {
    let text: String
    switch error {
    case EncodingError.invalidValue(_, let context):
        text = context.debugDescription
    case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
        DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
        text = context.debugDescription
    default:
        text = String(describing: error)
    }
    let line = text.split(separator: "\n").first.map(String.init) ?? text
    return line.count > 90 ? String(line.prefix(87)) + "..." : line
}

/// Checks `decode(encode(value)) == value` for every coder, then returns the timed closures.
///
/// A coder of this library that fails or gives back a different value aborts the run
/// (except v2, which may not be implemented yet: its rows become "n/a" when it throws).
/// A Foundation coder that throws (say, at a nesting limit) gets "n/a"; one that returns a
/// different value aborts the run too.
func buildCases<T: Codable & Equatable>(
    _ payload: String, _ value: T, hand: HandCoder<T>?, options: BuildOptions
) throws -> [Case] {
    func mismatch(_ coder: String) -> BenchFailure {
        BenchFailure(description: "\(payload): \(coder) does not round-trip (decode(encode(x)) != x)")
    }
    var cases: [Case] = []

    var configuredEncoder = BinaryEncoder(format: .v3)
    var configuredDecoder = BinaryDecoder(format: .v3)
    if let depth = options.maximumDepth {
        configuredEncoder.maximumDepth = depth
        configuredDecoder.limits.maximumDepth = depth
    }
    // Constants, so that the closures capture values, not boxes.
    let encoder = configuredEncoder
    let decoder = configuredDecoder

    // v3 and the tree stages: these must work.
    let v3Data: Data
    let tree: BinaryValue
    do {
        v3Data = try encoder.encode(value)
        guard try decoder.decode(T.self, from: v3Data) == value else { throw mismatch("v3") }
        tree = try encoder.encodeTree(value)
        guard try encoder.encode(tree: tree) == v3Data else {
            throw BenchFailure(description: "\(payload): v3 encode(tree: encodeTree(x)) != encode(x)")
        }
        guard try decoder.decode(T.self, fromTree: tree) == value else { throw mismatch("v3 decode(fromTree:)") }
    } catch let failure as BenchFailure {
        throw failure
    } catch {
        throw BenchFailure(description: "\(payload): v3 failed: \(reason(error))")
    }
    let v3Size = v3Data.count
    let v3Coder = "TreeCodable v3"
    if options.wants("v3.encode") {
        cases.append(Case(id: "v3.encode", coder: v3Coder, operation: "encode", direction: .encode, size: v3Size,
                          body: { blackHole(try encoder.encode(value)) }))
    }
    if options.wants("v3.decode") {
        cases.append(Case(id: "v3.decode", coder: v3Coder, operation: "decode", direction: .decode, size: v3Size,
                          body: { blackHole(try decoder.decode(T.self, from: v3Data)) }))
    }

    // v2: may not be implemented yet.
    var configuredV2Encoder = BinaryEncoder(format: .v2)
    var configuredV2Decoder = BinaryDecoder(format: .v2)
    if let depth = options.maximumDepth {
        configuredV2Encoder.maximumDepth = depth
        configuredV2Decoder.limits.maximumDepth = depth
    }
    let v2Encoder = configuredV2Encoder
    let v2Decoder = configuredV2Decoder
    let v2Coder = "TreeCodable v2"
    var v2Data: Data?
    var v2EncodeNote: String?
    var v2DecodeNote: String?
    if !options.skipV2 && ["v2.encode", "v2.decode", "v2.encode(tree:)", "v2.decodeTree", "v2→v3.transcode"].contains(where: options.wants) {
        do {
            v2Data = try v2Encoder.encode(value)
        } catch {
            v2EncodeNote = "v2 encode throws: \(reason(error))"
            v2DecodeNote = "v2 decode: no input (encode throws)"
        }
        if let data = v2Data {
            do {
                guard try v2Decoder.decode(T.self, from: data) == value else { throw mismatch("v2") }
            } catch let failure as BenchFailure {
                throw failure
            } catch {
                v2DecodeNote = "v2 decode throws: \(reason(error))"
            }
            do {
                guard try v2Encoder.encode(tree: tree) == data else {
                    throw BenchFailure(description: "\(payload): v2 encode(tree: encodeTree(x)) != encode(x)")
                }
            } catch let failure as BenchFailure {
                throw failure
            } catch {
                throw BenchFailure(description: "\(payload): v2 encode(tree:) throws but encode works: \(reason(error))")
            }
        }
        let size = v2Data?.count
        if options.wants("v2.encode") {
            cases.append(Case(id: "v2.encode", coder: v2Coder, operation: "encode", direction: .encode, size: size,
                              body: v2Data == nil ? nil : { blackHole(try v2Encoder.encode(value)) },
                              note: v2EncodeNote))
        }
        if options.wants("v2.decode") {
            let data = v2Data ?? Data()
            cases.append(Case(id: "v2.decode", coder: v2Coder, operation: "decode", direction: .decode, size: size,
                              body: v2DecodeNote != nil ? nil : { blackHole(try v2Decoder.decode(T.self, from: data)) },
                              note: v2DecodeNote))
        }
    }

    // The two stages separately.
    if options.wants("tree.encodeTree") {
        cases.append(Case(id: "tree.encodeTree", coder: "TreeCodable tree", operation: "encodeTree", direction: .encode,
                          size: v3Size, body: { blackHole(try encoder.encodeTree(value)) }))
    }
    if options.wants("v3.encode(tree:)") {
        cases.append(Case(id: "v3.encode(tree:)", coder: v3Coder, operation: "encode(tree:)", direction: .encode,
                          size: v3Size, body: { blackHole(try encoder.encode(tree: tree)) }))
    }
    if !options.skipV2 && options.wants("v2.encode(tree:)") {
        cases.append(Case(id: "v2.encode(tree:)", coder: v2Coder, operation: "encode(tree:)", direction: .encode,
                          size: v2Data?.count,
                          body: v2Data == nil ? nil : { blackHole(try v2Encoder.encode(tree: tree)) },
                          note: v2EncodeNote))
    }
    if options.wants("tree.decode(fromTree:)") {
        cases.append(Case(id: "tree.decode(fromTree:)", coder: "TreeCodable tree", operation: "decode(fromTree:)",
                          direction: .decode, size: v3Size,
                          body: { blackHole(try decoder.decode(T.self, fromTree: tree)) }))
    }

    // decodeTree (bytes -> tree shaped by the type) and the transcoder built on it.
    do {
        guard try decoder.decodeTree(T.self, from: v3Data) == tree else {
            throw BenchFailure(description: "\(payload): v3 decodeTree(from: encode(x)) != encodeTree(x)")
        }
    } catch let failure as BenchFailure {
        throw failure
    } catch {
        throw BenchFailure(description: "\(payload): v3 decodeTree failed: \(reason(error))")
    }
    if options.wants("v3.decodeTree") {
        cases.append(Case(id: "v3.decodeTree", coder: v3Coder, operation: "decodeTree", direction: .decode,
                          size: v3Size, body: { blackHole(try decoder.decodeTree(T.self, from: v3Data)) }))
    }
    if !options.skipV2, let data = v2Data, v2DecodeNote == nil {
        if options.wants("v2.decodeTree") {
            cases.append(Case(id: "v2.decodeTree", coder: v2Coder, operation: "decodeTree", direction: .decode,
                              size: data.count, body: { blackHole(try v2Decoder.decodeTree(T.self, from: data)) }))
        }
        var configuredTranscoder = BinaryTranscoder(from: .v2, to: .v3)
        configuredTranscoder.decoder = v2Decoder
        configuredTranscoder.encoder = encoder
        let transcoder = configuredTranscoder
        do {
            // The transcoder's contract: the bytes of encoding the decoded value (a dictionary's
            // unsorted order is the decoded dictionary's, not x's).
            let expected = try encoder.encode(v2Decoder.decode(T.self, from: data))
            guard try transcoder.transcode(T.self, from: data) == expected else {
                throw BenchFailure(description: "\(payload): transcode(v2 -> v3) != v3 encode(v2 decode)")
            }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure(description: "\(payload): transcode(v2 -> v3) failed: \(reason(error))")
        }
        if options.wants("v2→v3.transcode") {
            cases.append(Case(id: "v2→v3.transcode", coder: "BinaryTranscoder v2→v3", operation: "transcode",
                              direction: .transcode, size: data.count,
                              body: { blackHole(try transcoder.transcode(T.self, from: data)) }))
        }
    }

    // The floor: Codable with nothing else (Floor.swift). It must round-trip.
    if options.wants("floor.encode") || options.wants("floor.decode") {
        let bytes: [UInt8]
        do {
            bytes = try Floor.encode(value)
            guard try Floor.decode(T.self, from: bytes) == value else { throw mismatch("floor") }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure(description: "\(payload): floor coder failed: \(error)")
        }
        if options.wants("floor.encode") {
            cases.append(Case(id: "floor.encode", coder: "floor", operation: "encode", direction: .encode,
                              size: bytes.count, body: { blackHole(try Floor.encode(value)) }))
        }
        if options.wants("floor.decode") {
            cases.append(Case(id: "floor.decode", coder: "floor", operation: "decode", direction: .decode,
                              size: bytes.count, body: { blackHole(try Floor.decode(T.self, from: bytes)) }))
        }
    }

    // Foundation.
    func foreign(
        prefix: String, coder: String,
        encode: @escaping (T) throws -> Data, decode: @escaping (Data) throws -> T
    ) throws {
        guard options.wants("\(prefix).encode") || options.wants("\(prefix).decode") else { return }
        var data: Data?
        var encodeNote: String?
        var decodeNote: String?
        do {
            data = try encode(value)
        } catch {
            encodeNote = "\(coder) encode throws: \(reason(error))"
            decodeNote = "\(coder) decode: no input (encode throws)"
        }
        if let data {
            do {
                guard try decode(data) == value else { throw mismatch(coder) }
            } catch let failure as BenchFailure {
                throw failure
            } catch {
                decodeNote = "\(coder) decode throws: \(reason(error))"
            }
        }
        let input = data ?? Data()
        if options.wants("\(prefix).encode") {
            cases.append(Case(id: "\(prefix).encode", coder: coder, operation: "encode", direction: .encode,
                              size: data?.count, body: encodeNote != nil ? nil : { blackHole(try encode(value)) },
                              note: encodeNote))
        }
        if options.wants("\(prefix).decode") {
            cases.append(Case(id: "\(prefix).decode", coder: coder, operation: "decode", direction: .decode,
                              size: data?.count, body: decodeNote != nil ? nil : { blackHole(try decode(input)) },
                              note: decodeNote))
        }
    }
    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()
    try foreign(prefix: "json", coder: "Foundation JSON",
                encode: { try jsonEncoder.encode($0) }, decode: { try jsonDecoder.decode(T.self, from: $0) })
    let plistEncoder = PropertyListEncoder()
    plistEncoder.outputFormat = .binary
    let plistDecoder = PropertyListDecoder()
    try foreign(prefix: "plist", coder: "Foundation plist (binary)",
                encode: { try plistEncoder.encode($0) }, decode: { try plistDecoder.decode(T.self, from: $0) })

    // Hand-written.
    if let hand, options.wants("hand.encode") || options.wants("hand.decode") {
        let bytes = hand.encode(value)
        let data = Data(bytes)
        do {
            guard try hand.decode(data) == value else { throw mismatch("hand-written") }
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure(description: "\(payload): hand-written decode throws: \(error)")
        }
        if options.wants("hand.encode") {
            cases.append(Case(id: "hand.encode", coder: "hand-written", operation: "encode", direction: .encode,
                              size: bytes.count, body: { blackHole(hand.encode(value)) }))
        }
        if options.wants("hand.decode") {
            cases.append(Case(id: "hand.decode", coder: "hand-written", operation: "decode", direction: .decode,
                              size: bytes.count, body: { blackHole(try hand.decode(data)) }))
        }
    }
    return cases
}

// MARK: - Payload list

struct PayloadSpec {
    /// Short name, matched by the filter argument.
    var name: String
    /// "P1" ... "P5".
    var family: String
    var summary: String
    /// For P5: the number of nodes (per-node cost).
    var nodes: Int?
    /// Iteration counts for the allocation script: it runs `k1` and `k2` iterations under valgrind.
    var allocIterations: (Int, Int)
    var hasHand: Bool
    var build: (BuildOptions) throws -> [Case]
}

func payloadSpecs() -> [PayloadSpec] {
    var specs: [PayloadSpec] = []
    specs.append(PayloadSpec(
        name: "P1-message-stringkeys", family: "P1",
        summary: "3-field message (`sender: String, isRead: Bool, unreadCount: Int`), String coding keys",
        allocIterations: (10, 110), hasHand: false,
        build: { try buildCases("P1-message-stringkeys", Generate.messageStringKeys(), hand: nil, options: $0) }))
    specs.append(PayloadSpec(
        name: "P1-message-intkeys", family: "P1",
        summary: "the same message with `enum CodingKeys: Int, CodingKey`",
        allocIterations: (10, 110), hasHand: false,
        build: { try buildCases("P1-message-intkeys", Generate.messageIntKeys(), hand: nil, options: $0) }))
    specs.append(PayloadSpec(
        name: "P2-records-1000", family: "P2",
        summary: "`[Record]`, 1,000 records of 10 mixed fields (Int, Int32, UInt8, Double, Float, Bool, String, String?, [Int], nested 2-field struct), Int keys",
        allocIterations: (2, 12), hasHand: true,
        build: { try buildCases("P2-records-1000", Generate.records(count: 1_000), hand: Hand.records, options: $0) }))
    specs.append(PayloadSpec(
        name: "P3-ints-100k", family: "P3", summary: "`[Int]`, 100,000 values of mixed magnitudes (1 to 9 byte varints)",
        allocIterations: (2, 12), hasHand: true,
        build: { try buildCases("P3-ints-100k", Generate.ints(count: 100_000), hand: Hand.ints, options: $0) }))
    specs.append(PayloadSpec(
        name: "P3-doubles-100k", family: "P3", summary: "`[Double]`, 100,000 values of mixed magnitudes",
        allocIterations: (2, 12), hasHand: true,
        build: { try buildCases("P3-doubles-100k", Generate.doubles(count: 100_000), hand: Hand.doubles, options: $0) }))
    specs.append(PayloadSpec(
        name: "P3-bools-100k", family: "P3", summary: "`[Bool]`, 100,000 values",
        allocIterations: (2, 12), hasHand: true,
        build: { try buildCases("P3-bools-100k", Generate.bools(count: 100_000), hand: Hand.bools, options: $0) }))
    specs.append(PayloadSpec(
        name: "P4-dictionary-1000", family: "P4", summary: "`[String: Int]`, 1,000 entries",
        allocIterations: (2, 22), hasHand: false,
        build: { try buildCases("P4-dictionary-1000", Generate.dictionary(count: 1_000), hand: nil, options: $0) }))
    specs.append(PayloadSpec(
        name: "P4-strings-10k", family: "P4", summary: "`[String]`, 10,000 short strings (3 to 13 characters)",
        allocIterations: (2, 12), hasHand: false,
        build: { try buildCases("P4-strings-10k", Generate.strings(count: 10_000), hand: nil, options: $0) }))
    for (depth, k) in [(50, (10, 110)), (1_000, (2, 22)), (10_000, (2, 7))] {
        let name = "P5-depth-\(depth)"
        specs.append(PayloadSpec(
            name: name, family: "P5",
            summary: "recursive `struct Node { var value: Int; var child: [Node] }`, a chain of \(depth) nodes",
            nodes: depth, allocIterations: k, hasHand: false,
            build: { options in
                var options = options
                options.maximumDepth = 100_000
                return try buildCases(name, Generate.chain(depth: depth), hand: nil, options: options)
            }))
    }
    return specs
}
