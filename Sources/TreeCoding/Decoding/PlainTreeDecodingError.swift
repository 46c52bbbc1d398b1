/// The one place where an error of the tree rules (``BinaryValue/treeKeyedView()``,
/// ``BinaryValue/treeScalar(_:)``...) becomes the `DecodingError` the plain tree decoder throws:
/// its kind picks the case, its message is the debug description, and `path` (the coding path of
/// the node the rule was asked about) and `type` (what was asked for) are added. Any other error
/// (a `DecodingError` of a nested value, or one an `init(from:)` threw) passes through.
func plainTreeDecodingError(_ error: any Error, _ type: Any.Type, _ path: @autoclosure () -> [any CodingKey])
    -> any Error
{
    guard let rule = error as? TreeRuleViolation else { return error }
    let context = DecodingError.Context(codingPath: path(), debugDescription: rule.message)
    switch rule.kind {
    case .typeMismatch: return DecodingError.typeMismatch(type, context)
    case .valueNotFound: return DecodingError.valueNotFound(type, context)
    }
}
