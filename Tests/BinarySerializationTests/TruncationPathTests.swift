import BinarySerialization
import Foundation
import Testing

/// Every prefix of the bytes of a nested value (a struct in an array in a struct, and a few other
/// nestings), decoded in v3, v2 and protobuf (issue 45). Each prefix either throws a
/// `DecodingError` or, where the format has no way to tell a shorter value from a cut one,
/// decodes to a different value; those prefixes are listed here. The error's offset is inside
/// the prefix, and a cut inside a nested struct's bytes gives a coding path that leads into the
/// value holding them (framing names the field whose value the bytes do not hold), never the
/// bare root.
@Suite struct TruncationPathTests {
    struct Leaf: Codable, Equatable {
        var name: String
        var count: Int32
        enum CodingKeys: Int, CodingKey { case name = 1, count = 2 }
    }

    struct Outer: Codable, Equatable {
        var id: Int32
        var items: [Leaf]
        var tail: Int32
        enum CodingKeys: Int, CodingKey { case id = 1, items = 2, tail = 3 }
    }

    struct Nestings: Codable, Equatable {
        var id: Int32
        var groups: [[Leaf]]
        var byName: [String: Leaf]
        var maybe: Leaf?
        var list: [Leaf?]
        var shapes: [Shape]
    }

    enum Shape: Codable, Equatable {
        case circle(Leaf)
        case square([Leaf], side: Int32)
    }

    enum Format: String, CaseIterable, CustomStringConvertible {
        case v3, v2, protobuf
        var description: String { rawValue }

        func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
            switch self {
            case .v3: return try [UInt8](BinaryEncoder(format: .v3).encode(value))
            case .v2: return try [UInt8](BinaryEncoder(format: .v2).encode(value))
            case .protobuf: return try [UInt8](ProtobufEncoder().encode(value))
            }
        }

        func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws -> T {
            switch self {
            case .v3: return try BinaryDecoder(format: .v3).decode(T.self, from: Data(bytes))
            case .v2: return try BinaryDecoder(format: .v2).decode(T.self, from: Data(bytes))
            case .protobuf: return try ProtobufDecoder().decode(T.self, from: Data(bytes))
            }
        }
    }

    static let a = Leaf(name: "AB", count: 5)
    static let b = Leaf(name: "CD", count: 6)

    /// Where `needle` occurs in `bytes`.
    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        guard !needle.isEmpty, needle.count <= bytes.count else { return [] }
        return (0...(bytes.count - needle.count)).compactMap { start in
            bytes[start..<start + needle.count].elementsEqual(needle) ? start..<start + needle.count : nil
        }
    }

    /// Decodes every proper prefix of `value`'s bytes; checks each error; returns the lengths of
    /// the prefixes that decode (to another value). The nested structs' bytes are found as the
    /// bytes each leaf has on its own, which every format writes unchanged inside its container.
    static func prefixesThatDecode<T: Codable & Equatable>(
        _ value: T, leaves: [Leaf], _ format: Format, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Int] {
        let whole = try format.encode(value)
        let nested = try leaves.flatMap { try occurrences(of: format.encode($0), in: whole) }
        #expect(nested.count >= leaves.count, "every leaf's bytes found", sourceLocation: sourceLocation)
        var decoded: [Int] = []
        for length in 0..<whole.count {
            let prefix = Array(whole.prefix(length))
            let label = "\(format), \(length) of \(whole.count) bytes: \(spacedHex(prefix))"
            do {
                let other = try format.decode(T.self, prefix)
                #expect(other != value, "\(label)", sourceLocation: sourceLocation)
                decoded.append(length)
            } catch let error as DecodingError {
                if let offset = error.wireError?.offset {
                    #expect(offset <= length, "\(label): offset \(offset)", sourceLocation: sourceLocation)
                }
                let insideNested = nested.contains { $0.lowerBound < length && length < $0.upperBound }
                if insideNested {
                    #expect(!error.pathStrings.isEmpty, "\(label): \(error)", sourceLocation: sourceLocation)
                }
            } catch {
                Issue.record("\(label): threw \(error), not a DecodingError", sourceLocation: sourceLocation)
            }
        }
        return decoded
    }

    @Test(arguments: Format.allCases) func structInArrayInStruct(_ format: Format) throws {
        let value = Outer(id: 7, items: [Self.a, Self.b], tail: 9)
        let decoded = try Self.prefixesThatDecode(value, leaves: [Self.a, Self.b], format)
        // Protobuf: a message ends where its bytes end, so a cut between two fields is the
        // message without the rest (`08 07` is `Outer(id: 7, items: [], tail: 0)`).
        #expect(decoded == (format == .protobuf ? [0, 2, 10, 18] : []))
    }

    /// A top-level array has no count in v3 or v2: a cut between two elements is a shorter array.
    @Test(arguments: [Format.v3, .v2]) func arrayOfStructs(_ format: Format) throws {
        let decoded = try Self.prefixesThatDecode([Self.a, Self.b], leaves: [Self.a, Self.b], format)
        #expect(decoded == (format == .v3 ? [0, 8] : [0, 7]))
    }

    /// Nested arrays, a dictionary, an optional, an array of optionals and enums with payloads
    /// (protobuf stores none of these shapes).
    @Test(arguments: [Format.v3, .v2]) func otherNestings(_ format: Format) throws {
        let value = Nestings(
            id: 1, groups: [[Self.a], [Self.b]], byName: ["x": Self.a], maybe: Self.b, list: [Self.a],
            shapes: [.circle(Self.a), .square([Self.b], side: 3)])
        let decoded = try Self.prefixesThatDecode(value, leaves: [Self.a, Self.b], format)
        #expect(decoded == [])
    }
}
