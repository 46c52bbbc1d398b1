/// Messages stored in several occurrences, each copied as its occurrences' contents one after
/// the other: protobuf defines a message stored twice as the two merged, which is what their
/// concatenated bytes read as. The copies belong to the thread's outermost protobuf decoding run
/// (``scoped(_:)``) and are freed when it returns.
///
/// Byte offsets in errors inside such a message count from the start of its copy.
final class ProtobufMerges {
    /// The copies, with where their bytes lie in the outermost run's input (`nil`: another input).
    private var copies: [(copy: UnsafeMutableRawBufferPointer, origin: ProtobufOrigin?)] = []
    private var bytes = 0
    private var runs = 0
    /// The outermost run's input.
    private var input = UnsafeRawBufferPointer(start: nil, count: 0)

    private static let perThread = ThreadLocal<ProtobufMerges>()

    /// At most this many bytes of copies per run: a message merged at every level of a deep
    /// input is copied once per level.
    static let maximumBytes = 64 << 20

    /// Runs `body`, a protobuf decoding run of `input`, with the thread's copies kept until the
    /// outermost run returns.
    static func scoped<R>(_ input: UnsafeRawBufferPointer, _ body: () throws -> R) rethrows -> R {
        let merges = perThread.current ?? ProtobufMerges()
        if merges.runs == 0 {
            perThread.put(merges)
            merges.input = input
        }
        merges.runs += 1
        defer {
            merges.runs -= 1
            if merges.runs == 0 { merges.free() }
        }
        return try body()
    }

    /// The message whose occurrences are `ranges` of `buffer`, as one message over a copy.
    static func merged(_ ranges: [Range<Int>], of buffer: UnsafeRawBufferPointer) throws -> ByteNode {
        let total = ranges.reduce(0) { $0 + $1.count }
        guard let merges = perThread.current, merges.runs > 0 else {
            throw WireFormatError(.unsupported, "a message stored in several occurrences outside a run", offset: 0)
        }
        guard total <= maximumBytes - merges.bytes else {
            throw WireFormatError(
                .limitExceeded, "merging messages stored in several occurrences needs more than \(maximumBytes) bytes",
                offset: ranges.first?.lowerBound)
        }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(total, 1), alignment: 8)
        merges.copies.append((copy, merges.origin(of: buffer)?.joined(ranges)))
        merges.bytes += total
        // The ranges are values framed within `buffer`.
        if let source = buffer.baseAddress, let target = copy.baseAddress {
            var at = 0
            for range in ranges {
                (target + at).copyMemory(from: source + range.lowerBound, byteCount: range.count)
                at += range.count
            }
        }
        return ByteNode(buffer: UnsafeRawBufferPointer(copy), start: 0, end: total, tag: ProtobufFormat.message)
    }

    /// Where the bytes of `buffer` (the outermost run's input or a copy) lie in that input.
    static func origin(of buffer: UnsafeRawBufferPointer) -> (input: UnsafeRawPointer?, origin: ProtobufOrigin)? {
        guard let merges = perThread.current, merges.runs > 0, let origin = merges.origin(of: buffer) else {
            return nil
        }
        return (merges.input.baseAddress, origin)
    }

    private func origin(of buffer: UnsafeRawBufferPointer) -> ProtobufOrigin? {
        if buffer.baseAddress == input.baseAddress { return .input(input.count) }
        return copies.last(where: { UnsafeRawPointer($0.copy.baseAddress) == buffer.baseAddress })?.origin
    }

    private func free() {
        for (copy, _) in copies { copy.deallocate() }
        copies.removeAll(keepingCapacity: false)
        bytes = 0
        input = UnsafeRawBufferPointer(start: nil, count: 0)
    }
}
