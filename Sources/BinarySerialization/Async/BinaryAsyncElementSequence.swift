import Foundation

/// The elements of a framed stream (from ``BinaryStreamEncoder``), decoded as their bytes arrive
/// from an asynchronous sequence.
///
/// Create one with ``BinaryDecoder/elements(of:from:)-(_,DataChunks)``
/// (or its variants for `[UInt8]` chunks and single bytes) and iterate
/// it with `for try await`:
///
/// ```swift
/// for try await message in decoder.elements(of: Message.self, from: chunks) {
///     handle(message)
/// }
/// ```
///
/// It keeps the guarantees of ``BinaryStreamDecoder``:
/// - every complete element is produced, however the bytes are split into chunks, and as soon as
///   its last byte has arrived;
/// - if the input ends inside an element, iteration throws `DecodingError.dataCorrupted` whose
///   underlying error is an ``IncompleteElementError``, after the complete elements;
/// - consumed bytes are dropped, so memory stays bounded by the largest element (plus one chunk).
///
/// Cancellation is checked before each chunk is awaited and when the base sequence ends: a
/// cancelled iteration throws `CancellationError` instead of reporting the end of the input. A
/// base sequence that is waiting for its producer has to end its wait on cancellation itself, as
/// `AsyncStream` does.
///
/// After an error, iteration ends: the next call to `next()` returns `nil`.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
public struct BinaryAsyncElementSequence<Element: Decodable, Base: AsyncSequence>: AsyncSequence {
    private let base: Base
    private let decoder: BinaryDecoder
    private let feed: @Sendable (Base.Element) -> StreamChunk
    private let skipsTruncatedLastElement: Bool

    /// A sequence that decodes the bytes of `base`, whose elements `feed` says how to read.
    init(
        base: Base, decoder: BinaryDecoder, skipsTruncatedLastElement: Bool = false,
        feed: @escaping @Sendable (Base.Element) -> StreamChunk
    ) {
        self.base = base
        self.decoder = decoder
        self.skipsTruncatedLastElement = skipsTruncatedLastElement
        self.feed = feed
    }

    /// Starts a new pass over the base sequence.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(),
            feeder: StreamFeeder(stream: BinaryStreamDecoder(decoder: decoder)),
            feed: feed,
            skipsTruncatedLastElement: skipsTruncatedLastElement)
    }

    /// Decodes elements from the bytes of one pass over the base sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var feeder: StreamFeeder<Element>
        private let feed: @Sendable (Base.Element) -> StreamChunk
        private let skipsTruncatedLastElement: Bool
        private var isDone = false

        init(
            base: Base.AsyncIterator, feeder: StreamFeeder<Element>,
            feed: @escaping @Sendable (Base.Element) -> StreamChunk,
            skipsTruncatedLastElement: Bool
        ) {
            self.base = base
            self.feeder = feeder
            self.feed = feed
            self.skipsTruncatedLastElement = skipsTruncatedLastElement
        }

        /// The next complete element, or `nil` once the input has ended after a complete element.
        ///
        /// - Throws: `DecodingError` for bytes that are not a valid element, or
        ///   `DecodingError.dataCorrupted` with an ``IncompleteElementError`` if the input ends
        ///   inside an element; `CancellationError` if the task is cancelled; and any error the base
        ///   sequence throws.
        public mutating func next() async throws -> Element? {
            guard !isDone else { return nil }
            do {
                while true {
                    if let element = try feeder.stream.decodeElement() { return element }
                    try Task.checkCancellation()
                    guard let chunk = try await base.next() else {
                        // A cancelled producer often just ends its sequence: that is not the end of the input.
                        try Task.checkCancellation()
                        isDone = true
                        if !skipsTruncatedLastElement { try feeder.stream.finish() }
                        return nil
                    }
                    feeder.add(feed(chunk))
                }
            } catch {
                isDone = true
                throw error
            }
        }
    }
}

@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
extension BinaryAsyncElementSequence: Sendable where Base: Sendable {}

/// Hands the chunks of a base sequence to a stream decoder.
///
/// Works whether ``BinaryStreamDecoder`` is a value or a reference type: it is only ever used
/// through a `var`.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
struct StreamFeeder<Element: Decodable> {
    var stream: BinaryStreamDecoder<Element>
    /// A one-byte buffer reused for single bytes, so that adding a byte allocates nothing.
    private var single: [UInt8] = [0]

    init(stream: BinaryStreamDecoder<Element>) {
        self.stream = stream
    }

    mutating func add(_ chunk: StreamChunk) {
        switch chunk {
        case .byte(let byte):
            single[0] = byte
            stream.add(single)
        case .bytes(let bytes):
            stream.add(bytes)
        case .data(let data):
            stream.add(data)
        }
    }
}

/// One element of a base sequence, as bytes a stream decoder takes.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
enum StreamChunk {
    case byte(UInt8)
    case bytes([UInt8])
    case data(Data)
}
