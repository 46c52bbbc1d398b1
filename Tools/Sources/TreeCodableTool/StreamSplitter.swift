import BinarySerialization

/// Splits a v3 stream (from `BinaryStreamEncoder` or `BinaryFileEncoder`) into its elements
/// without their type: each element is `varint(length << 1)` and its bytes, or `01` for nil.
/// Reads the input in chunks and keeps only the current element, so memory stays bounded by
/// the largest element (and `DecodingLimits.maximumElementSize` bounds that).
struct V3StreamSplitter {
    enum Element {
        /// A nil element (`01`) at `offset`.
        case none(offset: Int)
        /// An element whose bytes start at `offset`, after its length prefix at `prefixOffset`.
        case value(prefixOffset: Int, offset: Int, bytes: [UInt8])
    }

    let source: any ByteSource
    let maximumElementSize: Int
    /// Buffered bytes; `buffer[start...]` are not consumed yet.
    private var buffer: [UInt8] = []
    private var start = 0
    /// The input offset of `buffer[0]`.
    private var bufferOffset = 0
    private var ended = false
    /// Elements returned so far.
    private(set) var count = 0

    init(source: any ByteSource, maximumElementSize: Int) {
        self.source = source
        self.maximumElementSize = maximumElementSize
    }

    /// The input offset of the next unconsumed byte.
    var offset: Int { bufferOffset &+ start }

    /// Reads until `needed` unconsumed bytes are buffered or the input ends; true if they are.
    private mutating func fill(_ needed: Int) throws -> Bool {
        while buffer.count &- start < needed {
            if ended { return false }
            if start > 0 {
                buffer.removeFirst(start)
                bufferOffset &+= start
                start = 0
            }
            let chunk: [UInt8]
            do {
                chunk = Array(try source.read(upTo: chunkSize))
            } catch {
                throw InputError("the input cannot be read (\(error.localizedDescription))")
            }
            if chunk.isEmpty { ended = true } else { buffer.append(contentsOf: chunk) }
        }
        return true
    }

    /// The next element, or `nil` at the end of the input.
    mutating func next() throws -> Element? {
        guard try fill(1) else { return nil }
        let prefixOffset = offset
        // The length prefix: a varint of at most ten bytes.
        var prefix: UInt64 = 0
        var shift: UInt64 = 0
        var length = 0
        while true {
            guard try fill(length &+ 1) else {
                throw InputError(
                    "the input ends inside the length prefix of element \(count) (at byte offset \(prefixOffset))")
            }
            let byte = buffer[start &+ length]
            length &+= 1
            if shift == 63 && byte > 1 || length > 10 {
                throw InputError("element \(count) has an invalid length prefix (at byte offset \(prefixOffset))")
            }
            prefix |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { break }
            shift &+= 7
        }
        start &+= length
        if prefix & 1 == 1 {
            guard prefix == 1 else {
                throw InputError(
                    "element \(count) has a nil indicator with a length (prefix \(prefix)) (at byte offset \(prefixOffset))")
            }
            count &+= 1
            return .none(offset: prefixOffset)
        }
        let size = prefix >> 1
        guard size <= UInt64(clamping: maximumElementSize) else {
            throw InputError(
                "element \(count) is \(size) bytes, more than the limit of \(maximumElementSize) (at byte offset \(prefixOffset))")
        }
        let byteCount = Int(size)
        let elementOffset = offset
        guard try fill(byteCount) else {
            throw InputError(
                "the input ends inside element \(count): it needs \(byteCount) bytes from byte offset \(elementOffset), "
                    + "\(buffer.count &- start) arrived (at byte offset \(prefixOffset))")
        }
        let bytes = Array(buffer[start..<start &+ byteCount])
        start &+= byteCount
        count &+= 1
        return .value(prefixOffset: prefixOffset, offset: elementOffset, bytes: bytes)
    }
}
