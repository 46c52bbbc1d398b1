import Foundation
import TreeCodableMacros
import XCTest

// Each `@TreeCodable` type has a twin without the attribute, with the same fields and keys: the
// generated coding must give the twin's bytes (its synthesized `Codable`), and read them back.

@TreeCodable
struct GeneratedPoint: Codable, Equatable {
    var x: Int
    var y: Double
    var label: String?
    var tags: [String]
}

struct PlainPoint: Codable, Equatable {
    var x: Int
    var y: Double
    var label: String?
    var tags: [String]
}

@TreeCodable
struct GeneratedIntKeys: Codable, Equatable {
    var id: UInt32
    var text: String
    var note: Optional<String>
    var cache: [Int] = []
    enum CodingKeys: Int, CodingKey {
        case text = 2, id = 1
        case note = 5
    }
}

struct PlainIntKeys: Codable, Equatable {
    var id: UInt32
    var text: String
    var note: Optional<String>
    var cache: [Int] = []
    enum CodingKeys: Int, CodingKey {
        case text = 2, id = 1
        case note = 5
    }
}

@TreeCodable
struct GeneratedStringKeys: Codable, Equatable {
    var firstName: String
    var age: Int8
    var score: Float!
    // Written, never read: a `let` with an initial value (listed in CodingKeys, so no warning).
    let version = 2
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", age
        case score, version
    }
}

struct PlainStringKeys: Codable, Equatable {
    var firstName: String
    var age: Int8
    var score: Float!
    // Written, never read: a `let` with an initial value (listed in CodingKeys, so no warning).
    let version = 2
    enum CodingKeys: String, CodingKey {
        case firstName = "first_name", age
        case score, version
    }
}

@TreeCodable
struct GeneratedWrapped: Codable, Equatable {
    @Packed var values: [Int64]
    @ZigZagEncoded var delta: Int16
    @FixedSizeEncoded var id: UInt64
    var flag: Bool
}

struct PlainWrapped: Codable, Equatable {
    @Packed var values: [Int64]
    @ZigZagEncoded var delta: Int16
    @FixedSizeEncoded var id: UInt64
    var flag: Bool
}

@TreeCodable
struct GeneratedBox<T: Codable & Equatable>: Codable, Equatable {
    var first: T
    var rest: [T]
    var maybe: T?
}

struct PlainBox<T: Codable & Equatable>: Codable, Equatable {
    var first: T
    var rest: [T]
    var maybe: T?
}

// Codable only where its parameter is: the generated conformance takes the same condition.
@TreeCodable
struct GeneratedPair<T> {
    var left: T
    var right: [T]
}

extension GeneratedPair: Codable where T: Codable {}
extension GeneratedPair: Equatable where T: Equatable {}

struct PlainPair<T> {
    var left: T
    var right: [T]
}

extension PlainPair: Codable where T: Codable {}

enum Outer {
    @TreeCodable
    struct GeneratedInner: Codable, Equatable {
        var point: GeneratedPoint
        var points: [GeneratedPoint]
        var small: UInt8
    }

    struct PlainInner: Codable, Equatable {
        var point: PlainPoint
        var points: [PlainPoint]
        var small: UInt8
    }
}

@TreeCodable
final class GeneratedNode: Codable {
    let id: Int
    var name: String?
    var children: [GeneratedNode]

    init(id: Int, name: String?, children: [GeneratedNode]) {
        self.id = id
        self.name = name
        self.children = children
    }
}

final class PlainNode: Codable {
    let id: Int
    var name: String?
    var children: [PlainNode]

    init(id: Int, name: String?, children: [PlainNode]) {
        self.id = id
        self.name = name
        self.children = children
    }
}

final class GeneratedCodingTests: XCTestCase {
    /// Encodes both values in v3, checks the bytes are equal, and decodes the plain bytes as the
    /// generated type.
    private func assertSameBytes<Generated: Codable, Plain: Codable>(
        _ generated: Generated, _ plain: Plain, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Generated {
        let encoder = BinaryEncoder(format: .v3)
        let generatedBytes = try encoder.encode(generated)
        let plainBytes = try encoder.encode(plain)
        XCTAssertEqual(
            Array(generatedBytes), Array(plainBytes), "generated coding wrote other bytes", file: file, line: line)
        return try BinaryDecoder(format: .v3).decode(Generated.self, from: plainBytes)
    }

    func testPlainStruct() throws {
        let generated = GeneratedPoint(x: -3, y: 1.5, label: "a", tags: ["b", "c"])
        let decoded = try assertSameBytes(generated, PlainPoint(x: -3, y: 1.5, label: "a", tags: ["b", "c"]))
        XCTAssertEqual(decoded, generated)
        let empty = GeneratedPoint(x: 0, y: 0, label: nil, tags: [])
        XCTAssertEqual(try assertSameBytes(empty, PlainPoint(x: 0, y: 0, label: nil, tags: [])), empty)
    }

    func testIntCodingKeys() throws {
        let generated = GeneratedIntKeys(id: 7, text: "t", note: nil, cache: [1])
        let decoded = try assertSameBytes(generated, PlainIntKeys(id: 7, text: "t", note: nil, cache: [1]))
        // `cache` has no key: it is neither written nor read.
        XCTAssertEqual(decoded, GeneratedIntKeys(id: 7, text: "t", note: nil, cache: []))
    }

    func testStringCodingKeys() throws {
        let generated = GeneratedStringKeys(firstName: "Ada", age: -1, score: 2.5)
        XCTAssertEqual(
            try assertSameBytes(generated, PlainStringKeys(firstName: "Ada", age: -1, score: 2.5)), generated)
        let unscored = GeneratedStringKeys(firstName: "", age: 0, score: nil)
        XCTAssertEqual(try assertSameBytes(unscored, PlainStringKeys(firstName: "", age: 0, score: nil)), unscored)
    }

    func testPropertyWrappers() throws {
        let generated = GeneratedWrapped(values: [1, -2, 300], delta: -5, id: 9, flag: true)
        let plain = PlainWrapped(values: [1, -2, 300], delta: -5, id: 9, flag: true)
        XCTAssertEqual(try assertSameBytes(generated, plain), generated)
    }

    func testGenericStruct() throws {
        let generated = GeneratedBox(first: "a", rest: ["b"], maybe: nil)
        XCTAssertEqual(try assertSameBytes(generated, PlainBox(first: "a", rest: ["b"], maybe: nil)), generated)
        let numbers = GeneratedBox(first: 1.0, rest: [], maybe: 2.0)
        XCTAssertEqual(try assertSameBytes(numbers, PlainBox(first: 1.0, rest: [], maybe: 2.0)), numbers)
    }

    func testConditionallyCodableGeneric() throws {
        let generated = GeneratedPair(left: UInt16(3), right: [4, 5])
        XCTAssertEqual(try assertSameBytes(generated, PlainPair(left: UInt16(3), right: [4, 5])), generated)
    }

    func testNestedTypes() throws {
        let point = GeneratedPoint(x: 1, y: 2, label: nil, tags: ["x"])
        let plainPoint = PlainPoint(x: 1, y: 2, label: nil, tags: ["x"])
        let generated = Outer.GeneratedInner(point: point, points: [point, point], small: 255)
        let plain = Outer.PlainInner(point: plainPoint, points: [plainPoint, plainPoint], small: 255)
        XCTAssertEqual(try assertSameBytes(generated, plain), generated)
    }

    func testFinalClass() throws {
        let generated = GeneratedNode(
            id: 1, name: "root", children: [GeneratedNode(id: 2, name: nil, children: [])])
        let plain = PlainNode(id: 1, name: "root", children: [PlainNode(id: 2, name: nil, children: [])])
        let decoded = try assertSameBytes(generated, plain)
        XCTAssertEqual(decoded.id, 1)
        XCTAssertEqual(decoded.name, "root")
        XCTAssertEqual(decoded.children.map(\.id), [2])
        XCTAssertNil(decoded.children.first?.name)
    }

    func testGeneratedMembers() {
        XCTAssertEqual(GeneratedPoint.binaryCodingKeys.map(\.stringValue), ["x", "y", "label", "tags"])
        XCTAssertEqual(GeneratedIntKeys.binaryCodingKeys.map(\.intValue), [2, 1, 5])
        XCTAssertEqual(
            GeneratedStringKeys.binaryCodingKeys.map(\.stringValue), ["first_name", "age", "score", "version"])
        XCTAssertEqual(GeneratedWrapped.binaryCodingKeys.map(\.stringValue), ["values", "delta", "id", "flag"])
    }
}
