import MacroTesting
import SwiftSyntaxMacroExpansion
import TreeCodableMacrosPlugin
import XCTest

/// Expansion tests run `@TreeCodable` as the compiler would, with the conformance it asks for.
class ExpansionTestCase: XCTestCase {
    override func invokeTest() {
        withMacroTesting(
            macros: ["TreeCodable": MacroSpec(type: TreeCodableMacro.self, conformances: ["GeneratedBinaryCodable"])]
        ) {
            super.invokeTest()
        }
    }
}
