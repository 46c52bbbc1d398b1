import Dispatch
import Foundation

/// The chunks of a file, read on a private serial queue so that blocking reads never hold up a
/// thread of Swift's cooperative pool.
///
/// Reads are demand-driven: one chunk is read per call to `next()`, so at most one chunk is in
/// memory beyond what the consumer keeps. The file is opened by the first call, not before.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
struct FileChunkSequence: AsyncSequence, Sendable {
    typealias Element = Data

    let url: URL
    let chunkSize: Int

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: FileChunkReader(url: url, chunkSize: chunkSize))
    }

    struct Iterator: AsyncIteratorProtocol {
        let reader: FileChunkReader

        mutating func next() async throws -> Data? {
            try await reader.next()
        }
    }
}

/// One pass over a file. Its mutable state is only touched on `queue` (and in `deinit`, when no
/// queued work can hold a reference any more), which is what makes the unchecked `Sendable` sound.
@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)
final class FileChunkReader: @unchecked Sendable {
    private let queue = DispatchQueue(label: "TreeCodable.FileChunkReader")
    private let url: URL
    private let chunkSize: Int
    private var handle: FileHandle?
    private var reachedEnd = false

    init(url: URL, chunkSize: Int) {
        self.url = url
        // A read of zero bytes would look like the end of the file.
        self.chunkSize = max(1, chunkSize)
    }

    deinit { try? handle?.close() }

    /// The next chunk, or `nil` at the end of the file.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
            queue.async {
                continuation.resume(with: Result { try self.readChunk() })
            }
        }
    }

    /// Runs on `queue`.
    private func readChunk() throws -> Data? {
        guard !reachedEnd else { return nil }
        let open: FileHandle
        if let handle {
            open = handle
        } else {
            do {
                open = try FileHandle(forReadingFrom: url)
            } catch {
                reachedEnd = true
                throw error
            }
            handle = open
        }
        let chunk: Data
        do {
            chunk = try open.read(upToCount: chunkSize) ?? Data()
        } catch {
            finish(open)
            throw error
        }
        if chunk.isEmpty {
            finish(open)
            return nil
        }
        return chunk
    }

    private func finish(_ open: FileHandle) {
        reachedEnd = true
        try? open.close()
        handle = nil
    }
}
