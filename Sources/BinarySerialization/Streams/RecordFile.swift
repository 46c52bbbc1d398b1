import Foundation

/// A file of framed elements opened for appending: the one place where the rules of record
/// files live, for ``BinaryFileEncoder`` and ``BinaryAsyncFileEncoder`` alike.
///
/// - Every append and the recovery run under `lock` (writers in this process that share this
///   object) and under the advisory `flock` of the file (every other open of it, in this process
///   or another).
/// - `knownEnd` is the end of the last complete element, as far as this object knows. Holding
///   the file lock, a size other than `knownEnd` means other writers appended (or crashed part-way):
///   only those bytes are scanned, and a torn element among them is cut before appending.
/// - The descriptor is in append mode, so a write lands at the end of the file whatever other
///   descriptors did; a failed write is cut back to the size before it.
///
/// All stored state is read and written only while `lock` is held, which is what makes the
/// unchecked `Sendable` sound.
final class RecordFile: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var fd: Int32?
    private var knownEnd: Int64 = 0
    private let framing: RecordFraming
    private let options: RecordFileOptions
    private var unsyncedElements = 0
    private var unsyncedBytes = 0
    private var directoryNeedsSync: Bool
    private var madeRepairs: [RecordFileRepair] = []
    private var calls: FileSystemCalls = .system
    /// What the owner is called in errors ("encoder").
    private let owner: String

    /// Opens (or creates) the file and recovers it: a torn last element is cut (or reported,
    /// as the options say) before this returns.
    init(url: URL, framing: RecordFraming, options: RecordFileOptions, owner: String) throws {
        self.url = url
        self.framing = framing
        self.options = options
        self.owner = owner
        let opened: (fd: Int32, created: Bool)
        switch FileDescriptor.openForAppending(url.path) {
        case .success(let result): opened = result
        case .failure(let error):
            throw RecordFileError(.openFailed, url, "cannot open the file for appending", systemError: error)
        }
        self.fd = opened.fd
        self.directoryNeedsSync = opened.created
        do {
            try locked { try withFileLock(opened.fd) { _ = try checkEnd(opened.fd) } }
        } catch {
            _ = FileDescriptor.close(opened.fd)
            fd = nil
            throw error
        }
    }

    deinit {
        if let fd { _ = FileDescriptor.close(fd) }
    }

    /// Runs `body` holding `lock` (`NSLocking.withLock` needs macOS 14 / iOS 17).
    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The torn elements this file cut, in order.
    var repairs: [RecordFileRepair] { locked { madeRepairs } }

    /// Replaces the system calls (tests inject failing writes).
    func useCalls(_ replacement: FileSystemCalls) {
        locked { calls = replacement }
    }

    /// Appends `data` (`elements` whole elements) at the end of the file with one write call
    /// (repeated only for what a short write left), then syncs if the policy says so.
    ///
    /// - Throws: ``RecordFileError``: `closed`, `writeFailed` (the file was cut back to where the
    ///   write started), `writeFailedFileNotRestored`, or the errors of recovery.
    func append(_ data: Data, elements: Int) throws {
        guard !data.isEmpty else { return }
        try locked {
            guard let fd else { throw RecordFileError.closed(url, owner) }
            try withFileLock(fd) {
                let start = try checkEnd(fd)
                try write(data, to: fd, at: start)
                let (end, overflow) = start.addingReportingOverflow(Int64(data.count))
                knownEnd = overflow ? Int64.max : end
                unsyncedElements = saturatingSum(unsyncedElements, elements)
                unsyncedBytes = saturatingSum(unsyncedBytes, data.count)
                if options.syncPolicy.isDue(elements: unsyncedElements, bytes: unsyncedBytes) {
                    try syncLocked(fd)
                }
            }
        }
    }

    /// Puts what was written on stable storage.
    func sync() throws {
        try locked {
            guard let fd else { throw RecordFileError.closed(url, owner) }
            try syncLocked(fd)
        }
    }

    /// Syncs and closes the file; later appends throw. Closing twice does nothing.
    func close() throws {
        try locked {
            guard let fd else { return }
            self.fd = nil
            do {
                try syncLocked(fd)
            } catch {
                _ = FileDescriptor.close(fd)
                throw error
            }
            if case .failure(let error) = FileDescriptor.close(fd) {
                throw RecordFileError(.systemCallFailed, url, "closing the file failed", systemError: error)
            }
        }
    }

    // MARK: Under the lock

    /// Runs `body` holding the file's advisory lock.
    private func withFileLock<T>(_ fd: Int32, _ body: () throws -> T) throws -> T {
        if case .failure(let error) = FileDescriptor.lock(fd, true) {
            throw RecordFileError(.systemCallFailed, url, "cannot take the file's lock", systemError: error)
        }
        defer { _ = FileDescriptor.lock(fd, false) }
        return try body()
    }

    /// Makes sure the file ends after a complete element, scanning what was appended since
    /// `knownEnd` (an element boundary), and returns the file's size.
    private func checkEnd(_ fd: Int32) throws -> Int64 {
        let size: Int64
        switch FileDescriptor.size(fd) {
        case .success(let value): size = value
        case .failure(let error):
            throw RecordFileError(.readFailed, url, "cannot read the file's size", systemError: error)
        }
        if size == knownEnd { return size }
        // Shorter than what this writer knows: someone cut it; check it all again.
        let scanStart = size >= knownEnd ? knownEnd : 0
        let outcome: RecordFraming.Outcome
        do {
            outcome = try framing.scan(fd, scanStart, size)
        } catch .read(let error) {
            throw RecordFileError(
                .readFailed, url, "cannot read the file to check its last element", systemError: error)
        } catch .elementTypeNeeded {
            throw RecordFileError(
                .elementTypeNeeded, url,
                "v2 elements can only be told apart with their type: make the element type Decodable as well",
                offset: scanStart)
        }
        switch outcome {
        case .complete:
            knownEnd = size
            return size
        case .torn(let start):
            guard options.repairsTornTail else {
                throw RecordFileError(
                    .tornTail, url,
                    "the file ends inside an element of \(size - start) bytes (a crash during a write leaves this); "
                        + "open it with repairsTornTail, or cut the file there, to append",
                    offset: start)
            }
            if case .failure(let error) = FileDescriptor.truncate(fd, to: start) {
                throw RecordFileError(
                    .systemCallFailed, url, "cannot cut the torn last element", offset: start, systemError: error)
            }
            let repair = RecordFileRepair(url: url, range: start..<size)
            madeRepairs.append(repair)
            options.onRepair?(repair)
            knownEnd = start
            return start
        case .corrupt(let start, let reason):
            throw RecordFileError(
                .corruptElement, url,
                "the bytes are not a valid element (\(reason)) and more bytes follow, so they were not cut; "
                    + "read the elements before them with BinaryFileDecoder.readElementsUntilError(), "
                    + "or cut the file there",
                offset: start)
        }
    }

    /// Writes all of `data`, looping on short writes; on failure cuts the file back to `start`.
    private func write(_ data: Data, to fd: Int32, at start: Int64) throws {
        let failure = FileDescriptor.writeAll(data, to: fd, with: calls)
        guard let failure else { return }
        let error = SystemError(failure.errno)
        let cut = calls.truncate(fd, start)
        if cut < 0 {
            let truncateError = SystemError(Int32(clamping: -cut))
            // `knownEnd` stays at `start`: the next append scans from there and cuts the partial element.
            throw RecordFileError(
                .writeFailedFileNotRestored, url,
                "writing \(data.count) bytes failed after \(failure.written) (\(error.message)), and cutting the "
                    + "file back to where the write started failed too; the next encoder that opens it cuts the partial "
                    + "element",
                offset: start, systemError: truncateError)
        }
        throw RecordFileError(
            .writeFailed, url,
            "writing \(data.count) bytes failed after \(failure.written); the file was cut back to where "
                + "the write started, so it holds no part of these elements",
            offset: start, systemError: error)
    }

    /// Syncs the file (and, once, the directory of a file this object created).
    private func syncLocked(_ fd: Int32) throws {
        let result = calls.sync(fd)
        if result < 0 {
            throw RecordFileError(
                .systemCallFailed, url, "syncing the file failed", systemError: SystemError(Int32(clamping: -result)))
        }
        unsyncedElements = 0
        unsyncedBytes = 0
        if directoryNeedsSync {
            if case .failure(let error) = FileDescriptor.syncDirectory(url.deletingLastPathComponent().path) {
                throw RecordFileError(
                    .systemCallFailed, url, "syncing the folder of the new file failed", systemError: error)
            }
            directoryNeedsSync = false
        }
    }
}
