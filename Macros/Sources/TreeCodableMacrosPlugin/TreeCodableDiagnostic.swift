import SwiftDiagnostics
import SwiftSyntax

/// Everything `@TreeCodable` refuses, each as one error message.
///
/// The type keeps its synthesized `Codable`, so most of these mirror what the compiler says about
/// synthesized coding; saying it here too points at the line and tells why the macro cannot follow.
enum TreeCodableDiagnostic: DiagnosticMessage {
    /// The macro is attached to something that is neither a struct nor a final class.
    case unsupportedDeclaration(kind: String)
    /// A `private` type nested in another: the extension, at file scope, could not see it.
    case privateNestedType(name: String)
    /// A class that is not `final`: a subclass could add fields the generated code never writes.
    case nonFinalClass(name: String)
    /// The type writes `init(from:)` or `encode(to:)` itself: the generated code would not follow it.
    case handWrittenCoding(member: String)
    /// The type already declares a member the macro generates.
    case generatedMemberExists(member: String)
    /// `CodingKeys` is declared as something other than an enum.
    case codingKeysNotEnum(kind: String)
    /// A `CodingKeys` case with associated values.
    case codingKeyWithAssociatedValues(name: String)
    /// Two `CodingKeys` cases with the same name.
    case duplicateCase(name: String)
    /// Two `CodingKeys` cases with the same raw value.
    case duplicateKey(name: String, key: String, firstName: String)
    /// A `CodingKeys` case that names no stored property.
    case keyWithoutProperty(name: String)
    /// A stored property with no `CodingKeys` case and no default value.
    case propertyWithoutKey(name: String)
    /// A coded property whose type is not written in its declaration.
    case missingType(name: String)
    /// `let (a, b): (Int, Int)` and other patterns that bind more than one name.
    case unsupportedPattern(pattern: String)
    /// Stored properties or `CodingKeys` inside `#if`: which of them exist depends on the build.
    case conditionalMembers

    var message: String {
        switch self {
        case .unsupportedDeclaration(let kind):
            return "@TreeCodable supports structs and final classes, not \(kind)"
                + (kind == "an enum" ? "; enums are a later step" : "")
        case .privateNestedType(let name):
            return "@TreeCodable extends '\(name)' at file scope, where a private nested type is not visible; "
                + "make it fileprivate"
        case .nonFinalClass(let name):
            return "@TreeCodable needs class '\(name)' to be final: a subclass could add fields "
                + "that the generated coding would not write"
        case .handWrittenCoding(let member):
            return "@TreeCodable mirrors synthesized Codable, but this type writes its own '\(member)'; "
                + "the generated coding would not match it"
        case .generatedMemberExists(let member):
            return "@TreeCodable generates '\(member)'; this type already declares it"
        case .codingKeysNotEnum(let kind):
            return "@TreeCodable reads the keys from the cases of a 'CodingKeys' enum, but 'CodingKeys' is "
                + kind
        case .codingKeyWithAssociatedValues(let name):
            return "CodingKeys case '\(name)' has associated values; a coding key is a plain case"
        case .duplicateCase(let name):
            return "CodingKeys declares case '\(name)' twice"
        case .duplicateKey(let name, let key, let firstName):
            return "CodingKeys case '\(name)' has the key \(key), already used by case '\(firstName)'"
        case .keyWithoutProperty(let name):
            return "CodingKeys case '\(name)' does not match any stored property"
        case .propertyWithoutKey(let name):
            return "stored property '\(name)' has no case in CodingKeys and no default value; "
                + "add a case for it or give it a default value"
        case .missingType(let name):
            return "write the type of '\(name)' in its declaration ('\(name): Type'): "
                + "@TreeCodable reads each coded property's type from its declaration"
        case .unsupportedPattern(let pattern):
            return "@TreeCodable cannot code the pattern '\(pattern)'; declare each property with its own name"
        case .conditionalMembers:
            return "@TreeCodable cannot follow stored properties or coding keys declared inside '#if'; "
                + "move them out of the conditional block"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .unsupportedDeclaration: id = "unsupportedDeclaration"
        case .privateNestedType: id = "privateNestedType"
        case .nonFinalClass: id = "nonFinalClass"
        case .handWrittenCoding: id = "handWrittenCoding"
        case .generatedMemberExists: id = "generatedMemberExists"
        case .codingKeysNotEnum: id = "codingKeysNotEnum"
        case .codingKeyWithAssociatedValues: id = "codingKeyWithAssociatedValues"
        case .duplicateCase: id = "duplicateCase"
        case .duplicateKey: id = "duplicateKey"
        case .keyWithoutProperty: id = "keyWithoutProperty"
        case .propertyWithoutKey: id = "propertyWithoutKey"
        case .missingType: id = "missingType"
        case .unsupportedPattern: id = "unsupportedPattern"
        case .conditionalMembers: id = "conditionalMembers"
        }
        return MessageID(domain: "TreeCodableMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

/// A note that points at an earlier declaration (the first use of a duplicated key).
struct TreeCodableNote: NoteMessage {
    let message: String
    var noteID: MessageID { MessageID(domain: "TreeCodableMacros", id: "note") }
}

/// The text of a fix-it.
struct TreeCodableFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "TreeCodableMacros", id: message) }
}

/// Why the macro generates nothing: the diagnostics to show.
struct Refusal: Error {
    let diagnostics: [Diagnostic]
    init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
