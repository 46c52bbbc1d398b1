public import Foundation

/// Appends encoded elements to a file, framed as in a stream (see ``BinaryStreamEncoder``).
///
/// An existing file is never truncated: new elements go after the ones already there, so a file
/// can be written across several runs and read back with ``BinaryFileDecoder``.
public final class BinaryFileEncoder<Element: Encodable> {
    private let stream: BinaryStreamEncoder<Element>
    private var handle: FileHandle?
    /// The file being written.
    public let url: URL

    /// Opens (or creates) the file at `url` for appending.
    ///
    /// - Throws: a Foundation error if the file cannot be created or opened.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder()) throws {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        self.handle = handle
    }

    deinit { try? handle?.close() }

    /// Appends one element.
    ///
    /// - Throws: `EncodingError` if the element cannot be encoded (nothing is written then), or a
    ///   Foundation error if writing fails or the encoder was closed.
    public func write(_ element: Element) throws {
        try append(stream.encode(element))
    }

    /// Appends several elements with one write.
    public func write<S: Sequence>(contentsOf elements: S) throws where S.Element == Element {
        try append(stream.encode(contentsOf: elements))
    }

    private func append(_ data: Data) throws {
        guard let handle else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        try handle.write(contentsOf: data)
    }

    /// Flushes and closes the file. Further writes throw.
    public func close() throws {
        guard let handle else { return }
        self.handle = nil
        try handle.synchronize()
        try handle.close()
    }
}
