/// Why a tree node cannot answer a decoder's request (a keyed container asked of a string, a
/// value asked of nil). The tree rules throw it without a path; each decoder adds the coding path
/// and throws the `DecodingError` of its kind.
@usableFromInline package struct TreeRuleViolation: Error, Sendable {
    @usableFromInline package enum Kind: Sendable {
        /// The node holds another kind of value.
        case typeMismatch
        /// The node holds nil, or a container has no element left.
        case valueNotFound
    }

    package let kind: Kind
    /// What was asked and what was found, as the error's debug description.
    package let message: String

    @usableFromInline package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
