import TreeCoding

/// Coding paths for errors of the serialization stage.
///
/// Writers walk a tree without keeping a path (that would cost on every node); an error thrown
/// below a field or element gets that field's key or element's index prepended as it passes
/// through, so the `EncodingError` names where in the value the problem is.
enum WriterPath {
    /// Runs `body`; an `EncodingError` it throws gets `key` prepended to its coding path. The key
    /// is only built on that path (an element's `"Index n"` string would otherwise cost more than
    /// writing a short element).
    @inline(__always)
    static func under<T>(_ key: @autoclosure () -> BinaryKey, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as EncodingError {
            throw prepending(key(), to: error)
        }
    }

    @inline(never)
    static func prepending(_ key: BinaryKey, to error: EncodingError) -> EncodingError {
        guard case .invalidValue(let value, let context) = error else { return error }
        return .invalidValue(
            value,
            .init(
                codingPath: [key] + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError))
    }
}
