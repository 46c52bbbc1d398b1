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
/// The file keeps the guarantees of ``BinaryFileEncoder``, with the same code: a torn last
/// element is recovered on open (and reported in ``repairs``), each call writes whole elements
/// with one write in append mode under the file's advisory lock, so no writer in this process or
/// another overwrites or interleaves with it, and a failed write is cut back to where it started.
/// When a call returns, its elements are in the operating system's cache; ``sync()`` and
/// ``close()`` put them on stable storage. Concurrent calls from several tasks are written in the
/// order they reach the queue. Read the file back with ``BinaryAsyncFileDecoder`` or
/// ``BinaryFileDecoder``.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
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

    /// Opens (or creates) the file at `url` for appending, and recovers a torn last element (see
    /// ``BinaryFileEncoder``).
    ///
    /// A v2 file that is not empty needs `Element` to be `Decodable` too, to find where its
    /// elements end: with an `Encodable`-only element type, this throws
    /// ``RecordFileError/Code/elementTypeNeeded`` for it.
    ///
    /// - Throws: ``RecordFileError`` if the file cannot be opened, read or repaired, ends inside
    ///   an element and `options` say not to repair it, or holds corrupt bytes before its end.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder(), options: RecordFileOptions = .init())
        async throws
    {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        self.file = try await FileAppender.open(url, framing: .encodable(encoder), options: options)
    }

    /// Opens (or creates) the file at `url` for appending, and recovers a torn last element; v2
    /// elements are framed by decoding them as `Element`.
    ///
    /// - Throws: ``RecordFileError`` if the file cannot be opened, read or repaired, ends inside
    ///   an element and `options` say not to repair it, or holds corrupt bytes before its end.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder(), options: RecordFileOptions = .init())
        async throws where Element: Decodable
    {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        self.file = try await FileAppender.open(url, framing: .decodable(Element.self, encoder), options: options)
    }

    /// The torn elements this encoder cut off, when it opened the file and before later writes,
    /// in order.
    public var repairs: [RecordFileRepair] { file.file.repairs }

    /// Appends one element.
    ///
    /// - Throws: `EncodingError` if the element cannot be encoded (nothing is written then), or
    ///   ``RecordFileError`` if writing fails (the file is cut back to where the write started)
    ///   or the encoder was closed.
    public func write(_ element: Element) async throws {
        try await file.append(stream.encode(element), elements: 1)
    }

    /// Appends several elements with one write: all of them or, if the write fails, none.
    ///
    /// - Throws: `EncodingError` if an element cannot be encoded (nothing is written then), or
    ///   ``RecordFileError`` if writing fails (the file is cut back to where the write started)
    ///   or the encoder was closed.
    public func write<S: Sequence>(contentsOf elements: S) async throws where S.Element == Element {
        var count = 0
        var data = Data()
        for element in elements {
            data.append(try stream.encode(element))
            count += 1
        }
        try await file.append(data, elements: count)
    }

    /// Appends the elements of an asynchronous sequence as they arrive, in writes of about
    /// ``batchSize`` bytes.
    ///
    /// Elements already gathered are written before the sequence's next element is awaited only
    /// once a batch is full, and at the end. If the sequence throws, an element cannot be encoded
    /// or the task is cancelled, the elements gathered so far are written first, then the error
    /// is thrown; so the file always ends after a whole element.
    ///
    /// - Throws: the sequence's error, `EncodingError`, `CancellationError`, or
    ///   ``RecordFileError`` if writing fails or the encoder was closed.
    public func write<AsyncElements: AsyncSequence>(contentsOf elements: AsyncElements) async throws
    where AsyncElements.Element == Element {
        var pending = Data()
        var pendingCount = 0
        do {
            for try await element in elements {
                try Task.checkCancellation()
                pending.append(try stream.encode(element))
                pendingCount += 1
                if pending.count >= batchSize {
                    let batch = pending
                    let batchCount = pendingCount
                    pending = Data()
                    pendingCount = 0
                    try await file.append(batch, elements: batchCount)
                }
            }
        } catch {
            if !pending.isEmpty { try await file.append(pending, elements: pendingCount) }
            throw error
        }
        if !pending.isEmpty { try await file.append(pending, elements: pendingCount) }
    }

    /// Puts every element written so far on stable storage (see ``BinaryFileEncoder/sync()``).
    ///
    /// - Throws: ``RecordFileError`` if syncing fails or the encoder was closed.
    public func sync() async throws {
        try await file.sync()
    }

    /// Syncs (see ``sync()``) and closes the file. Further writes throw; closing again does
    /// nothing.
    ///
    /// - Throws: ``RecordFileError`` if syncing or closing fails.
    public func close() async throws {
        try await file.close()
    }
}
