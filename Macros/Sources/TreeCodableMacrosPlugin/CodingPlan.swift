import SwiftDiagnostics
import SwiftSyntax

/// The keys in order and, for each, the property it codes: what synthesized `Codable` would do,
/// key for key.
struct CodingPlan {
    /// One coded property and its key's position in `binaryCodingKeys`.
    struct Field {
        let index: Int
        let key: CodingKeyCase
        let property: StoredProperty
    }

    var keys: [CodingKeyCase] = []
    var fields: [Field] = []
    var diagnostics: [Diagnostic] = []

    /// Matches keys to properties. With a declared `CodingKeys`, its cases in order; without one,
    /// every stored property in declaration order, as synthesized `Codable` makes them.
    static func make(from analysis: MemberAnalysis) -> CodingPlan {
        var plan = CodingPlan()
        plan.diagnostics = analysis.diagnostics
        if let codingKeys = analysis.codingKeys {
            let collection = CodingKeyCollection.read(codingKeys)
            plan.diagnostics += collection.diagnostics
            plan.keys = collection.keys
            var propertyByName: [String: StoredProperty] = [:]
            for property in analysis.properties where propertyByName[property.name] == nil {
                propertyByName[property.name] = property
            }
            var keyed: Set<String> = []
            for (index, key) in collection.keys.enumerated() {
                guard let property = propertyByName[key.name] else {
                    plan.diagnostics.append(
                        Diagnostic(node: key.node, message: TreeCodableDiagnostic.keyWithoutProperty(name: key.name)))
                    continue
                }
                keyed.insert(key.name)
                plan.fields.append(Field(index: index, key: key, property: property))
            }
            for property in analysis.properties where !keyed.contains(property.name) && !property.hasDefaultValue {
                plan.diagnostics.append(
                    Diagnostic(
                        node: property.node, message: TreeCodableDiagnostic.propertyWithoutKey(name: property.name)))
            }
        } else {
            for (index, property) in analysis.properties.enumerated() {
                let key = CodingKeyCase(name: property.name, spelling: property.spelling, node: property.node)
                plan.keys.append(key)
                plan.fields.append(Field(index: index, key: key, property: property))
            }
        }
        for field in plan.fields where !field.isTyped {
            plan.diagnostics.append(missingTypeDiagnostic(field.property))
        }
        return plan
    }
}

extension CodingPlan {
    /// No type annotation; a literal initial value tells the type, which a fix-it writes.
    fileprivate static func missingTypeDiagnostic(_ property: StoredProperty) -> Diagnostic {
        let message = TreeCodableDiagnostic.missingType(name: property.name)
        guard let type = property.literalType else {
            return Diagnostic(node: property.node, message: message)
        }
        let pattern = property.binding.pattern
        let annotation = TypeAnnotationSyntax(
            colon: .colonToken(trailingTrivia: .space),
            type: TypeSyntax(IdentifierTypeSyntax(name: .identifier(type, trailingTrivia: pattern.trailingTrivia))))
        let fixed = property.binding
            .with(\.pattern, pattern.with(\.trailingTrivia, []))
            .with(\.typeAnnotation, annotation)
        return Diagnostic(
            node: property.node,
            message: message,
            fixIt: FixIt(
                message: TreeCodableFixIt(message: "write ': \(type)'"),
                changes: [.replace(oldNode: Syntax(property.binding), newNode: Syntax(fixed))]))
    }
}

extension CodingPlan.Field {
    /// Whether the generated code can be written without the property's type: a decoded property
    /// needs it for `decode(T.self, ...)`; an encode-only `let` needs to be known not optional, which
    /// a literal initial value shows.
    var isTyped: Bool {
        if property.declaredType != nil { return true }
        guard !property.isDecoded, property.wrappers.isEmpty, let initializer = property.initializer else {
            return false
        }
        return initializer.is(IntegerLiteralExprSyntax.self) || initializer.is(FloatLiteralExprSyntax.self)
            || initializer.is(StringLiteralExprSyntax.self) || initializer.is(BooleanLiteralExprSyntax.self)
            || initializer.is(ArrayExprSyntax.self) || initializer.is(DictionaryExprSyntax.self)
    }
}
