import Foundation

/// Splits a v3 stream (from ``BinaryStreamEncoder`` or ``BinaryFileEncoder``) into the byte
/// ranges of its elements without decoding them, whatever chunks the bytes arrive in.
///
/// It reads the framing by the same rule as ``BinaryStreamDecoder``: each element is
/// `varint(length << 1)` and its bytes, or `01` for nil; prefixes must be minimal varints and
/// lengths at most ``DecodingLimits/maximumElementSize``. v2 streams cannot be split this way:
/// where a v2 element ends depends on its type.
///
/// ```swift
/// var splitter = BinaryStreamSplitter()
/// for chunk in chunks {
///     splitter.add(chunk)
///     while let element = try splitter.nextElement() { print(element.index, element.range as Any) }
/// }
/// try splitter.finish()     // throws if the input ended inside an element
/// ```
/// Consumed bytes are dropped, so memory stays bounded by the largest element kept (see
/// `retainingElementsUpTo`).
public struct BinaryStreamSplitter: Sendable {
    /// One element of the stream.
    public struct Element: Hashable, Sendable {
        /// The element's position in the stream, from 0.
        public var index: Int
        /// The stream offset of the element's length prefix.
        public var prefixOffset: Int
        /// The stream offsets of the element's bytes, after the prefix; `nil` for a nil element.
        public var range: Range<Int>?
        /// The element's bytes, or `nil` for a nil element and for an element larger than the
        /// splitter retains (its bytes are skipped as they arrive).
        public var bytes: [UInt8]?
    }

    /// The limits; `maximumElementSize` bounds the length a prefix may give.
    public let limits: DecodingLimits
    /// Elements longer than this many bytes are returned without their bytes.
    public var maximumRetainedSize: Int
    private var storage: [UInt8] = []
    private var start = 0
    /// Bytes dropped from the front of `storage`: `dropped + start` is the stream offset of
    /// the next unread byte.
    private var dropped = 0
    /// Bytes of a skipped element still to come; they are discarded on arrival.
    private var skipping = 0
    /// The start of the skipped element, for the error when the input ends inside it.
    private var skippedPrefixOffset = 0
    /// The number of elements returned so far.
    public private(set) var elementCount = 0

    /// A splitter with `limits`, keeping the bytes of elements up to `retainingElementsUpTo`
    /// bytes long (larger ones are returned as soon as their prefix is read, without bytes).
    public init(limits: DecodingLimits = DecodingLimits(), retainingElementsUpTo maximumRetainedSize: Int = .max) {
        self.limits = limits
        self.maximumRetainedSize = max(0, maximumRetainedSize)
    }

    /// The stream offset of the next byte not yet consumed.
    public var offset: Int { saturatingSum(dropped, start) }

    /// Bytes received but not yet consumed (and not skipped).
    public var bufferedByteCount: Int { storage.count &- start }

    /// Adds received bytes.
    public mutating func add(_ bytes: some Collection<UInt8>) {
        var rest = bytes[...]
        if skipping > 0 {
            let skipped = min(skipping, rest.count)
            skipping &-= skipped
            dropped = saturatingSum(dropped, skipped)
            rest = rest.dropFirst(skipped)
        }
        compact()
        storage.append(contentsOf: rest)
    }

    /// Drops consumed bytes once they are a large part of the buffer.
    private mutating func compact() {
        guard start > 0 else { return }
        if start == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= 1 << 20)
        } else if start >= 4096, start &* 2 >= storage.count {
            storage.removeFirst(start)
        } else {
            return
        }
        dropped = saturatingSum(dropped, start)
        start = 0
    }

    /// The next element, or `nil` if its bytes have not all arrived yet.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose underlying ``WireFormatError`` has the
    ///   stream offset of a prefix that is not a valid element framing; the message names the
    ///   element's index. The same error comes again on the next call.
    public mutating func nextElement() throws -> Element? {
        guard skipping == 0, start < storage.count else { return nil }
        let begin = start
        let base = dropped
        let index = elementCount
        let limit = limits.maximumElementSize
        let framed = storage.withUnsafeBytes { buffer in
            Result { () throws(WireFormatError) in
                try V3StreamFrame.frame(buffer, at: begin, end: buffer.count, limit: limit)
            }
        }
        let outcome: V3StreamFrame.Outcome
        switch framed {
        case .success(let value): outcome = value
        case .failure(let error):
            throw streamError(
                WireFormatError(
                    error.code, "element \(index): \(error.message)", offset: saturatingSum(base, error.offset ?? begin)
                ))
        }
        let absolute = { (position: Int) in saturatingSum(base, position) }
        switch outcome {
        case .needPrefix:
            return nil
        case .partial(let bodyStart, let length):
            guard length > maximumRetainedSize else { return nil }
            // Too large to keep: report it now and discard its bytes as they arrive.
            let available = storage.count &- bodyStart
            skipping = length &- available
            skippedPrefixOffset = absolute(begin)
            start = storage.count
            elementCount &+= 1
            compact()
            let bodyOffset = absolute(bodyStart)
            return Element(
                index: index, prefixOffset: skippedPrefixOffset,
                range: bodyOffset..<saturatingSum(bodyOffset, length), bytes: nil)
        case .element(let body, let end):
            start = end
            elementCount &+= 1
            let element = Element(
                index: index, prefixOffset: absolute(begin),
                range: body.map { absolute($0.lowerBound)..<absolute($0.upperBound) },
                bytes: body.flatMap { $0.count <= maximumRetainedSize ? Array(storage[$0]) : nil })
            compact()
            return element
        }
    }

    /// Call at the end of the input: throws if it ended inside an element.
    ///
    /// - Throws: `DecodingError.dataCorrupted` whose underlying error is an
    ///   ``IncompleteElementError`` with the element count and the element's stream offset.
    public func finish() throws {
        let leftover = bufferedByteCount
        guard leftover > 0 || skipping > 0 else { return }
        let incomplete = skipping > 0 ? elementCount &- 1 : elementCount
        let offset = skipping > 0 ? skippedPrefixOffset : self.offset
        let error = IncompleteElementError(completeElements: incomplete, leftoverBytes: leftover, offset: offset)
        throw DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: error.sentence, underlyingError: error))
    }
}
