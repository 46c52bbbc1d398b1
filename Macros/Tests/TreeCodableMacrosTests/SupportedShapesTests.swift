import MacroTesting
import XCTest

/// Every shape `@TreeCodable` supports, expanded: the code must do what synthesized `Codable` does.
final class SupportedShapesTests: ExpansionTestCase {
    func testPlainStruct() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Double
                let name: String
            }
            """
        } expansion: {
            """
            struct Point: Codable {
                var x: Int
                var y: Double
                let name: String
            }

            extension Point: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.x,
                        CodingKeys.y,
                        CodingKeys.name,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.x, at: 0)
                    try fields.encode(self.y, at: 1)
                    try fields.encode(self.name, at: 2)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.x = try fields.decode(Int.self, at: 0)
                    self.y = try fields.decode(Double.self, at: 1)
                    self.name = try fields.decode(String.self, at: 2)
                }
            }
            """
        }
    }

    func testStaticComputedAndLazyPropertiesAreNotCoded() {
        assertMacro {
            """
            @TreeCodable
            struct Counter: Codable {
                static var shared = 0
                var count: Int
                var doubled: Int { count * 2 }
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                var clamped: Int {
                    get { count }
                    set { count = newValue }
                }
                lazy var cache: [Int] = []
            }
            """
        } expansion: {
            """
            struct Counter: Codable {
                static var shared = 0
                var count: Int
                var doubled: Int { count * 2 }
                var observed: Int = 0 {
                    didSet { print(observed) }
                }
                var clamped: Int {
                    get { count }
                    set { count = newValue }
                }
                lazy var cache: [Int] = []
            }

            extension Counter: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.count,
                        CodingKeys.observed,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.count, at: 0)
                    try fields.encode(self.observed, at: 1)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.count = try fields.decode(Int.self, at: 0)
                    self.observed = try fields.decode(Int.self, at: 1)
                }
            }
            """
        }
    }

    func testSeveralBindingsInOneDeclaration() {
        assertMacro {
            """
            @TreeCodable
            struct Box: Codable {
                var width, height: Int
                var depth: Int, label: String
            }
            """
        } expansion: {
            """
            struct Box: Codable {
                var width, height: Int
                var depth: Int, label: String
            }

            extension Box: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.width,
                        CodingKeys.height,
                        CodingKeys.depth,
                        CodingKeys.label,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.width, at: 0)
                    try fields.encode(self.height, at: 1)
                    try fields.encode(self.depth, at: 2)
                    try fields.encode(self.label, at: 3)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.width = try fields.decode(Int.self, at: 0)
                    self.height = try fields.decode(Int.self, at: 1)
                    self.depth = try fields.decode(Int.self, at: 2)
                    self.label = try fields.decode(String.self, at: 3)
                }
            }
            """
        }
    }

    func testOptionalsOfEachSpelling() {
        assertMacro {
            """
            @TreeCodable
            struct Optionals: Codable {
                var sugar: Int?
                var long: Optional<String>
                var qualified: Swift.Optional<[Int]>
                var unwrapped: Double!
                var existential: (any Codable & Sendable)?
                var nested: Int??
            }
            """
        } expansion: {
            """
            struct Optionals: Codable {
                var sugar: Int?
                var long: Optional<String>
                var qualified: Swift.Optional<[Int]>
                var unwrapped: Double!
                var existential: (any Codable & Sendable)?
                var nested: Int??
            }

            extension Optionals: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.sugar,
                        CodingKeys.long,
                        CodingKeys.qualified,
                        CodingKeys.unwrapped,
                        CodingKeys.existential,
                        CodingKeys.nested,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encodeIfPresent(self.sugar, at: 0)
                    try fields.encodeIfPresent(self.long, at: 1)
                    try fields.encodeIfPresent(self.qualified, at: 2)
                    try fields.encodeIfPresent(self.unwrapped, at: 3)
                    try fields.encodeIfPresent(self.existential, at: 4)
                    try fields.encodeIfPresent(self.nested, at: 5)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.sugar = try fields.decodeIfPresent(Int.self, at: 0)
                    self.long = try fields.decodeIfPresent(String.self, at: 1)
                    self.qualified = try fields.decodeIfPresent([Int].self, at: 2)
                    self.unwrapped = try fields.decodeIfPresent(Double.self, at: 3)
                    self.existential = try fields.decodeIfPresent((any Codable & Sendable).self, at: 4)
                    self.nested = try fields.decodeIfPresent(Int?.self, at: 5)
                }
            }
            """
        }
    }

    func testLetWithDefaultIsEncodedButNotDecoded() {
        assertMacro {
            """
            @TreeCodable
            struct Versioned: Codable {
                let version = 1
                let kind: String = "point"
                var value: Int
            }
            """
        } expansion: {
            """
            struct Versioned: Codable {
                let version = 1
                let kind: String = "point"
                var value: Int
            }

            extension Versioned: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.version,
                        CodingKeys.kind,
                        CodingKeys.value,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.version, at: 0)
                    try fields.encode(self.kind, at: 1)
                    try fields.encode(self.value, at: 2)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 2)
                }
            }
            """
        }
    }

    func testIntRawValueCodingKeys() {
        assertMacro {
            """
            @TreeCodable
            struct Message: Codable {
                var id: Int
                var text: String
                var retries: Int = 0
                enum CodingKeys: Int, CodingKey {
                    case text = 2, id = 1
                }
            }
            """
        } expansion: {
            """
            struct Message: Codable {
                var id: Int
                var text: String
                var retries: Int = 0
                enum CodingKeys: Int, CodingKey {
                    case text = 2, id = 1
                }
            }

            extension Message: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.text,
                        CodingKeys.id,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.text, at: 0)
                    try fields.encode(self.id, at: 1)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.text = try fields.decode(String.self, at: 0)
                    self.id = try fields.decode(Int.self, at: 1)
                }
            }
            """
        }
    }

    func testStringRawValueCodingKeys() {
        assertMacro {
            """
            @TreeCodable
            struct User: Codable {
                var firstName: String
                var lastName: String
                var age: Int
                enum CodingKeys: String, CodingKey {
                    case firstName = "first_name", lastName = "last_name"
                    case age
                }
            }
            """
        } expansion: {
            """
            struct User: Codable {
                var firstName: String
                var lastName: String
                var age: Int
                enum CodingKeys: String, CodingKey {
                    case firstName = "first_name", lastName = "last_name"
                    case age
                }
            }

            extension User: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.firstName,
                        CodingKeys.lastName,
                        CodingKeys.age,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.firstName, at: 0)
                    try fields.encode(self.lastName, at: 1)
                    try fields.encode(self.age, at: 2)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.firstName = try fields.decode(String.self, at: 0)
                    self.lastName = try fields.decode(String.self, at: 1)
                    self.age = try fields.decode(Int.self, at: 2)
                }
            }
            """
        }
    }

    func testCodingKeysWithoutRawValues() {
        assertMacro {
            """
            @TreeCodable
            struct Pair: Codable {
                var left: Int
                var right: Int
                enum CodingKeys: CodingKey {
                    case right
                    case left
                }
            }
            """
        } expansion: {
            """
            struct Pair: Codable {
                var left: Int
                var right: Int
                enum CodingKeys: CodingKey {
                    case right
                    case left
                }
            }

            extension Pair: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.right,
                        CodingKeys.left,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.right, at: 0)
                    try fields.encode(self.left, at: 1)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.right = try fields.decode(Int.self, at: 0)
                    self.left = try fields.decode(Int.self, at: 1)
                }
            }
            """
        }
    }

    func testExcludedPropertiesWithDefaults() {
        assertMacro {
            """
            @TreeCodable
            struct Cached: Codable {
                var value: Int
                var cache: [Int: Int] = [:]
                var note: String?
                enum CodingKeys: CodingKey {
                    case value
                }
            }
            """
        } expansion: {
            """
            struct Cached: Codable {
                var value: Int
                var cache: [Int: Int] = [:]
                var note: String?
                enum CodingKeys: CodingKey {
                    case value
                }
            }

            extension Cached: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }

    func testPropertyWrappers() {
        assertMacro {
            """
            @TreeCodable
            struct Wrapped: Codable {
                @Packed var values: [Int]
                @ZigZagEncoded @Other var delta: Int32
                @Explicit<Int> var count: Int
                @BinarySerialization.FixedSizeEncoded var id: UInt64
                @available(*, deprecated) var old: Int
            }
            """
        } expansion: {
            """
            struct Wrapped: Codable {
                @Packed var values: [Int]
                @ZigZagEncoded @Other var delta: Int32
                @Explicit<Int> var count: Int
                @BinarySerialization.FixedSizeEncoded var id: UInt64
                @available(*, deprecated) var old: Int
            }

            extension Wrapped: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.values,
                        CodingKeys.delta,
                        CodingKeys.count,
                        CodingKeys.id,
                        CodingKeys.old,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self._values, at: 0)
                    try fields.encode(self._delta, at: 1)
                    try fields.encode(self._count, at: 2)
                    try fields.encode(self._id, at: 3)
                    try fields.encode(self.old, at: 4)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self._values = try fields.decode(Packed<[Int]>.self, at: 0)
                    self._delta = try fields.decode(ZigZagEncoded<Other<Int32>>.self, at: 1)
                    self._count = try fields.decode(Explicit<Int>.self, at: 2)
                    self._id = try fields.decode(BinarySerialization.FixedSizeEncoded<UInt64>.self, at: 3)
                    self.old = try fields.decode(Int.self, at: 4)
                }
            }
            """
        }
    }

    func testGenericStruct() {
        assertMacro {
            """
            @TreeCodable
            struct Values<T: Codable, U>: Codable where U: Codable {
                var first: T
                var rest: [T]
                var other: U?
            }
            """
        } expansion: {
            """
            struct Values<T: Codable, U>: Codable where U: Codable {
                var first: T
                var rest: [T]
                var other: U?
            }

            extension Values: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.first,
                        CodingKeys.rest,
                        CodingKeys.other,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.first, at: 0)
                    try fields.encode(self.rest, at: 1)
                    try fields.encodeIfPresent(self.other, at: 2)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.first = try fields.decode(T.self, at: 0)
                    self.rest = try fields.decode([T].self, at: 1)
                    self.other = try fields.decodeIfPresent(U.self, at: 2)
                }
            }
            """
        }
    }

    /// `Codable` declared elsewhere, as `extension Box: Codable where T: Codable`: the generated
    /// conformance takes the same condition.
    func testGenericStructWithConditionalCodable() {
        assertMacro {
            """
            @TreeCodable
            struct Box<T, U> {
                var first: T
                var second: U
            }
            """
        } expansion: {
            """
            struct Box<T, U> {
                var first: T
                var second: U
            }

            extension Box: GeneratedBinaryCodable where T: Codable, U: Codable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.first,
                        CodingKeys.second,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.first, at: 0)
                    try fields.encode(self.second, at: 1)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.first = try fields.decode(T.self, at: 0)
                    self.second = try fields.decode(U.self, at: 1)
                }
            }
            """
        }
    }

    func testNestedType() {
        assertMacro {
            """
            enum Outer {
                @TreeCodable
                struct Inner: Codable {
                    var value: Int
                }
            }
            """
        } expansion: {
            """
            enum Outer {
                struct Inner: Codable {
                    var value: Int
                }
            }

            extension Outer.Inner: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }

    func testPublicStruct() {
        assertMacro {
            """
            @TreeCodable
            public struct Public: Codable {
                public var value: Int
            }
            """
        } expansion: {
            """
            public struct Public: Codable {
                public var value: Int
            }

            extension Public: GeneratedBinaryCodable {
                public static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                public func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                public init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }

    func testPackageStruct() {
        assertMacro {
            """
            @TreeCodable
            package struct Shared: Codable {
                package var value: Int
            }
            """
        } expansion: {
            """
            package struct Shared: Codable {
                package var value: Int
            }

            extension Shared: GeneratedBinaryCodable {
                package static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                package func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                package init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }

    func testFileprivateAndPrivateStructs() {
        assertMacro {
            """
            @TreeCodable
            fileprivate struct Hidden: Codable {
                var value: Int
            }
            @TreeCodable
            private struct Secret: Codable {
                var value: Int
            }
            """
        } expansion: {
            """
            fileprivate struct Hidden: Codable {
                var value: Int
            }
            private struct Secret: Codable {
                var value: Int
            }

            extension Hidden: GeneratedBinaryCodable {
                fileprivate static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                fileprivate func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                fileprivate init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }

            extension Secret: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.value,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.value, at: 0)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.value = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }

    func testFinalClass() {
        assertMacro {
            """
            @TreeCodable
            final class Node: Codable {
                let id: Int
                var children: [Node]
                var parent: Node?
                init(id: Int) {
                    self.id = id
                    self.children = []
                }
            }
            """
        } expansion: {
            """
            final class Node: Codable {
                let id: Int
                var children: [Node]
                var parent: Node?
                init(id: Int) {
                    self.id = id
                    self.children = []
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.id = try fields.decode(Int.self, at: 0)
                    self.children = try fields.decode([Node].self, at: 1)
                    self.parent = try fields.decodeIfPresent(Node.self, at: 2)
                }
            }

            extension Node: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.id,
                        CodingKeys.children,
                        CodingKeys.parent,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.id, at: 0)
                    try fields.encode(self.children, at: 1)
                    try fields.encodeIfPresent(self.parent, at: 2)
                }
            }
            """
        }
    }

    func testPublicFinalClass() {
        assertMacro {
            """
            @TreeCodable
            public final class Record: Codable {
                public var name: String
                public let version = 2
            }
            """
        } expansion: {
            """
            public final class Record: Codable {
                public var name: String
                public let version = 2

                public init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.name = try fields.decode(String.self, at: 0)
                }
            }

            extension Record: GeneratedBinaryCodable {
                public static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.name,
                        CodingKeys.version,
                    ]
                }

                public func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.name, at: 0)
                    try fields.encode(self.version, at: 1)
                }
            }
            """
        }
    }

    func testEmptyStruct() {
        assertMacro {
            """
            @TreeCodable
            struct Empty: Codable {
            }
            """
        } expansion: {
            """
            struct Empty: Codable {
            }

            extension Empty: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    []
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                }
            }
            """
        }
    }

    func testBacktickedNames() {
        assertMacro {
            """
            @TreeCodable
            struct Keywords: Codable {
                var `default`: Int
                var `class`: String
                enum CodingKeys: String, CodingKey {
                    case `default` = "d", `class`
                }
            }
            """
        } expansion: {
            """
            struct Keywords: Codable {
                var `default`: Int
                var `class`: String
                enum CodingKeys: String, CodingKey {
                    case `default` = "d", `class`
                }
            }

            extension Keywords: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.`default`,
                        CodingKeys.`class`,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.`default`, at: 0)
                    try fields.encode(self.`class`, at: 1)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.`default` = try fields.decode(Int.self, at: 0)
                    self.`class` = try fields.decode(String.self, at: 1)
                }
            }
            """
        }
    }

    /// The example of README.md, which shows this expansion.
    func testReadmeExample() {
        assertMacro {
            """
            @TreeCodable
            struct Reading: Codable {
                var sensor: String
                var celsius: Double
                var note: String?
                @Packed var samples: [Int16]
            }
            """
        } expansion: {
            """
            struct Reading: Codable {
                var sensor: String
                var celsius: Double
                var note: String?
                @Packed var samples: [Int16]
            }

            extension Reading: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.sensor,
                        CodingKeys.celsius,
                        CodingKeys.note,
                        CodingKeys.samples,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.sensor, at: 0)
                    try fields.encode(self.celsius, at: 1)
                    try fields.encodeIfPresent(self.note, at: 2)
                    try fields.encode(self._samples, at: 3)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.sensor = try fields.decode(String.self, at: 0)
                    self.celsius = try fields.decode(Double.self, at: 1)
                    self.note = try fields.decodeIfPresent(String.self, at: 2)
                    self._samples = try fields.decode(Packed<[Int16]>.self, at: 3)
                }
            }
            """
        }
    }
}
