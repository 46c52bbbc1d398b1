import MacroTesting
import TreeCodableMacrosPlugin
import XCTest

/// Everything `@TreeCodable` refuses: an error at the line that causes it, and no generated code.
final class DiagnosticsTests: ExpansionTestCase {
    func testHandWrittenInitFrom() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                init(from decoder: any Decoder) throws {
                    x = 0
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                init(from decoder: any Decoder) throws {
                ╰─ 🛑 @TreeCodable mirrors synthesized Codable, but this type writes its own 'init(from:)'; the generated coding would not match it
                   ✏️ remove '@TreeCodable'
                    x = 0
                }
            }
            """
        } fixes: {
            """
            struct Point: Codable {
                var x: Int
                init(from decoder: any Decoder) throws {
                    x = 0
                }
            }
            """
        } expansion: {
            """
            struct Point: Codable {
                var x: Int
                init(from decoder: any Decoder) throws {
                    x = 0
                }
            }
            """
        }
    }

    func testHandWrittenEncodeTo() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                func encode(to encoder: any Encoder) throws {}
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                func encode(to encoder: any Encoder) throws {}
                ┬─────────────────────────────────────────────
                ╰─ 🛑 @TreeCodable mirrors synthesized Codable, but this type writes its own 'encode(to:)'; the generated coding would not match it
                   ✏️ remove '@TreeCodable'
            }
            """
        } fixes: {
            """
            struct Point: Codable {
                var x: Int
                func encode(to encoder: any Encoder) throws {}
            }
            """
        } expansion: {
            """
            struct Point: Codable {
                var x: Int
                func encode(to encoder: any Encoder) throws {}
            }
            """
        }
    }

    func testGeneratedMembersWrittenByHand() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                init(binaryFields fields: inout BinaryFieldReader) throws { x = 0 }
                func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {}
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                init(binaryFields fields: inout BinaryFieldReader) throws { x = 0 }
                ┬──────────────────────────────────────────────────────────────────
                ╰─ 🛑 @TreeCodable generates 'init(binaryFields:)'; this type already declares it
                func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {}
                ┬────────────────────────────────────────────────────────────────────
                ╰─ 🛑 @TreeCodable generates 'encodeBinaryFields(to:)'; this type already declares it
            }
            """
        }
    }

    func testCodingKeysStruct() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                struct CodingKeys: CodingKey {
                    var stringValue: String
                    var intValue: Int?
                    init?(stringValue: String) { self.stringValue = stringValue }
                    init?(intValue: Int) { return nil }
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                struct CodingKeys: CodingKey {
                ╰─ 🛑 @TreeCodable reads the keys from the cases of a 'CodingKeys' enum, but 'CodingKeys' is a struct
                    var stringValue: String
                    var intValue: Int?
                    init?(stringValue: String) { self.stringValue = stringValue }
                    init?(intValue: Int) { return nil }
                }
            }
            """
        }
    }

    func testCodingKeysTypealias() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                typealias CodingKeys = OtherKeys
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                typealias CodingKeys = OtherKeys
                ┬───────────────────────────────
                ╰─ 🛑 @TreeCodable reads the keys from the cases of a 'CodingKeys' enum, but 'CodingKeys' is a typealias
            }
            """
        }
    }

    func testDuplicateCaseSpelling() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                enum CodingKeys: CodingKey {
                    case x
                    case x
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                enum CodingKeys: CodingKey {
                    case x
                    case x
                         ┬
                         ╰─ 🛑 CodingKeys declares case 'x' twice
                }
            }
            """
        }
    }

    func testDuplicateStringRawValues() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: String, CodingKey {
                    case x = "a", y = "a"
                    case z = "x"
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: String, CodingKey {
                    case x = "a", y = "a"
                                  ┬──────
                                  ╰─ 🛑 CodingKeys case 'y' has the key "a", already used by case 'x'
                    case z = "x"
                }
            }
            """
        }
    }

    func testDuplicateImplicitStringRawValue() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                enum CodingKeys: String, CodingKey {
                    case x
                    case y = "x"
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                enum CodingKeys: String, CodingKey {
                    case x
                    case y = "x"
                         ┬──────
                         ╰─ 🛑 CodingKeys case 'y' has the key "x", already used by case 'x'
                }
            }
            """
        }
    }

    func testDuplicateIntRawValues() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: Int, CodingKey {
                    case x = 1, y = 0x01
                    case z
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: Int, CodingKey {
                    case x = 1, y = 0x01
                                ┬───────
                                ╰─ 🛑 CodingKeys case 'y' has the key 1, already used by case 'x'
                    case z
                }
            }
            """
        }
    }

    func testDuplicateImplicitIntRawValue() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: Int, CodingKey {
                    case x = -1
                    case y
                    case z = 0
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                var z: Int
                enum CodingKeys: Int, CodingKey {
                    case x = -1
                    case y
                    case z = 0
                         ┬────
                         ╰─ 🛑 CodingKeys case 'z' has the key 0, already used by case 'y'
                }
            }
            """
        }
    }

    func testCodingKeyWithoutProperty() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var doubled: Int { x * 2 }
                lazy var cached: Int = 0
                enum CodingKeys: CodingKey {
                    case x, doubled, cached, missing
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var doubled: Int { x * 2 }
                lazy var cached: Int = 0
                enum CodingKeys: CodingKey {
                    case x, doubled, cached, missing
                                             ┬──────
                            │        │       ╰─ 🛑 CodingKeys case 'missing' does not match any stored property
                                     ┬──────
                            │        ╰─ 🛑 CodingKeys case 'cached' does not match any stored property
                            ┬───────
                            ╰─ 🛑 CodingKeys case 'doubled' does not match any stored property
                }
            }
            """
        }
    }

    func testPropertyWithoutKeyOrDefault() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                let z: Int?
                var w: Optional<Int>
                var fine: Int?
                var alsoFine = 0
                enum CodingKeys: CodingKey {
                    case x
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var y: Int
                    ┬
                    ╰─ 🛑 stored property 'y' has no case in CodingKeys and no default value; add a case for it or give it a default value
                let z: Int?
                    ┬
                    ╰─ 🛑 stored property 'z' has no case in CodingKeys and no default value; add a case for it or give it a default value
                var w: Optional<Int>
                    ┬
                    ╰─ 🛑 stored property 'w' has no case in CodingKeys and no default value; add a case for it or give it a default value
                var fine: Int?
                var alsoFine = 0
                enum CodingKeys: CodingKey {
                    case x
                }
            }
            """
        }
    }

    func testCodingKeyWithAssociatedValues() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                enum CodingKeys: CodingKey {
                    case x(Int)
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                enum CodingKeys: CodingKey {
                    case x(Int)
                         ┬─────
                         ╰─ 🛑 CodingKeys case 'x' has associated values; a coding key is a plain case
                }
            }
            """
        }
    }

    func testMissingTypeAnnotation() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x = 0
                var y = Int(3)
                let z = makeDefault()
                var name = "a", ratio = 0.5
                let fine = 1
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x = 0
                    ┬
                    ╰─ 🛑 write the type of 'x' in its declaration ('x: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': Int'
                var y = Int(3)
                    ┬
                    ╰─ 🛑 write the type of 'y' in its declaration ('y: Type'): @TreeCodable reads each coded property's type from its declaration
                let z = makeDefault()
                    ┬
                    ╰─ 🛑 write the type of 'z' in its declaration ('z: Type'): @TreeCodable reads each coded property's type from its declaration
                var name = "a", ratio = 0.5
                                ┬────
                    │           ╰─ 🛑 write the type of 'ratio' in its declaration ('ratio: Type'): @TreeCodable reads each coded property's type from its declaration
                    │              ✏️ write ': Double'
                    ┬───
                    ╰─ 🛑 write the type of 'name' in its declaration ('name: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': String'
                let fine = 1
            }
            """
        }
    }

    /// A literal initial value tells the type: the fix-it writes it.
    func testMissingTypeOfLiteralIsFixed() {
        assertMacro {
            """
            @TreeCodable
            struct Settings: Codable {
                var retries = 3
                var name = "a", ratio = 0.5
                var verbose = false
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Settings: Codable {
                var retries = 3
                    ┬──────
                    ╰─ 🛑 write the type of 'retries' in its declaration ('retries: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': Int'
                var name = "a", ratio = 0.5
                                ┬────
                    │           ╰─ 🛑 write the type of 'ratio' in its declaration ('ratio: Type'): @TreeCodable reads each coded property's type from its declaration
                    │              ✏️ write ': Double'
                    ┬───
                    ╰─ 🛑 write the type of 'name' in its declaration ('name: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': String'
                var verbose = false
                    ┬──────
                    ╰─ 🛑 write the type of 'verbose' in its declaration ('verbose: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': Bool'
            }
            """
        } fixes: {
            """
            @TreeCodable
            struct Settings: Codable {
                var retries: Int = 3
                var name: String = "a", ratio: Double = 0.5
                var verbose: Bool = false
            }
            """
        } expansion: {
            """
            struct Settings: Codable {
                var retries: Int = 3
                var name: String = "a", ratio: Double = 0.5
                var verbose: Bool = false
            }

            extension Settings: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.retries,
                        CodingKeys.name,
                        CodingKeys.ratio,
                        CodingKeys.verbose,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.retries, at: 0)
                    try fields.encode(self.name, at: 1)
                    try fields.encode(self.ratio, at: 2)
                    try fields.encode(self.verbose, at: 3)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.retries = try fields.decode(Int.self, at: 0)
                    self.name = try fields.decode(String.self, at: 1)
                    self.ratio = try fields.decode(Double.self, at: 2)
                    self.verbose = try fields.decode(Bool.self, at: 3)
                }
            }
            """
        }
    }

    func testTuplePattern() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                let (x, y): (Int, Int)
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                let (x, y): (Int, Int)
                    ┬─────
                    ╰─ 🛑 @TreeCodable cannot code the pattern '(x, y)'; declare each property with its own name
            }
            """
        }
    }

    func testConditionalStoredProperties() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                #if DEBUG
                var trace: String
                #endif
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                #if DEBUG
                ╰─ 🛑 @TreeCodable cannot follow stored properties or coding keys declared inside '#if'; move them out of the conditional block
                var trace: String
                #endif
            }
            """
        }
    }

    func testConditionalCodingKeys() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var trace: String = ""
                enum CodingKeys: CodingKey {
                    case x
                    #if DEBUG
                    case trace
                    #endif
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x: Int
                var trace: String = ""
                enum CodingKeys: CodingKey {
                    case x
                    #if DEBUG
                    ╰─ 🛑 @TreeCodable cannot follow stored properties or coding keys declared inside '#if'; move them out of the conditional block
                    case trace
                    #endif
                }
            }
            """
        }
    }

    func testEnum() {
        assertMacro {
            """
            @TreeCodable
            enum Direction: Codable {
                case up, down
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            ┬───────────
            ╰─ 🛑 @TreeCodable supports structs and final classes, not an enum; enums are a later step
            enum Direction: Codable {
                case up, down
            }
            """
        }
    }

    func testActor() {
        assertMacro {
            """
            @TreeCodable
            actor Counter {
                var count: Int = 0
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            ┬───────────
            ╰─ 🛑 @TreeCodable supports structs and final classes, not an actor
            actor Counter {
                var count: Int = 0
            }
            """
        }
    }

    func testProtocol() {
        assertMacro {
            """
            @TreeCodable
            protocol Shape: Codable {}
            """
        } diagnostics: {
            """
            @TreeCodable
            ┬───────────
            ╰─ 🛑 @TreeCodable supports structs and final classes, not a protocol
            protocol Shape: Codable {}
            """
        }
    }

    func testNonFinalClass() {
        assertMacro {
            """
            @TreeCodable
            class Node: Codable {
                var id: Int
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            class Node: Codable {
            ┬────
            ╰─ 🛑 @TreeCodable needs class 'Node' to be final: a subclass could add fields that the generated coding would not write
               ✏️ make the class final
                var id: Int
            }
            """
        } fixes: {
            """
            @TreeCodable
            final class Node: Codable {
                var id: Int
            }
            """
        } expansion: {
            """
            final class Node: Codable {
                var id: Int

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.id = try fields.decode(Int.self, at: 0)
                }
            }

            extension Node: GeneratedBinaryCodable {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.id,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.id, at: 0)
                }
            }
            """
        }
    }

    func testOpenClass() {
        assertMacro {
            """
            @TreeCodable
            open class Node: Codable {
                public var id: Int
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            open class Node: Codable {
                 ┬────
                 ╰─ 🛑 @TreeCodable needs class 'Node' to be final: a subclass could add fields that the generated coding would not write
                    ✏️ make the class final
                public var id: Int
            }
            """
        } fixes: {
            """
            @TreeCodable
            public final class Node: Codable {
                public var id: Int
            }
            """
        } expansion: {
            """
            public final class Node: Codable {
                public var id: Int

                public init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.id = try fields.decode(Int.self, at: 0)
                }
            }

            extension Node: GeneratedBinaryCodable {
                public static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.id,
                    ]
                }

                public func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.id, at: 0)
                }
            }
            """
        }
    }

    func testSeveralProblemsAtOnce() {
        assertMacro {
            """
            @TreeCodable
            struct Point: Codable {
                var x = 0
                var y: Int
                enum CodingKeys: String, CodingKey {
                    case x, z
                }
            }
            """
        } diagnostics: {
            """
            @TreeCodable
            struct Point: Codable {
                var x = 0
                    ┬
                    ╰─ 🛑 write the type of 'x' in its declaration ('x: Type'): @TreeCodable reads each coded property's type from its declaration
                       ✏️ write ': Int'
                var y: Int
                    ┬
                    ╰─ 🛑 stored property 'y' has no case in CodingKeys and no default value; add a case for it or give it a default value
                enum CodingKeys: String, CodingKey {
                    case x, z
                            ┬
                            ╰─ 🛑 CodingKeys case 'z' does not match any stored property
                }
            }
            """
        }
    }

    func testPrivateNestedType() {
        assertMacro {
            """
            enum Outer {
                @TreeCodable
                private struct Inner: Codable {
                    var value: Int
                }
            }
            """
        } diagnostics: {
            """
            enum Outer {
                @TreeCodable
                private struct Inner: Codable {
                ┬──────
                ╰─ 🛑 @TreeCodable extends 'Outer.Inner' at file scope, where a private nested type is not visible; make it fileprivate
                   ✏️ make it fileprivate
                    var value: Int
                }
            }
            """
        } fixes: {
            """
            enum Outer {
                @TreeCodable
                fileprivate struct Inner: Codable {
                    var value: Int
                }
            }
            """
        } expansion: {
            """
            enum Outer {
                fileprivate struct Inner: Codable {
                    var value: Int
                }
            }

            extension Outer.Inner: GeneratedBinaryCodable {
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
            """
        }
    }

    /// The type already conforms (written by hand): the compiler asks for no conformance, and the
    /// extension only adds the members.
    func testTypeThatAlreadyConforms() {
        assertMacro(["TreeCodable": TreeCodableMacro.self]) {
            """
            @TreeCodable
            struct Point: GeneratedBinaryCodable {
                var x: Int
            }
            """
        } expansion: {
            """
            struct Point: GeneratedBinaryCodable {
                var x: Int
            }

            extension Point {
                static var binaryCodingKeys: [any CodingKey] {
                    [
                        CodingKeys.x,
                    ]
                }

                func encodeBinaryFields(to fields: inout BinarySerialization.BinaryFieldWriter) throws {
                    try fields.encode(self.x, at: 0)
                }

                init(binaryFields fields: inout BinarySerialization.BinaryFieldReader) throws {
                    self.x = try fields.decode(Int.self, at: 0)
                }
            }
            """
        }
    }
}
