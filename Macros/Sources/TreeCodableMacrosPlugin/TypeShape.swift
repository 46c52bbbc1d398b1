import SwiftDiagnostics
import SwiftSyntax

/// What kind of type the macro is attached to, and the access level its generated members take.
struct TypeShape {
    enum Kind {
        /// A struct: every generated member goes in the extension, so the memberwise initializer stays.
        case structure
        /// A final class: the initializer is a member of the class body (a designated initializer
        /// cannot live in an extension); the rest goes in the extension.
        case finalClass
    }

    let kind: Kind
    /// The modifier written before each generated member: `public `, `package `, `fileprivate ` or
    /// nothing (internal, and private, whose members default to the type's own access).
    let accessPrefix: String
    /// ` where T: Codable, U: Codable` for a generic type that does not declare `Codable` itself
    /// (its conformance is then in an extension, most often `where T: Codable`); empty otherwise.
    let whereClause: String

    /// Reads the declaration's kind and access level, or says why the macro cannot be attached to it.
    static func read(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) throws(Refusal) -> TypeShape {
        let kind: Kind
        if declaration.is(StructDeclSyntax.self) {
            kind = .structure
        } else if let classDecl = declaration.as(ClassDeclSyntax.self) {
            guard classDecl.modifiers.contains(where: { $0.name.tokenKind == .keyword(.final) }) else {
                throw Refusal([nonFinalDiagnostic(classDecl)])
            }
            kind = .finalClass
        } else {
            throw Refusal([
                Diagnostic(
                    node: Syntax(attribute),
                    message: TreeCodableDiagnostic.unsupportedDeclaration(kind: describe(declaration)))
            ])
        }
        return TypeShape(
            kind: kind, accessPrefix: accessPrefix(of: declaration.modifiers),
            whereClause: whereClause(of: declaration))
    }

    private static func nonFinalDiagnostic(_ classDecl: ClassDeclSyntax) -> Diagnostic {
        // The fix-it adds `final`; `open final` is a contradiction, so `open` becomes `public`.
        var fixed = classDecl
        if classDecl.modifiers.isEmpty {
            let finalModifier = DeclModifierSyntax(
                name: .keyword(.final, leadingTrivia: classDecl.classKeyword.leadingTrivia, trailingTrivia: .space))
            fixed.modifiers = DeclModifierListSyntax([finalModifier])
            fixed.classKeyword = classDecl.classKeyword.with(\.leadingTrivia, [])
        } else {
            var modifiers = classDecl.modifiers.map { modifier in
                guard modifier.name.tokenKind == .keyword(.open) else { return modifier }
                return modifier.with(\.name, modifier.name.with(\.tokenKind, .keyword(.public)))
            }
            modifiers.append(DeclModifierSyntax(name: .keyword(.final, trailingTrivia: .space)))
            fixed.modifiers = DeclModifierListSyntax(modifiers)
        }
        return Diagnostic(
            node: Syntax(classDecl.classKeyword),
            message: TreeCodableDiagnostic.nonFinalClass(name: classDecl.name.text),
            fixIt: FixIt(
                message: TreeCodableFixIt(message: "make the class final"),
                changes: [.replace(oldNode: Syntax(classDecl), newNode: Syntax(fixed))]))
    }

    private static func describe(_ declaration: some DeclGroupSyntax) -> String {
        if declaration.is(EnumDeclSyntax.self) { return "an enum" }
        if declaration.is(ActorDeclSyntax.self) { return "an actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "a protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "an extension" }
        return "this declaration"
    }

    private static func whereClause(of declaration: some DeclGroupSyntax) -> String {
        let parameters: GenericParameterListSyntax
        if let structDecl = declaration.as(StructDeclSyntax.self), let clause = structDecl.genericParameterClause {
            parameters = clause.parameters
        } else if let classDecl = declaration.as(ClassDeclSyntax.self), let clause = classDecl.genericParameterClause {
            parameters = clause.parameters
        } else {
            return ""
        }
        let inherited = declaration.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
        let codingProtocols: Set<String> = [
            "Codable", "Swift.Codable", "Decodable", "Swift.Decodable", "Encodable", "Swift.Encodable",
        ]
        if inherited.contains(where: codingProtocols.contains) { return "" }
        // Type parameters only: a value parameter (`let n: Int`) has no conformance, and a pack
        // (`each T`) would need `repeat`; the user writes such a conformance's clause.
        let names = parameters.filter { $0.specifier == nil }.map(\.name.text)
        guard !names.isEmpty, names.count == parameters.count else { return "" }
        return " where " + names.map { "\($0): Codable" }.joined(separator: ", ")
    }

    private static func accessPrefix(of modifiers: DeclModifierListSyntax) -> String {
        for modifier in modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.open), .keyword(.public): return "public "
            case .keyword(.package): return "package "
            case .keyword(.fileprivate): return "fileprivate "
            case .keyword(.internal), .keyword(.private): return ""
            default: continue
            }
        }
        return ""
    }
}
