import SwiftDiagnostics
import SwiftSyntax

/// One coding key: a case of the type's `CodingKeys` enum (declared, or the one synthesized
/// `Codable` makes: a case per stored property).
struct CodingKeyCase {
    /// The case name without backticks, matched against property names.
    let name: String
    /// The case name as written, for `CodingKeys.name`.
    let spelling: String
    /// Where a diagnostic about this key points.
    let node: Syntax
}

/// Reads the keys of a declared `CodingKeys` enum, in declaration order, with the duplicates the
/// generated code could not tell apart.
struct CodingKeyCollection {
    var keys: [CodingKeyCase] = []
    var diagnostics: [Diagnostic] = []

    /// The raw type of the enum, as far as duplicates are concerned.
    private enum RawType {
        /// No raw type: a key is its case name.
        case none
        /// `String`: a key is its raw value, the case name when none is written.
        case string
        /// `Int`: a key's integer is its raw value, one more than the previous case's when none is written.
        case int
    }

    static func read(_ codingKeys: EnumDeclSyntax) -> CodingKeyCollection {
        var collection = CodingKeyCollection()
        let rawType = Self.rawType(of: codingKeys)
        var firstCaseForName: [String: EnumCaseElementSyntax] = [:]
        var firstCaseForKey: [String: EnumCaseElementSyntax] = [:]
        // The previous case's integer raw value; nil before the first case.
        var previousInt: Int? = nil
        var intChainBroken = false
        for member in codingKeys.memberBlock.members {
            if let conditional = member.decl.as(IfConfigDeclSyntax.self), Self.holdsCases(conditional) {
                // Which keys exist would depend on the build.
                collection.diagnostics.append(
                    Diagnostic(node: conditional, message: TreeCodableDiagnostic.conditionalMembers))
                continue
            }
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let spelling = element.name.text
                let name = spelling.trimmingBackticks
                if let first = firstCaseForName[name] {
                    collection.diagnostics.append(
                        Diagnostic(
                            node: element,
                            message: TreeCodableDiagnostic.duplicateCase(name: name),
                            notes: [Self.firstUseNote(first)]))
                    continue
                }
                firstCaseForName[name] = element
                // Such a case is reported, but still keys its property: no second error follows from it.
                collection.keys.append(CodingKeyCase(name: name, spelling: spelling, node: Syntax(element)))
                if element.parameterClause != nil {
                    collection.diagnostics.append(
                        Diagnostic(
                            node: element, message: TreeCodableDiagnostic.codingKeyWithAssociatedValues(name: name)))
                    continue
                }
                // The key that must be unique besides the name, for raw-valued enums.
                var key: String? = nil
                switch rawType {
                case .none:
                    break
                case .string:
                    if let rawValue = element.rawValue?.value {
                        key = Self.stringLiteral(rawValue).map { "\"\($0)\"" }
                    } else {
                        key = "\"\(name)\""
                    }
                case .int:
                    if let rawValue = element.rawValue?.value {
                        previousInt = Self.integerLiteral(rawValue)
                        intChainBroken = previousInt == nil
                    } else if !intChainBroken {
                        previousInt = previousInt.map { $0 &+ 1 } ?? 0
                    }
                    if !intChainBroken, let value = previousInt { key = String(value) }
                }
                guard let key else { continue }
                if let first = firstCaseForKey[key] {
                    collection.diagnostics.append(
                        Diagnostic(
                            node: element,
                            message: TreeCodableDiagnostic.duplicateKey(
                                name: name, key: key, firstName: first.name.text.trimmingBackticks),
                            notes: [Self.firstUseNote(first)]))
                } else {
                    firstCaseForKey[key] = element
                }
            }
        }
        return collection
    }

    private static func holdsCases(_ conditional: IfConfigDeclSyntax) -> Bool {
        conditional.clauses.contains { clause in
            guard case .decls(let members)? = clause.elements else { return false }
            return members.contains {
                $0.decl.is(EnumCaseDeclSyntax.self)
                    || ($0.decl.as(IfConfigDeclSyntax.self).map(holdsCases) ?? false)
            }
        }
    }

    private static func firstUseNote(_ first: EnumCaseElementSyntax) -> Note {
        Note(node: Syntax(first), message: TreeCodableNote(message: "case '\(first.name.text)' is declared here"))
    }

    private static func rawType(of codingKeys: EnumDeclSyntax) -> RawType {
        guard let first = codingKeys.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription else {
            return .none
        }
        switch first {
        case "String", "Swift.String": return .string
        case "Int", "Swift.Int": return .int
        default: return .none
        }
    }

    /// The text of a string literal without interpolation, or nil.
    private static func stringLiteral(_ expr: ExprSyntax) -> String? {
        guard let literal = expr.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }

    /// The value of an integer literal (decimal, `0x`, `0o`, `0b`, underscores, a leading `-`), or nil.
    private static func integerLiteral(_ expr: ExprSyntax) -> Int? {
        var negative = false
        var literalExpr = expr
        if let prefix = expr.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            negative = true
            literalExpr = prefix.expression
        }
        guard let literal = literalExpr.as(IntegerLiteralExprSyntax.self) else { return nil }
        var digits = String(literal.literal.text.filter { $0 != "_" })
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where digits.hasPrefix(prefix) {
            digits = String(digits.dropFirst(2))
            radix = base
        }
        guard let magnitude = Int(digits, radix: radix) else { return nil }
        return negative ? -magnitude : magnitude
    }
}
