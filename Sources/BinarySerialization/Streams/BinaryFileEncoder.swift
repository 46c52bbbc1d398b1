public import Foundation

/// Appends encoded elements to a file, framed as in a stream (see ``BinaryStreamEncoder``): a
/// record file that survives crashes and concurrent writers.
///
/// An existing file is never truncated below its last complete element: new elements go after the
/// ones already there, so a file can be written across several runs and by several writers at
/// once, and read back with ``BinaryFileDecoder``. What the file guarantees:
///
/// - **Recovery on open.** Opening finds where the last complete element ends and cuts a torn
///   element after it (what a crash or power loss during a write leaves; it was never
///   acknowledged), reporting the cut in ``repairs`` and to ``RecordFileOptions/onRepair``.
///   ``RecordFileOptions/repairsTornTail`` set to `false` throws instead. v3 files are checked
///   from their length prefixes alone; v2 elements are decoded to find their ends, so a v2
///   encoder whose element type is not also `Decodable` throws on a file that is not empty.
///   Opening reads the whole file once.
/// - **Appends never overwrite.** The file is opened in append mode; each `write` is one write
///   call (repeated only after a short write) made while holding the file's advisory lock
///   (`flock`), which every encoder of this library takes, in this process or another. Holding it,
///   a writer first checks what others appended since its last write and cuts a torn element a
///   crashed writer left. Writers in one process that share an encoder are serialized by a lock.
/// - **A failed write leaves nothing.** If a write fails (a full disk, an I/O error), the file is
///   cut back to where that write started, and the ``RecordFileError`` (code
///   ``RecordFileError/Code/writeFailed``) says so.
/// - **Durability.** When `write` returns, its elements are in the operating system's cache: they
///   survive the process crashing or being killed, not a power loss or a system crash. ``sync()``
///   (and ``close()``, and ``RecordFileOptions/syncPolicy``) put them on stable storage.
///
/// Thread safety: one encoder can be shared between threads; each `write` is atomic.
public final class BinaryFileEncoder<Element: Encodable>: @unchecked Sendable {
    // @unchecked: `stream` is an immutable value and `file` guards its own state with a lock.
    private let stream: BinaryStreamEncoder<Element>
    private let file: RecordFile
    /// The file being written.
    public let url: URL

    /// Opens (or creates) the file at `url` for appending, and recovers a torn last element.
    ///
    /// A v2 file that is not empty needs `Element` to be `Decodable` too, to find where its
    /// elements end: with an `Encodable`-only element type, this throws
    /// ``RecordFileError/Code/elementTypeNeeded`` for it.
    ///
    /// - Parameters:
    ///   - url: The file; created if it does not exist.
    ///   - encoder: The encoder (and so the format) for each element.
    ///   - options: Recovery, syncing and the repair callback.
    /// - Throws: ``RecordFileError`` if the file cannot be opened, read or repaired, ends inside
    ///   an element and `options` say not to repair it, or holds corrupt bytes before its end.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder(), options: RecordFileOptions = .init())
        throws
    {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        self.file = try RecordFile(url: url, framing: .encodable(encoder), options: options, owner: "encoder")
    }

    /// Opens (or creates) the file at `url` for appending, and recovers a torn last element; v2
    /// elements are framed by decoding them as `Element`.
    ///
    /// - Parameters:
    ///   - url: The file; created if it does not exist.
    ///   - encoder: The encoder (and so the format) for each element.
    ///   - options: Recovery, syncing and the repair callback.
    /// - Throws: ``RecordFileError`` if the file cannot be opened, read or repaired, ends inside
    ///   an element and `options` say not to repair it, or holds corrupt bytes before its end.
    public init(fileAt url: URL, encoder: BinaryEncoder = BinaryEncoder(), options: RecordFileOptions = .init())
        throws where Element: Decodable
    {
        self.url = url
        self.stream = BinaryStreamEncoder(encoder: encoder)
        self.file = try RecordFile(
            url: url, framing: .decodable(Element.self, encoder), options: options, owner: "encoder")
    }

    /// The torn elements this encoder cut off, when it opened the file and before later writes
    /// (another writer may crash part-way too), in order.
    public var repairs: [RecordFileRepair] { file.repairs }

    /// Appends one element.
    ///
    /// - Throws: `EncodingError` if the element cannot be encoded (nothing is written then), or
    ///   ``RecordFileError`` if writing fails (the file is cut back to where the write started)
    ///   or the encoder was closed.
    public func write(_ element: Element) throws {
        try file.append(stream.encode(element), elements: 1)
    }

    /// Appends several elements with one write: all of them or, if the write fails, none.
    ///
    /// - Throws: `EncodingError` if an element cannot be encoded (nothing is written then), or
    ///   ``RecordFileError`` if writing fails (the file is cut back to where the write started)
    ///   or the encoder was closed.
    public func write<S: Sequence>(contentsOf elements: S) throws where S.Element == Element {
        var count = 0
        var data = Data()
        for element in elements {
            data.append(try stream.encode(element))
            count += 1
        }
        try file.append(data, elements: count)
    }

    /// Puts every element written so far on stable storage (`fsync`; `F_FULLFSYNC` on Apple
    /// systems), and the new file's folder entry if this encoder created the file.
    ///
    /// - Throws: ``RecordFileError`` if syncing fails or the encoder was closed.
    public func sync() throws {
        try file.sync()
    }

    /// Syncs (see ``sync()``) and closes the file. Further writes throw; closing twice does
    /// nothing.
    ///
    /// - Throws: ``RecordFileError`` if syncing or closing fails.
    public func close() throws {
        try file.close()
    }

    /// Replaces the system calls behind the file (tests inject failing writes).
    package func useSystemCalls(_ calls: FileSystemCalls) {
        file.useCalls(calls)
    }
}
