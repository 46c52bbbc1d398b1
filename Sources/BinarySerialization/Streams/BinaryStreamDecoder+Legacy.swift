public import Foundation

extension BinaryStreamDecoder {
    /// Adds `data` and decodes every complete element buffered (BinaryCodable 2.x's call).
    ///
    /// - Parameters:
    ///   - data: The next bytes of the stream.
    ///   - returnElementsBeforeError: Whether an invalid element ends decoding with the elements
    ///     before it returned (`true`) or the error thrown (`false`, the default).
    /// - Returns: The elements decoded; an incomplete last element waits for more bytes.
    /// - Throws: `DecodingError` at the first invalid element, unless `returnElementsBeforeError`.
    @available(*, deprecated, message: "Use add(_:) and decodeElements() or decodeElementsUntilError()")
    public func decode(_ data: Data, returnElementsBeforeError: Bool = false) throws -> [Element] {
        add(data)
        guard returnElementsBeforeError else { return try decodeElements() }
        return decodeElementsUntilError().elements
    }
}
