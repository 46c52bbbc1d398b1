import Dispatch
import Foundation

/// A ``RecordFile`` whose blocking calls run on a private serial queue, so that they never hold
/// up a thread of Swift's cooperative pool. The file's rules (recovery, locking, append mode,
/// cutting back a failed write) are the record file's own.
///
/// Calls run in the order they were queued, each one whole.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
final class FileAppender: Sendable {
    private let queue = DispatchQueue(label: "TreeCodable.FileAppender")
    let file: RecordFile

    private init(file: RecordFile) {
        self.file = file
    }

    /// Opens (or creates) the file at `url` for appending and recovers it, on a queue.
    static func open(_ url: URL, framing: RecordFraming, options: RecordFileOptions) async throws -> FileAppender {
        let queue = DispatchQueue(label: "TreeCodable.FileAppender.open")
        let opened = Handoff()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                opened.put(Result { try RecordFile(url: url, framing: framing, options: options, owner: "encoder") })
                continuation.resume()
            }
        }
        return FileAppender(file: try opened.take())
    }

    /// The file made on the queue, handed to the caller under a lock: what its initializer wrote
    /// is then visible to the caller's thread by the lock's ordering (ThreadSanitizer does not
    /// see a continuation's resumption as one).
    private final class Handoff: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<RecordFile, any Error>?

        func put(_ result: Result<RecordFile, any Error>) {
            lock.lock()
            defer { lock.unlock() }
            self.result = result
        }

        func take() throws -> RecordFile {
            lock.lock()
            defer { lock.unlock() }
            guard let result else { throw CancellationError() }
            return try result.get()
        }
    }

    /// Appends `data` (`elements` whole elements) with one write.
    func append(_ data: Data, elements: Int) async throws {
        try await run { try $0.append(data, elements: elements) }
    }

    /// Puts what was written on stable storage.
    func sync() async throws {
        try await run { try $0.sync() }
    }

    /// Syncs and closes the file; later appends throw. Closing twice does nothing.
    func close() async throws {
        try await run { try $0.close() }
    }

    /// Runs `work` on the queue and waits for it.
    private func run(_ work: @escaping @Sendable (RecordFile) throws -> Void) async throws {
        let file = self.file
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { try work(file) })
            }
        }
    }
}
