/// The `EncodingError`s the encoders throw themselves, with their messages: one wording for the
/// tree encoder and for the errors the streaming encoder leaves to it.
extension EncodingError {
    /// `value`, at `path`, would open a level (``DepthGuard``) past `maximumDepth`.
    package static func tooDeep(_ value: Any, maximumDepth: Int, at path: [any CodingKey]) -> EncodingError {
        .invalidValue(
            value,
            Context(
                codingPath: path,
                debugDescription: "The value is nested deeper than the maximum depth of \(maximumDepth)."))
    }
}
