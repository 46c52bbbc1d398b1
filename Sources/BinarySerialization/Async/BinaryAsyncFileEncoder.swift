public import Foundation

/// Appends encoded elements to a file from async code, framed as in a stream (see
/// ``BinaryStreamEncoder``), without blocking the caller's thread on the file.
///
/// ```swift
/// let writer = try await BinaryAsyncFileEncoder<Message>(fileAt: url)
/// try await writer.write(message)
/// try await writer.write(contentsOf: incomingMessages)    // any AsyncSequence of messages
/// try await writer.close()
/// ```
/// Elements are encoded by the calling task; the bytes are written on a private serial queue.
/// Like ``BinaryFileEncoder`` it never truncates: new elements go after those already in the
/// file. Each call writes whole elements with one write, so concurrent calls from several tasks
/// never interleave the bytes of two elements (their order is the order the calls reach the
/// queue). Read the file back with ``BinaryAsyncFileDecoder`` or ``BinaryFileDecoder``.
public final class BinaryAsyncFileEncoder<Element: Encodable>: Sendable {
    private let stream: BinaryStreamEncoder<Element>
    private let file: FileAppender
    /// The file being written.
    public let url: URL
    /// How many encoded bytes ``write(contentsOf:)-(AsyncElements)`` gathers before
    /// each write.
    public let batchSize = 64 << 10

    /// The encoder (and so the format and options) used for each element.
    public var encoder: BinaryEncoder { stream.encoder }

    /// Opens (or creates) the file at `url` for appending.
    ///
    /// - Throws: a Foundation error if the file cannot be created or opened.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder()) async throws {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        self.file = try await FileAppender.open(url)
    }

    /// Appends one element.
    ///
    /// - Throws: `EncodingError` if the element cannot be encoded (nothing is written then), or a
    ///   Foundation error if writing fails or the encoder was closed.
    public func write(_ element: Element) async throws {
        try await file.append(stream.encode(element))
    }

    /// Appends several elements with one write.
    ///
    /// - Throws: `EncodingError` if an element cannot be encoded (nothing is written then), or a
    ///   Foundation error if writing fails or the encoder was closed.
    public func write<S: Sequence>(contentsOf elements: S) async throws where S.Element == Element {
        try await file.append(stream.encode(contentsOf: elements))
    }

    /// Appends the elements of an asynchronous sequence as they arrive, in writes of about
    /// ``batchSize`` bytes.
    ///
    /// Elements already gathered are written before the sequence's next element is awaited only
    /// once a batch is full, and at the end. If the sequence throws, an element cannot be encoded
    /// or the task is cancelled, the elements gathered so far are written first, then the error
    /// is thrown; so the file always ends after a whole element.
    ///
    /// - Throws: the sequence's error, `EncodingError`, `CancellationError`, or a Foundation error
    ///   if writing fails or the encoder was closed.
    public func write<AsyncElements: AsyncSequence>(contentsOf elements: AsyncElements) async throws
    where AsyncElements.Element == Element {
        var pending = Data()
        do {
            for try await element in elements {
                try Task.checkCancellation()
                pending.append(try stream.encode(element))
                if pending.count >= batchSize {
                    let batch = pending
                    pending = Data()
                    try await file.append(batch)
                }
            }
        } catch {
            if !pending.isEmpty { try await file.append(pending) }
            throw error
        }
        if !pending.isEmpty { try await file.append(pending) }
    }

    /// Flushes and closes the file. Further writes throw; closing again does nothing.
    ///
    /// - Throws: a Foundation error if flushing or closing fails.
    public func close() async throws {
        try await file.close()
    }
}
