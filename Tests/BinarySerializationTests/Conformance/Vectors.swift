import BinarySerialization
import Foundation

/// One reference vector from `Fixtures/*.jsonl` (copied from the conformance suite).
struct Vector: Decodable, Sendable, CustomTestStringConvertibleShim {
    let name: String
    let det: Bool
    let roundtrip: Bool
    let hex: String
    var bytes: [UInt8] { unhex(hex) }
    var testDescription: String { name }
}

/// Lets vectors name themselves in parameterized test output.
protocol CustomTestStringConvertibleShim {}

enum Fixtures {
    static func load(_ file: String) -> [Vector] {
        guard let url = Bundle.module.url(forResource: file, withExtension: "jsonl", subdirectory: "Fixtures"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Vector.self, from: Data($0.utf8)) }
    }

    static let v3 = load("v3")
    static let v2 = load("v2")
    static let v3Streams = load("v3-streams")
    static let v2Streams = load("v2-streams")

    static var allCases: [VecCase] { commonCases() + moreCommonCases() + v3Cases() + v2Cases() }
    static var casesByName: [String: VecCase] {
        Dictionary(allCases.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }
}

/// The project's codec for one format, as the conformance driver wants it.
struct ProjectCodec: VecCodec, TreeCodec {
    var encoder: BinaryEncoder
    var decoder: BinaryDecoder

    init(format: BinaryFormat, sorted: Bool = true, nilIndexSets: Bool = false) {
        encoder = BinaryEncoder(format: format)
        encoder.sortKeysDuringEncoding = sorted
        encoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        decoder = BinaryDecoder(format: format)
        decoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
    }

    func encode<T: Encodable>(_ value: T) throws -> [UInt8] { Array(try encoder.encode(value)) }
    func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T { try decoder.decode(type, from: bytes) }

    func treeRoundTrip<T: Codable & Equatable>(_ value: T, deterministic: Bool) throws -> Bool {
        let tree = try encoder.encodeTree(value)
        guard try encoder.encode(tree: tree) == encoder.encode(value) else { return false }
        guard try decoder.decode(T.self, fromTree: tree) == value else { return false }
        if deterministic {
            guard try decoder.decodeTree(T.self, from: encoder.encode(value)) == tree else { return false }
        }
        return true
    }

    func transcode<T: Codable>(_ type: T.Type, _ bytes: [UInt8], fromLegacy: Bool) throws -> [UInt8] {
        var transcoder = BinaryTranscoder(from: fromLegacy ? .v2 : .v3, to: fromLegacy ? .v3 : .v2)
        transcoder.encoder.sortKeysDuringEncoding = true
        return Array(try transcoder.transcode(type, from: Data(bytes)))
    }
}
