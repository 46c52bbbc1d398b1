import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin's entry point: the macros this module provides.
@main
struct TreeCodableMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [TreeCodableMacro.self]
}
