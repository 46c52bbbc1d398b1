import Foundation

/// The output buffer: allocated once at its exact size and handed to `Data` without a copy
/// (a small one is written on the stack and copied: ``copiedLimit``).
enum Output {
    /// Outputs of up to this many bytes are written into a temporary buffer on the stack and
    /// copied into a `Data` of their own: for small outputs a copy costs less than a `Data`
    /// that takes a buffer with a deallocator (Performance.md, "Why the engine looks as it does").
    static let copiedLimit = 256

    /// Allocates `count` bytes, lets `body` fill them, and checks it wrote exactly `count`.
    ///
    /// - Throws: the error of `body`, or an `EncodingError` when the writes did not fill the
    ///   buffer exactly (the sizes the writer computed and what it wrote disagree: an internal inconsistency).
    ///   The writer refuses writes past the end, so a disagreement never overruns the buffer.
    static func make(count: Int, _ body: (inout ByteWriter) throws -> Void) throws -> Data {
        guard count >= 0 else { throw cannotAllocate(count) }
        if count <= copiedLimit {
            // One byte of room even for an empty output, so that a write pass that writes
            // anything to it is caught like any other overrun.
            return try withUnsafeTemporaryAllocation(byteCount: max(count, 1), alignment: 1) { buffer in
                guard let base = buffer.baseAddress else { throw cannotAllocate(count) }
                try fill(base, count: count, body)
                return count == 0 ? Data() : Data(bytes: base, count: count)
            }
        }
        guard let memory = malloc(count) else { throw cannotAllocate(count) }
        do {
            try fill(memory, count: count, body)
        } catch {
            free(memory)
            throw error
        }
        return Data(bytesNoCopy: memory, count: count, deallocator: .free)
    }

    /// Lets `body` write `count` bytes at `base`; throws unless it wrote exactly `count`.
    @inline(__always)
    private static func fill(
        _ base: UnsafeMutableRawPointer, count: Int, _ body: (inout ByteWriter) throws -> Void
    ) throws {
        var writer = ByteWriter(base: base, capacity: count)
        try body(&writer)
        guard !writer.overflowed, writer.offset == count else { throw sizeMismatch(expected: count, writer) }
    }

    @inline(never)
    private static func cannotAllocate(_ count: Int) -> EncodingError {
        EncodingError.invalidValue(
            count, .init(codingPath: [], debugDescription: "Cannot allocate \(count) bytes for the output."))
    }

    @inline(never)
    private static func sizeMismatch(expected: Int, _ writer: ByteWriter) -> EncodingError {
        let wrote = writer.overflowed ? "tried to write more" : "wrote \(writer.offset)"
        return EncodingError.invalidValue(
            expected,
            .init(
                codingPath: [],
                debugDescription:
                    "Internal inconsistency: the output was measured at \(expected) bytes but the writer \(wrote); nothing was written past the buffer."
            ))
    }
}
