import Foundation
import TreeCodableMacros
import XCTest

// The seeded differential of issue 44: random values of 64 shapes (RandomShapes.swift, made by
// Macros/Scripts/make_random_shapes.py), each encoded through its generated code and through its
// twin's synthesized Codable, in v3, v2 (with and without nil index sets) and, where proto3 can
// express the shape, protobuf. The bytes must be equal, each path must read the other's bytes to
// equal values, and mutated bytes must give both paths the same outcome: equal values, or errors
// of the same case at the same coding path.

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomString(_ r: inout SplitMix64) -> String {
    let alphabet = Array("abcXYZ019 _-é€")
    return String(
        (0..<Int.random(in: 0...6, using: &r)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &r)] })
}

protocol RandomShape: Codable, Equatable {
    associatedtype Twin: Codable & Equatable
    static var protobufCanExpress: Bool { get }
    static func random(_ r: inout SplitMix64, depth: Int) -> Self
    var twin: Twin { get }
}

enum Coder: CaseIterable {
    case v3, v2, v2NilSets, protobuf

    func encode<T: Encodable>(_ value: T) throws -> Data {
        switch self {
        case .v3: return try BinaryEncoder().encode(value)
        case .v2: return try BinaryEncoder(format: .v2).encode(value)
        case .v2NilSets:
            var encoder = BinaryEncoder(format: .v2)
            encoder.prependNilIndexSetForUnkeyedContainers = true
            return try encoder.encode(value)
        case .protobuf: return try ProtobufEncoder().encode(value)
        }
    }

    /// Bytes that equal values always have: keys sorted (protobuf sorts map entries itself).
    func encodeSorted<T: Encodable>(_ value: T) throws -> Data {
        guard self != .protobuf else { return try encode(value) }
        var encoder = BinaryEncoder(format: self == .v3 ? .v3 : .v2)
        encoder.sortKeysDuringEncoding = true
        encoder.prependNilIndexSetForUnkeyedContainers = self == .v2NilSets
        return try encoder.encode(value)
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        switch self {
        case .v3: return try BinaryDecoder().decode(type, from: data)
        case .v2: return try BinaryDecoder(format: .v2).decode(type, from: data)
        case .v2NilSets:
            var decoder = BinaryDecoder(format: .v2)
            decoder.prependNilIndexSetForUnkeyedContainers = true
            return try decoder.decode(type, from: data)
        case .protobuf: return try ProtobufDecoder().decode(type, from: data)
        }
    }
}

/// An encoding's outcome: its bytes, or its error's outline.
func outline(_ result: Result<Data, any Error>) -> String {
    switch result {
    case .success(let data): return "bytes \(Array(data))"
    case .failure(EncodingError.invalidValue(_, let context)):
        return "invalidValue at "
            + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    case .failure(let error): return outline(error)
    }
}

/// An error's case and coding path, the parts both paths must agree on.
func outline(_ error: any Error) -> String {
    func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case DecodingError.keyNotFound(let key, let context):
        return "keyNotFound \(key.intValue.map(String.init) ?? key.stringValue) at \(path(context.codingPath))"
    case DecodingError.typeMismatch(_, let context): return "typeMismatch at \(path(context.codingPath))"
    case DecodingError.valueNotFound(_, let context): return "valueNotFound at \(path(context.codingPath))"
    case DecodingError.dataCorrupted(let context): return "dataCorrupted at \(path(context.codingPath))"
    default: return "other \(type(of: error))"
    }
}

final class RandomShapeDifferentialTests: XCTestCase {
    /// Values per run; each goes through every coder that can express its shape.
    static let values = 100_000

    func testGeneratedAndCodablePathsAgree() throws {
        var r = SplitMix64(state: UInt64(ProcessInfo.processInfo.environment["SHAPES_SEED"] ?? "") ?? 44)
        var checked = 0
        var mutated = 0
        let shapes = randomShapes
        for i in 0..<Self.values {
            let shape = shapes[i % shapes.count]
            try check(shape, &r, &mutated)
            checked += 1
        }
        XCTAssertEqual(checked, Self.values)
        XCTAssertGreaterThan(mutated, Self.values)
        XCTAssertGreaterThanOrEqual(shapes.count, 60)
    }

    private func check<S: RandomShape>(_ shape: S.Type, _ r: inout SplitMix64, _ mutated: inout Int) throws {
        let value = S.random(&r, depth: 0)
        for coder in Coder.allCases where coder != .protobuf || S.protobufCanExpress {
            // A value the format cannot write (a dictionary key "-1" is a negative integer key in
            // v3) must be refused by both paths alike.
            let generatedResult = Result { try coder.encode(value) }
            let codableResult = Result { try coder.encode(value.twin) }
            guard case .success(let generated) = generatedResult, case .success(let codable) = codableResult else {
                XCTAssertEqual(
                    outline(generatedResult), outline(codableResult), "\(S.self) \(coder): encoding")
                continue
            }
            XCTAssertEqual(generated, codable, "\(S.self) \(coder)")
            // What the Codable path reads back is the reference (a dictionary key "09" comes back
            // as "9" in both: it is stored as the integer key 9).
            let reference = try coder.decode(S.Twin.self, from: codable)
            XCTAssertEqual(try coder.decode(S.self, from: codable).twin, reference, "\(S.self) \(coder)")
            XCTAssertEqual(try coder.decode(S.Twin.self, from: generated), reference, "\(S.self) \(coder)")
            // Mutations: a byte changed, the bytes cut short, a byte inserted.
            for _ in 0..<2 {
                var bytes = [UInt8](generated)
                switch Int.random(in: 0..<3, using: &r) {
                case 0 where !bytes.isEmpty:
                    bytes[Int.random(in: 0..<bytes.count, using: &r)] = UInt8.random(in: 0 ... .max, using: &r)
                case 1 where !bytes.isEmpty:
                    bytes.removeLast(Int.random(in: 1...bytes.count, using: &r))
                default:
                    bytes.insert(
                        UInt8.random(in: 0 ... .max, using: &r), at: Int.random(in: 0...bytes.count, using: &r))
                }
                let data = Data(bytes)
                let g = Result { try coder.decode(S.self, from: data) }
                let c = Result { try coder.decode(S.Twin.self, from: data) }
                switch (g, c) {
                case (.success(let a), .success(let b)):
                    // Compared by their bytes, keys sorted: a mutated float may be a NaN, equal to
                    // nothing, and two equal dictionaries need not iterate alike.
                    XCTAssertEqual(
                        outline(Result { try coder.encodeSorted(a.twin) }),
                        outline(Result { try coder.encodeSorted(b) }),
                        "\(S.self) \(coder) \(bytes)")
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(outline(a), outline(b), "\(S.self) \(coder) \(bytes)")
                default: XCTFail("\(S.self) \(coder) \(bytes): one path read, the other failed: \(g) / \(c)")
                }
                mutated += 1
            }
        }
    }
}
