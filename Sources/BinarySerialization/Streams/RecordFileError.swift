public import Foundation

/// An error of a record file: a file written by ``BinaryFileEncoder`` or
/// ``BinaryAsyncFileEncoder``, or read by ``BinaryFileDecoder``.
///
/// Every error names the file, and where it is about a place in the file, the byte offset.
/// Switch over ``code`` to tell the cases apart; the ``description`` says what happened and what
/// to do.
public struct RecordFileError: Error, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `"closed"`.
        public let name: String
        /// A code with the given name; the library's codes are the static members below.
        public init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The encoder or decoder was used after `close()`.
        public static let closed = Code("closed")
        /// The file could not be opened or created.
        public static let openFailed = Code("openFailed")
        /// Reading the file (to recover it, or to check what other writers appended) failed.
        public static let readFailed = Code("readFailed")
        /// A write failed (say, the disk is full). The file was cut back to where the write
        /// started (``RecordFileError/offset``), so it holds no part of the elements of that write.
        public static let writeFailed = Code("writeFailed")
        /// A write failed and cutting the file back failed as well: the file may end inside an
        /// element from ``RecordFileError/offset`` on. The next encoder that opens it repairs it.
        public static let writeFailedFileNotRestored = Code("writeFailedFileNotRestored")
        /// The file ends inside an element (what a crash during a write leaves), and the options
        /// say not to repair it (``RecordFileOptions/repairsTornTail`` is `false`).
        public static let tornTail = Code("tornTail")
        /// Bytes that are not a valid element, followed by more bytes: damage that a crash during
        /// an append does not leave, so nothing is cut.
        public static let corruptElement = Code("corruptElement")
        /// A v2 file that is not empty, or that other writers append to, needs the element type
        /// to find where its elements end: the element type is only `Encodable`.
        public static let elementTypeNeeded = Code("elementTypeNeeded")
        /// Cutting a torn last element, taking the file's lock, syncing or closing failed.
        public static let systemCallFailed = Code("systemCallFailed")
    }

    /// What went wrong.
    public let code: Code
    /// The file.
    public let url: URL
    /// The byte offset in the file that the error is about, if any: where a failed write
    /// started, or where a torn or corrupt element starts.
    public let offset: Int64?
    /// The operating system's error number (`errno`), for errors of a system call.
    public let systemErrorNumber: Int32?
    /// The error that caused this one, such as the `DecodingError` of a corrupt v2 element.
    public let underlyingError: (any Error)?
    /// A readable account of the problem and of what to do, without the file and the offset.
    public let message: String

    init(
        _ code: Code, _ url: URL, _ message: String, offset: Int64? = nil, systemError: SystemError? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.url = url
        self.offset = offset
        self.systemErrorNumber = systemError?.code
        self.underlyingError = underlyingError
        if let systemError {
            self.message = "\(message) (\(systemError.message), errno \(systemError.code))"
        } else {
            self.message = message
        }
    }

    /// The file, the offset when there is one, and the message, which says "there" or "where
    /// the write started" for the offset rather than repeat it:
    /// `/data/log.bin at byte offset 120: the file ends inside an element of 7 bytes ...`.
    public var description: String {
        if let offset { return "\(url.path) at byte offset \(offset): \(message)" }
        return "\(url.path): \(message)"
    }

    static func closed(_ url: URL, _ what: String) -> RecordFileError {
        RecordFileError(.closed, url, "the \(what) was used after close()")
    }
}
