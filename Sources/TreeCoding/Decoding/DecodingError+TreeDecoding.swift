/// The `DecodingError`s a decoder of trees throws itself (not converted from an error of the
/// tree rules), with their messages: one wording for every decoder of trees.
extension DecodingError {
    /// A keyed container has no value for `key`. `present`, when given, holds the container's
    /// keys: the message is then the first few of them (bytes of another type show as such), as
    /// `DecodingError` already names the missing key.
    package static func noValue(
        forKey key: some CodingKey, at path: [any CodingKey], present: [BinaryKey]? = nil
    ) -> DecodingError {
        guard let present else {
            return .keyNotFound(key, Context(codingPath: path, debugDescription: "no value for key \(BinaryKey(key))"))
        }
        let shown = 4
        var message = "the container is empty"
        if !present.isEmpty {
            message = "keys present: " + present.prefix(shown).map { "\($0)" }.joined(separator: ", ")
            if present.count > shown { message += ", ... (\(present.count) in all)" }
        }
        return .keyNotFound(key, Context(codingPath: path, debugDescription: message))
    }

    /// A keyed container has no value for the key of a `superDecoder()` or `superDecoder(forKey:)`.
    package static func noSuperValue(forKey key: BinaryKey, at path: [any CodingKey]) -> DecodingError {
        .keyNotFound(key, Context(codingPath: path, debugDescription: "No value for key \(key) at \(describe(path))."))
    }

    /// A single-value container holds nil where a `type` was asked for.
    package static func nilValue(_ type: Any.Type, at path: [any CodingKey]) -> DecodingError {
        .valueNotFound(
            type, Context(codingPath: path, debugDescription: "Expected \(type) but found nil at \(describe(path))."))
    }

    /// A value at `path` would nest deeper than `maximumDepth`; a byte decoder gives its error
    /// (with the offset) as `underlyingError`.
    package static func tooDeep(maximumDepth: Int, at path: [any CodingKey], underlyingError: (any Error)? = nil)
        -> DecodingError
    {
        .dataCorrupted(
            Context(
                codingPath: path,
                debugDescription: "the data is nested deeper than the maximum depth of \(maximumDepth)",
                underlyingError: underlyingError))
    }

    /// A dictionary's stored `key` (the last step of `path`) is not a key of type `keyType`.
    package static func notADictionaryKey(_ keyType: Any.Type, _ key: BinaryKey, at path: [any CodingKey])
        -> DecodingError
    {
        .typeMismatch(keyType, Context(codingPath: path, debugDescription: "Expected a \(keyType) key, found \(key)."))
    }

    /// A dictionary's stored `key` (the last step of `path`) is the Swift key of an earlier entry.
    package static func repeatedDictionaryKey(
        _ key: BinaryKey, at path: [any CodingKey], underlyingError: (any Error)? = nil
    ) -> DecodingError {
        .dataCorrupted(
            Context(
                codingPath: path,
                debugDescription: "The key \(key) is stored twice (as an integer and as a string key).",
                underlyingError: underlyingError))
    }
}
