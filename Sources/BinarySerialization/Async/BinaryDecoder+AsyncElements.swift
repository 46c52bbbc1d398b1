public import Foundation

@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
extension BinaryDecoder {
    /// The elements of a framed stream whose bytes arrive as chunks of `Data`.
    ///
    /// ```swift
    /// for try await message in decoder.elements(of: Message.self, from: chunks) {
    ///     handle(message)
    /// }
    /// ```
    /// The chunks may split elements anywhere. See ``BinaryAsyncElementSequence`` for errors,
    /// memory and cancellation.
    ///
    /// - Parameters:
    ///   - type: The type of each element, as written by ``BinaryStreamEncoder``.
    ///   - chunks: The bytes of the stream, in order.
    /// - Returns: A sequence that decodes each element as soon as its bytes have arrived.
    public func elements<Element: Decodable, DataChunks: AsyncSequence>(
        of type: Element.Type, from chunks: DataChunks
    ) -> BinaryAsyncElementSequence<Element, DataChunks> where DataChunks.Element == Data {
        BinaryAsyncElementSequence(base: chunks, decoder: self) { .data($0) }
    }

    /// The elements of a framed stream whose bytes arrive as chunks of `[UInt8]`.
    ///
    /// The chunks may split elements anywhere. See ``BinaryAsyncElementSequence`` for errors,
    /// memory and cancellation.
    ///
    /// - Parameters:
    ///   - type: The type of each element, as written by ``BinaryStreamEncoder``.
    ///   - chunks: The bytes of the stream, in order.
    /// - Returns: A sequence that decodes each element as soon as its bytes have arrived.
    public func elements<Element: Decodable, ByteChunks: AsyncSequence>(
        of type: Element.Type, from chunks: ByteChunks
    ) -> BinaryAsyncElementSequence<Element, ByteChunks> where ByteChunks.Element == [UInt8] {
        BinaryAsyncElementSequence(base: chunks, decoder: self) { .bytes($0) }
    }

    /// The elements of a framed stream whose bytes arrive one by one.
    ///
    /// Each element is produced as soon as its last byte has arrived, so this suits live
    /// connections. Every byte is a separate step, though: when the bytes come in blocks anyway,
    /// a sequence of chunks (`Data` or `[UInt8]`) is faster. See ``BinaryAsyncElementSequence``
    /// for errors, memory and cancellation.
    ///
    /// - Parameters:
    ///   - type: The type of each element, as written by ``BinaryStreamEncoder``.
    ///   - bytes: The bytes of the stream, in order.
    /// - Returns: A sequence that decodes each element as soon as its bytes have arrived.
    public func elements<Element: Decodable, Bytes: AsyncSequence>(
        of type: Element.Type, from bytes: Bytes
    ) -> BinaryAsyncElementSequence<Element, Bytes> where Bytes.Element == UInt8 {
        BinaryAsyncElementSequence(base: bytes, decoder: self) { .byte($0) }
    }
}
