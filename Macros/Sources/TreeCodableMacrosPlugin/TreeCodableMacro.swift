import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@TreeCodable`: a conformance to `GeneratedBinaryCodable` that codes each field as synthesized
/// `Codable` does, key for key and in the same order, with static dispatch.
///
/// The extension role writes the conformance (and for a struct every member, so the memberwise
/// initializer stays); the member role writes a final class's initializer, which must be in the
/// class body. Diagnostics come from the extension role only, so each is said once.
public struct TreeCodableMacro: ExtensionMacro, MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let generation: CodeGeneration
        do {
            try checkVisibility(declaration, extending: type)
            generation = try analyze(declaration, attribute: node)
        } catch {
            error.diagnostics.forEach(context.diagnose)
            return []
        }
        var members = [generation.codingKeysDecl, generation.encodeDecl]
        if case .structure = generation.shape.kind {
            members.append(generation.initDecl)
        }
        // The compiler names only the protocols the type does not conform to yet.
        let conformance = protocols.isEmpty ? "" : ": " + protocols.map(\.trimmedDescription).joined(separator: ", ")
        let body = members.map(\.description).joined(separator: "\n\n")
        let extensionDecl = DeclSyntax(
            "extension \(raw: type.trimmedDescription)\(raw: conformance)\(raw: generation.shape.whereClause) {\n\(raw: body)\n}"
        )
        guard let result = extensionDecl.as(ExtensionDeclSyntax.self) else {
            throw GenerationFailure(text: extensionDecl.description)
        }
        return [result]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let generation = try? analyze(declaration, attribute: node), case .finalClass = generation.shape.kind
        else {
            return []
        }
        return [generation.initDecl]
    }

    /// The extension is written at file scope: a `private` type nested in another is not visible there.
    private static func checkVisibility(
        _ declaration: some DeclGroupSyntax, extending type: some TypeSyntaxProtocol
    ) throws(Refusal) {
        guard type.is(MemberTypeSyntax.self),
            let modifier = declaration.modifiers.first(where: { $0.name.tokenKind == .keyword(.private) })
        else {
            return
        }
        let fixed = modifier.with(\.name, modifier.name.with(\.tokenKind, .keyword(.fileprivate)))
        throw Refusal([
            Diagnostic(
                node: modifier,
                message: TreeCodableDiagnostic.privateNestedType(name: type.trimmedDescription),
                fixIt: FixIt(
                    message: TreeCodableFixIt(message: "make it fileprivate"),
                    changes: [.replace(oldNode: Syntax(modifier), newNode: Syntax(fixed))]))
        ])
    }

    /// The code to generate, or every reason the type cannot have it.
    private static func analyze(
        _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax
    ) throws(Refusal) -> CodeGeneration {
        let shape = try TypeShape.read(declaration, attribute: attribute)
        let plan = CodingPlan.make(from: MemberAnalysis.read(declaration, attribute: attribute))
        guard plan.diagnostics.isEmpty else { throw Refusal(plan.diagnostics) }
        return CodeGeneration(plan: plan, shape: shape)
    }
}

/// Generated text that did not parse as an extension: a bug of the macro, reported as an error of the
/// expansion (the compiler shows the description) rather than a crash.
struct GenerationFailure: Error, CustomStringConvertible {
    let text: String

    var description: String {
        "@TreeCodable generated code that does not parse; please report it with this text:\n\(text)"
    }
}
