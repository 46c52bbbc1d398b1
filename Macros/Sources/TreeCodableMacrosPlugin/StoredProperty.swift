import SwiftSyntax

/// A stored instance property as synthesized `Codable` sees it: its name, the type that is coded and
/// whether it is encoded with `encodeIfPresent` and decoded at all.
struct StoredProperty {
    /// The name without backticks, matched against `CodingKeys` cases.
    let name: String
    /// The name as written (with backticks if it had them), for generated code.
    let spelling: String
    /// Where a diagnostic about this property points.
    let node: Syntax
    /// The binding that declares it (`x: Int = 0` in `var x: Int = 0`), for fix-its.
    let binding: PatternBindingSyntax
    /// The declared type, shared among `var a, b: Int`; nil when only an initializer gives it.
    let declaredType: TypeSyntax?
    /// The property-wrapper attributes, outermost first.
    let wrappers: [AttributeSyntax]
    let isLet: Bool
    let initializer: ExprSyntax?

    /// A wrapped property `@W var x: T` is coded as its backing storage `_x`.
    var storageSpelling: String {
        wrappers.isEmpty ? spelling : "_" + name
    }

    /// Whether synthesized `Decodable` accepts the property without a `CodingKeys` case: it has an
    /// initial value, is a `var` of sugared optional type (implicitly `nil`), or is wrapped (the
    /// wrapper may initialize its storage; the compiler checks that itself).
    var hasDefaultValue: Bool {
        if initializer != nil || !wrappers.isEmpty { return true }
        guard !isLet, let declaredType else { return false }
        return declaredType.is(OptionalTypeSyntax.self)
            || declaredType.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
    }

    /// A `let` with an initial value is encoded but never decoded: it cannot be assigned again.
    var isDecoded: Bool {
        !(isLet && initializer != nil)
    }

    /// The type of what is coded: the declared type, or the wrappers around it (`W<T>`, `A<B<T>>`).
    var codedType: TypeSyntax? {
        guard let declaredType else { return nil }
        var text = declaredType.trimmedDescription
        for wrapper in wrappers.reversed() {
            let name = wrapper.attributeName.trimmedDescription
            // `@W<X> var x` names its generic arguments itself.
            if let identifier = wrapper.attributeName.as(IdentifierTypeSyntax.self),
                identifier.genericArgumentClause != nil
            {
                text = name
            } else if let member = wrapper.attributeName.as(MemberTypeSyntax.self),
                member.genericArgumentClause != nil
            {
                text = name
            } else {
                text = "\(name)<\(text)>"
            }
        }
        return TypeSyntax(stringLiteral: text)
    }

    /// The type a literal initial value gives a property without a type annotation (`Int` for `0`),
    /// for the fix-it that writes it; nil for any other initial value.
    var literalType: String? {
        guard declaredType == nil, let initializer else { return nil }
        if initializer.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if initializer.is(FloatLiteralExprSyntax.self) { return "Double" }
        if initializer.is(StringLiteralExprSyntax.self) { return "String" }
        if initializer.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        return nil
    }

    /// For an optional property (`T?`, `T!`, `Optional<T>`, `Swift.Optional<T>`), the wrapped type
    /// `T`: it is encoded with `encodeIfPresent` and decoded with `decodeIfPresent(T.self, ...)`.
    /// Nil for a wrapped property, whose storage is not optional.
    var optionalWrappedType: TypeSyntax? {
        guard wrappers.isEmpty, let declaredType else { return nil }
        return Self.wrappedTypeIfOptional(declaredType)
    }

    static func wrappedTypeIfOptional(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let iuo = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return iuo.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
            let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first
        {
            return argumentType(argument)
        }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional",
            member.baseType.trimmedDescription == "Swift",
            let arguments = member.genericArgumentClause?.arguments, arguments.count == 1,
            let argument = arguments.first
        {
            return argumentType(argument)
        }
        if let tuple = type.as(TupleTypeSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first,
            only.firstName == nil
        {
            // `(T?)` is `T?`.
            return wrappedTypeIfOptional(only.type)
        }
        return nil
    }

    private static func argumentType(_ argument: GenericArgumentSyntax) -> TypeSyntax? {
        switch argument.argument {
        case .type(let type): return type
        default: return nil
        }
    }
}

extension TypeSyntax {
    /// `T.self` for a decode call; a type that `.self` would bind to only in part (`any P`,
    /// `A & B`, a function type) is put in parentheses.
    var metatypeExpression: String {
        let text = trimmedDescription
        if self.is(SomeOrAnyTypeSyntax.self) || self.is(CompositionTypeSyntax.self)
            || self.is(FunctionTypeSyntax.self) || self.is(AttributedTypeSyntax.self)
        {
            return "(\(text)).self"
        }
        return "\(text).self"
    }
}
