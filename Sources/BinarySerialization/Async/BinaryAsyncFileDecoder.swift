public import Foundation

/// Reads the elements of a file written by ``BinaryFileEncoder`` or ``BinaryAsyncFileEncoder``
/// with `for try await`, without loading the whole file and without blocking the caller.
///
/// ```swift
/// for try await message in BinaryAsyncFileDecoder<Message>(fileAt: url) {
///     handle(message)
/// }
/// ```
/// The file is read in chunks of ``chunkSize`` bytes on a private dispatch queue, one chunk at a
/// time as the elements are consumed; the framing is that of ``BinaryStreamDecoder``. Each
/// iteration opens the file anew, so the sequence can be iterated more than once; the file is
/// opened by the first `next()`, which throws if it cannot be opened.
///
/// If the file ends inside an element (say, the writer crashed mid-write), iteration throws
/// `DecodingError.dataCorrupted` with an ``IncompleteElementError`` after the complete elements,
/// unless ``skipsTruncatedLastElement`` is set. Cancellation is checked between chunks.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
public struct BinaryAsyncFileDecoder<Element: Decodable>: AsyncSequence, Sendable {
    /// The file to read.
    public let url: URL
    /// The decoder (and so the format and limits) used for each element.
    public var decoder: BinaryDecoder
    /// Ignore an incomplete element at the end of the file instead of throwing.
    public var skipsTruncatedLastElement: Bool
    /// How many bytes each read asks for (64 KiB by default; values below 1 count as 1).
    public var chunkSize: Int = 64 << 10

    /// A sequence of the elements in the file at `url`.
    ///
    /// Nothing is opened yet: errors opening the file are thrown by the first `next()`.
    public init(
        fileAt url: URL, decoder: BinaryDecoder = BinaryDecoder(), skipsTruncatedLastElement: Bool = false
    ) {
        self.url = url
        self.decoder = decoder
        self.skipsTruncatedLastElement = skipsTruncatedLastElement
    }

    /// Opens a new pass over the file (lazily, on the first `next()`).
    public func makeAsyncIterator() -> AsyncIterator {
        let chunks = FileChunkSequence(url: url, chunkSize: chunkSize)
        let elements = BinaryAsyncElementSequence<Element, FileChunkSequence>(
            base: chunks, decoder: decoder, skipsTruncatedLastElement: skipsTruncatedLastElement
        ) { .data($0) }
        return AsyncIterator(elements: elements.makeAsyncIterator())
    }

    /// Decodes the elements of one pass over the file.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var elements: BinaryAsyncElementSequence<Element, FileChunkSequence>.AsyncIterator

        init(elements: BinaryAsyncElementSequence<Element, FileChunkSequence>.AsyncIterator) {
            self.elements = elements
        }

        /// The next element, or `nil` at the end of the file.
        ///
        /// - Throws: a Foundation error if the file cannot be opened or read; `DecodingError` for
        ///   corrupt data, or `DecodingError.dataCorrupted` with an ``IncompleteElementError`` if
        ///   the file ends inside an element (unless skipped); `CancellationError` if the task is
        ///   cancelled.
        public mutating func next() async throws -> Element? {
            try await elements.next()
        }
    }
}
