import Dispatch
import Foundation

/// A file opened for appending, written on a private serial queue so that blocking writes never
/// hold up a thread of Swift's cooperative pool.
///
/// Its mutable state is only touched on `queue` (and in `deinit`, when no queued work can hold a
/// reference any more), which is what makes the unchecked `Sendable` sound. Writes run in the
/// order they were queued, each one whole.
final class FileAppender: @unchecked Sendable {
    private let queue = DispatchQueue(label: "TreeCodable.FileAppender")
    private let url: URL
    private var handle: FileHandle?

    private init(url: URL) {
        self.url = url
    }

    deinit { try? handle?.close() }

    /// Opens (or creates) the file at `url` for appending, on the queue.
    static func open(_ url: URL) async throws -> FileAppender {
        let appender = FileAppender(url: url)
        try await appender.run { appender in
            if !FileManager.default.fileExists(atPath: url.path) {
                guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
                }
            }
            let handle = try FileHandle(forWritingTo: url)
            do {
                try handle.seekToEnd()
            } catch {
                try? handle.close()
                throw error
            }
            appender.handle = handle
        }
        return appender
    }

    /// Appends `data` with one write.
    ///
    /// - Throws: a Foundation error if writing fails or the file was closed.
    func append(_ data: Data) async throws {
        try await run { appender in
            guard let handle = appender.handle else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: appender.url.path])
            }
            try handle.write(contentsOf: data)
        }
    }

    /// Flushes and closes the file; later appends throw. Closing twice does nothing.
    func close() async throws {
        try await run { appender in
            guard let handle = appender.handle else { return }
            appender.handle = nil
            do {
                try handle.synchronize()
            } catch {
                try? handle.close()
                throw error
            }
            try handle.close()
        }
    }

    /// Runs `work` on the queue and waits for it.
    private func run(_ work: @escaping @Sendable (FileAppender) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { try work(self) })
            }
        }
    }
}
