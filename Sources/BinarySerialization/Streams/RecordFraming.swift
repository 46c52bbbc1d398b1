import Foundation

/// How a record file finds where its elements end, so that a torn last element can be told from
/// complete ones: v3 from the length prefixes alone, v2 by decoding each element with its type.
///
/// Unchecked `Sendable`: the scan closures capture only immutable values and an element type.
struct RecordFraming: @unchecked Sendable {
    /// What a scan of part of a file found.
    enum Outcome: Equatable {
        /// The part is whole elements.
        case complete
        /// The part ends inside an element that starts at `start`: it is cut short.
        case torn(start: Int64)
        /// Bytes at `start` are not a valid element, although more bytes follow.
        case corrupt(start: Int64, reason: String)
    }

    /// Scans the bytes of `fd` from `start` (where an element starts) to `end`.
    let scan: (_ fd: Int32, _ start: Int64, _ end: Int64) throws(ScanError) -> Outcome

    /// Why a scan could not finish: the file could not be read, or the format needs a type.
    enum ScanError: Error {
        case read(SystemError)
        case elementTypeNeeded
    }

    /// Bytes read per system call while scanning.
    static let chunkSize = 1 << 16

    /// The framing of files written by `encoder` with elements of a type that is only
    /// `Encodable`: v3 is framed by its prefixes; v2 cannot be framed.
    static func encodable(_ encoder: BinaryEncoder) -> RecordFraming {
        switch encoder.format {
        case .v3: return v3
        case .v2:
            return RecordFraming { _, start, end throws(ScanError) in
                if start < end { throw .elementTypeNeeded }
                return .complete
            }
        }
    }

    /// The framing of files written by `encoder` with elements of `type`: v2 is framed by
    /// decoding each element.
    static func decodable<Element: Decodable>(_ type: Element.Type, _ encoder: BinaryEncoder) -> RecordFraming {
        switch encoder.format {
        case .v3: return v3
        case .v2:
            let decoder = {
                var decoder = BinaryDecoder(format: .v2)
                decoder.prependNilIndexSetForUnkeyedContainers = encoder.prependNilIndexSetForUnkeyedContainers
                return decoder
            }()
            return RecordFraming { fd, start, end throws(ScanError) in
                try scanByDecoding(Element.self, decoder, fd, start, end)
            }
        }
    }

    // MARK: v3

    /// Walks the length prefixes; an element's own bytes are read only where a later prefix
    /// shares their chunk.
    static let v3 = RecordFraming { fd, start, end throws(ScanError) in
        let limit = DecodingLimits().maximumElementSize
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var bufferStart = start
        var bufferCount = 0
        var offset = start
        while offset < end {
            // The prefix (at most 10 bytes) must be in the buffer: read a chunk from `offset` if not.
            let inBuffer = offset - bufferStart
            if inBuffer < 0 || inBuffer + 10 > Int64(bufferCount) {
                let wanted = Int(min(Int64(chunkSize), end - offset))
                let got = buffer.withUnsafeMutableBytes { bytes in
                    FileDescriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted]), at: offset)
                }
                switch got {
                case .success(let count): bufferCount = count
                case .failure(let error): throw .read(error)
                }
                bufferStart = offset
                // The file got shorter than `end` while scanning: the rest is missing.
                guard bufferCount > 0 else { return .torn(start: offset) }
            }
            let at = Int(offset - bufferStart)
            let framed = buffer.withUnsafeBytes { bytes in
                Result { () throws(WireFormatError) in
                    try V3StreamFrame.frame(bytes, at: at, end: bufferCount, limit: limit)
                }
            }
            let bodyStart: Int
            let length: Int
            switch framed {
            case .failure(let error): return .corrupt(start: offset, reason: error.message)
            // A prefix is at most 9 bytes and at least 10 are buffered unless the range ends: cut short.
            case .success(.needPrefix): return .torn(start: offset)
            case .success(.element(nil, let after)):
                offset += Int64(after - at)
                continue
            case .success(.element(let body?, _)): (bodyStart, length) = (body.lowerBound, body.count)
            case .success(.partial(let start, let count)): (bodyStart, length) = (start, count)
            }
            let (next, overflow) = (offset + Int64(bodyStart - at)).addingReportingOverflow(Int64(length))
            if overflow || next > end { return .torn(start: offset) }
            offset = next
        }
        return .complete
    }

    // MARK: v2

    /// Feeds the range to a stream decoder chunk by chunk and notes where each element ends.
    private static func scanByDecoding<Element: Decodable>(
        _ type: Element.Type, _ decoder: BinaryDecoder, _ fd: Int32, _ start: Int64, _ end: Int64
    ) throws(ScanError) -> Outcome {
        let stream = BinaryStreamDecoder<Element>(decoder: decoder)
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var position = start
        var lastEnd = start
        while position < end {
            let wanted = Int(min(Int64(chunkSize), end - position))
            let got = buffer.withUnsafeMutableBytes { bytes in
                FileDescriptor.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<wanted]), at: position)
            }
            let count: Int
            switch got {
            case .success(let read): count = read
            case .failure(let error): throw .read(error)
            }
            guard count > 0 else { break }
            stream.add(Array(buffer[..<count]))
            position += Int64(count)
            do {
                while try stream.decodeElement() != nil {
                    lastEnd = position - Int64(stream.bufferedByteCount)
                }
            } catch {
                let reason = underlyingWireError(error)?.message ?? "\(error)"
                return .corrupt(start: lastEnd, reason: reason)
            }
        }
        return stream.bufferedByteCount > 0 || position < end ? .torn(start: lastEnd) : .complete
    }
}
