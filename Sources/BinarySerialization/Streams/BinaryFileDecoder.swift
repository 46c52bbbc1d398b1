public import Foundation

/// Reads the elements of a file written by ``BinaryFileEncoder`` one by one, without loading the
/// whole file.
///
/// If the file ends inside an element (say, the writer crashed mid-write), reading reports it:
/// by default as an error after the complete elements, never as a value.
/// Set `skipsTruncatedLastElement` to recover the complete elements silently instead.
public final class BinaryFileDecoder<Element: Decodable> {
    private let stream: BinaryStreamDecoder<Element>
    private var handle: FileHandle?
    private var reachedEnd = false
    private var isClosed = false
    /// Read size for each chunk of the file.
    let chunkSize: Int
    /// The file being read.
    public let url: URL
    /// Ignore an incomplete element at the end of the file instead of throwing.
    public var skipsTruncatedLastElement: Bool

    /// Opens the file at `url` for reading.
    ///
    /// - Throws: a Foundation error if the file cannot be opened.
    public init(
        fileAt url: URL, decoder: BinaryDecoder = BinaryDecoder(), skipsTruncatedLastElement: Bool = false
    ) throws {
        self.url = url
        self.stream = BinaryStreamDecoder(decoder: decoder)
        self.skipsTruncatedLastElement = skipsTruncatedLastElement
        self.chunkSize = 64 << 10
        self.handle = try FileHandle(forReadingFrom: url)
    }

    deinit {
        if let handle { try? Self.close(handle) }
    }

    /// The next element, or `nil` at the end of the file.
    ///
    /// - Throws: `DecodingError` for corrupt data, or `DecodingError.dataCorrupted` with an
    ///   ``IncompleteElementError`` if the file ends inside an element (unless skipped);
    ///   ``RecordFileError`` with code ``RecordFileError/Code/closed`` after ``close()``.
    public func readElement() throws -> Element? {
        guard !isClosed else { throw RecordFileError.closed(url, "decoder") }
        while true {
            if let element = try stream.decodeElement() { return element }
            if reachedEnd {
                if stream.hasPartialElement && !skipsTruncatedLastElement { try stream.finish() }
                return nil
            }
            guard let handle else { return nil }
            let chunk = try Self.read(upTo: chunkSize, from: handle)
            if chunk.isEmpty {
                reachedEnd = true
                try? Self.close(handle)
                self.handle = nil
            } else {
                stream.add(chunk)
            }
        }
    }

    /// Calls `body` with each remaining element, in order.
    public func read(_ body: (Element) throws -> Void) throws {
        while let element = try readElement() { try body(element) }
    }

    /// All remaining elements.
    ///
    /// - Throws: the first error (see ``readElement()``); the elements before it are lost,
    ///   use ``readElementsUntilError()`` to keep them.
    public func readAll() throws -> [Element] {
        var out: [Element] = []
        try read { out.append($0) }
        return out
    }

    /// The remaining elements up to the first error, and that error (`nil` if the whole file
    /// was read): recovers what is readable from a damaged file.
    public func readElementsUntilError() -> (elements: [Element], error: (any Error)?) {
        var out: [Element] = []
        do {
            while let element = try readElement() { out.append(element) }
            return (out, nil)
        } catch {
            return (out, error)
        }
    }

    /// The remaining elements up to the first error, which is dropped (BinaryCodable's
    /// signature); ``readElementsUntilError()`` also returns the error.
    public func readAllUntilError() -> [Element] {
        readElementsUntilError().elements
    }

    /// The number of elements read so far.
    public var elementsRead: Int { stream.decodedCount }

    /// Closes the file; reading afterwards throws ``RecordFileError`` (code
    /// ``RecordFileError/Code/closed``). Closing twice does nothing.
    ///
    /// - Throws: a Foundation error if the file handle cannot be closed.
    public func close() throws {
        let handle = self.handle
        self.handle = nil
        reachedEnd = true
        isClosed = true
        stream.discardBytes(Int.max)
        if let handle { try Self.close(handle) }
    }

    /// The next bytes of the file, at most `count`; empty at the end. Systems older than macOS
    /// 10.15.4 (and siblings) lack the throwing read, and their `readData(ofLength:)` reports a
    /// read error as an Objective-C exception.
    private static func read(upTo count: Int, from handle: FileHandle) throws -> Data {
        if #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) {
            return try handle.read(upToCount: count) ?? Data()
        }
        return handle.readData(ofLength: count)
    }

    /// Closes `handle`, with the throwing call where the system has it.
    private static func close(_ handle: FileHandle) throws {
        if #available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *) {
            try handle.close()
        } else {
            handle.closeFile()
        }
    }
}
