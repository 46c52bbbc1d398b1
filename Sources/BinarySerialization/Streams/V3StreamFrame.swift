import TreeCoding

/// Where one element of a v3 stream lies (an element as ``V3Framing`` frames it), for input that
/// arrives in pieces: the stream decoder, the file scanner and ``BinaryStreamSplitter`` all find
/// their elements through it.
enum V3StreamFrame {
    /// What the bytes from an element's start allow.
    enum Outcome: Equatable {
        /// A whole element: its bytes (`nil` for a nil element) and the offset after it.
        case element(body: Range<Int>?, end: Int)
        /// The prefix is complete but the bytes of an element of `length` bytes start at
        /// `bodyStart` and have not all arrived.
        case partial(bodyStart: Int, length: Int)
        /// The prefix itself has not all arrived.
        case needPrefix
    }

    /// Frames the element starting at `begin` in `buffer[..<end]`.
    ///
    /// - Throws: `WireFormatError` when the prefix is not a minimal varint, is a nil indicator
    ///   with a length, or gives a length above `limit`.
    static func frame(
        _ buffer: UnsafeRawBufferPointer, at begin: Int, end: Int, limit: Int
    ) throws(WireFormatError) -> Outcome {
        var reader = ByteReader(buffer: buffer, offset: begin, end: end)
        let prefix: UInt64
        do {
            prefix = try reader.varint()
        } catch let error as WireFormatError {
            if error.code == .truncated { return .needPrefix }
            throw error
        } catch {
            throw WireFormatError(.invalidBytes, "an unreadable length prefix", offset: begin)
        }
        let length: UInt64
        switch V3Framing.element(prefix) {
        case .value(let bytes): length = bytes
        case .nilElement: return .element(body: nil, end: reader.offset)
        case .nilWithLength:
            throw WireFormatError(.invalidBytes, "a nil indicator with a length (prefix \(prefix))", offset: begin)
        }
        guard length <= UInt64(clamping: limit) else {
            throw WireFormatError(
                .limitExceeded, "an element of \(length) bytes exceeds the limit of \(limit)", offset: begin)
        }
        // `length` comes from the input: with a limit near Int.max the sum can overflow.
        let (bodyEnd, overflow) = reader.offset.addingReportingOverflow(Int(clamping: length))
        guard !overflow else {
            throw WireFormatError(
                .limitExceeded, "an element of \(length) bytes is larger than any buffer", offset: begin)
        }
        guard bodyEnd <= end else { return .partial(bodyStart: reader.offset, length: Int(clamping: length)) }
        return .element(body: reader.offset..<bodyEnd, end: bodyEnd)
    }
}
