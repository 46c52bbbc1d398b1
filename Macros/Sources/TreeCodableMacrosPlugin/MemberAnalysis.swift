import SwiftDiagnostics
import SwiftSyntax

/// What the type's body says about coding: its stored properties in declaration order, its
/// `CodingKeys` enum if it declares one, and what the macro refuses in it.
struct MemberAnalysis {
    var properties: [StoredProperty] = []
    var codingKeys: EnumDeclSyntax?
    var diagnostics: [Diagnostic] = []

    /// Reads the members of `declaration`; `attribute` is the macro's attribute, for fix-its that remove it.
    static func read(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) -> MemberAnalysis {
        var analysis = MemberAnalysis()
        for item in declaration.memberBlock.members {
            analysis.read(item.decl, attribute: attribute)
        }
        return analysis
    }

    private mutating func read(_ decl: DeclSyntax, attribute: AttributeSyntax) {
        if let variable = decl.as(VariableDeclSyntax.self) {
            readVariable(variable)
        } else if let enumDecl = decl.as(EnumDeclSyntax.self), enumDecl.name.text == "CodingKeys" {
            codingKeys = enumDecl
        } else if let kind = Self.nonEnumCodingKeys(decl) {
            diagnostics.append(
                Diagnostic(node: decl, message: TreeCodableDiagnostic.codingKeysNotEnum(kind: kind)))
        } else if let initializer = decl.as(InitializerDeclSyntax.self) {
            let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
            if labels == ["from"] {
                diagnoseHandWritten(Syntax(initializer), member: "init(from:)", attribute: attribute)
            } else if labels == ["binaryFields"] {
                diagnostics.append(
                    Diagnostic(
                        node: initializer,
                        message: TreeCodableDiagnostic.generatedMemberExists(member: "init(binaryFields:)")))
            }
        } else if let function = decl.as(FunctionDeclSyntax.self) {
            let labels = function.signature.parameterClause.parameters.map(\.firstName.text)
            if function.name.text == "encode", labels == ["to"] {
                diagnoseHandWritten(Syntax(function), member: "encode(to:)", attribute: attribute)
            } else if function.name.text == "encodeBinaryFields", labels == ["to"] {
                diagnostics.append(
                    Diagnostic(
                        node: function,
                        message: TreeCodableDiagnostic.generatedMemberExists(member: "encodeBinaryFields(to:)")))
            }
        } else if let conditional = decl.as(IfConfigDeclSyntax.self), Self.holdsCodingMembers(conditional) {
            diagnostics.append(Diagnostic(node: conditional, message: TreeCodableDiagnostic.conditionalMembers))
        }
    }

    private mutating func diagnoseHandWritten(_ node: Syntax, member: String, attribute: AttributeSyntax) {
        diagnostics.append(
            Diagnostic(
                node: node,
                message: TreeCodableDiagnostic.handWrittenCoding(member: member),
                fixIt: FixIt(
                    message: TreeCodableFixIt(message: "remove '@TreeCodable'"),
                    changes: [.replace(oldNode: Syntax(attribute), newNode: Syntax(AttributeListSyntax([])))])))
    }

    /// The kind of a `CodingKeys` declaration that is not an enum, or nil.
    private static func nonEnumCodingKeys(_ decl: DeclSyntax) -> String? {
        if let structDecl = decl.as(StructDeclSyntax.self), structDecl.name.text == "CodingKeys" {
            return "a struct"
        }
        if let classDecl = decl.as(ClassDeclSyntax.self), classDecl.name.text == "CodingKeys" {
            return "a class"
        }
        if let alias = decl.as(TypeAliasDeclSyntax.self), alias.name.text == "CodingKeys" {
            return "a typealias"
        }
        return nil
    }

    /// Whether a `#if` block declares stored instance properties or `CodingKeys`.
    private static func holdsCodingMembers(_ conditional: IfConfigDeclSyntax) -> Bool {
        for clause in conditional.clauses {
            guard case .decls(let members)? = clause.elements else { continue }
            for member in members {
                if let variable = member.decl.as(VariableDeclSyntax.self), !isStatic(variable) { return true }
                if let nested = member.decl.as(IfConfigDeclSyntax.self), holdsCodingMembers(nested) { return true }
                if member.decl.as(EnumDeclSyntax.self)?.name.text == "CodingKeys"
                    || nonEnumCodingKeys(member.decl) != nil
                {
                    return true
                }
            }
        }
        return false
    }

    private static func isStatic(_ variable: VariableDeclSyntax) -> Bool {
        variable.modifiers.contains {
            $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class)
        }
    }

    /// Adds the stored properties a declaration binds. Static, `lazy` and computed properties are not
    /// stored instance properties to synthesized `Codable` (a `lazy var` is kept in hidden storage).
    private mutating func readVariable(_ variable: VariableDeclSyntax) {
        if Self.isStatic(variable) { return }
        if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.lazy) }) { return }
        let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
        let wrappers = variable.attributes.compactMap { element -> AttributeSyntax? in
            guard case .attribute(let attribute) = element, Self.isPropertyWrapper(attribute) else { return nil }
            return attribute
        }
        let bindings = Array(variable.bindings)
        for (index, binding) in bindings.enumerated() {
            if let accessors = binding.accessorBlock, !Self.isObserversOnly(accessors) { continue }
            guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
                if binding.pattern.is(WildcardPatternSyntax.self) { continue }
                diagnostics.append(
                    Diagnostic(
                        node: binding.pattern,
                        message: TreeCodableDiagnostic.unsupportedPattern(
                            pattern: binding.pattern.trimmedDescription)))
                continue
            }
            let spelling = identifier.identifier.text
            properties.append(
                StoredProperty(
                    name: spelling.trimmingBackticks,
                    spelling: spelling,
                    node: Syntax(identifier),
                    binding: binding,
                    declaredType: Self.declaredType(of: index, in: bindings),
                    wrappers: wrappers,
                    isLet: isLet,
                    initializer: binding.initializer?.value))
        }
    }

    /// The type written for a binding: its own annotation, or in `var a, b: Int` the next one's.
    /// A binding with an initial value and no annotation has its type inferred: none is written.
    private static func declaredType(of index: Int, in bindings: [PatternBindingSyntax]) -> TypeSyntax? {
        if let annotation = bindings[index].typeAnnotation { return annotation.type }
        if bindings[index].initializer != nil { return nil }
        for later in bindings[(index + 1)...] {
            if let annotation = later.typeAnnotation { return annotation.type }
            if later.initializer != nil { return nil }
        }
        return nil
    }

    /// A property with only `willSet`/`didSet` is still stored; `get`, `set`, `init` or a bare body
    /// makes it computed.
    private static func isObserversOnly(_ block: AccessorBlockSyntax) -> Bool {
        guard case .accessors(let accessors) = block.accessors else { return false }
        return accessors.allSatisfy {
            $0.accessorSpecifier.tokenKind == .keyword(.willSet) || $0.accessorSpecifier.tokenKind == .keyword(.didSet)
        }
    }

    /// Attributes that look like property wrappers (a capitalized name) but are not.
    private static let knownNonWrappers: Set<String> = [
        "MainActor", "IBOutlet", "IBInspectable", "GKInspectable", "NSCopying", "NSManaged",
    ]

    /// Whether an attribute on a stored property is a property wrapper. Built-in attributes
    /// (`@available`, `@objc`, `@usableFromInline`, ...) are spelled in lower case; global actors
    /// other than `@MainActor` cannot be told apart from wrappers by their syntax.
    private static func isPropertyWrapper(_ attribute: AttributeSyntax) -> Bool {
        let name: String
        if let identifier = attribute.attributeName.as(IdentifierTypeSyntax.self) {
            name = identifier.name.text
        } else if let member = attribute.attributeName.as(MemberTypeSyntax.self) {
            name = member.name.text
        } else {
            return false
        }
        guard let first = name.first, first.isUppercase else { return false }
        return !knownNonWrappers.contains(name)
    }
}

extension String {
    /// `` `default` `` → `default`.
    var trimmingBackticks: String {
        guard hasPrefix("`"), hasSuffix("`"), count >= 2 else { return self }
        return String(dropFirst().dropLast())
    }
}
