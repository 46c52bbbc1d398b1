import Foundation
import TreeCoding

/// Sends a tree to a format's sink as the events the streaming encoder sends for the same value
/// (``EncodingSink``'s contract), so that each format has one writer, its sink: for streamed
/// values, for trees (`encode(tree:)`, sorted keys, the fallback) and for the whole nodes the
/// streaming encoder sends.
enum TreeReplay {
    /// Sends `node`. Returns `nil` when the sink took it, else the keys from `node` down to the
    /// node the sink refused (the error's coding path). Built only on failure: a path kept
    /// along the way would cost on every field.
    static func send<Sink: ByteSink>(_ node: BinaryValue, to sink: Sink) -> [BinaryKey]? {
        switch node {
        case .keyed(let fields):
            sink.begin(.keyed)
            if sink.failure != nil { return [] }
            for field in fields.fields {
                sink.key(field.key)
                if sink.failure != nil { return [field.key] }
                if let below = send(field.value, to: sink) { return [field.key] + below }
            }
            sink.end()
        case .unkeyed(let elements):
            sink.begin(.unkeyed)
            if sink.failure != nil { return [] }
            for (index, element) in elements.enumerated() {
                if let below = send(element, to: sink) { return [WriterPath.indexKey(index)] + below }
            }
            sink.end()
        case .optional(.some(let inner)):
            if let below = sendBracketed(.optional, inner, to: sink) { return below }
        case .single(let inner) where !isBareNil(inner):
            // (`.single(.nil)` is sent whole: a bracket never holds a bare nil.)
            if let below = sendBracketed(.single, inner, to: sink) { return below }
        default:
            sink.value(node)
        }
        return sink.failure == nil ? nil : []
    }

    /// Whether `node` is sent as a bracket (`begin`, its content, `end`) rather than whole:
    /// containers, a present optional, and a single-value wrapper around anything but nil.
    @inline(__always)
    static func isBracketed(_ node: BinaryValue) -> Bool {
        switch node {
        case .keyed, .unkeyed, .optional(.some): return true
        case .single(let inner): return !isBareNil(inner)
        default: return false
        }
    }

    private static func isBareNil(_ node: BinaryValue) -> Bool {
        if case .nil = node { return true }
        return false
    }

    private static func sendBracketed<Sink: ByteSink>(_ kind: SinkNodeKind, _ inner: BinaryValue, to sink: Sink)
        -> [BinaryKey]?
    {
        sink.begin(kind)
        if sink.failure != nil { return [] }
        if let below = send(inner, to: sink) { return below }
        sink.end()
        return nil
    }
}

/// Why a sink could not write what it was sent. A streamed run then starts again through the
/// tree; the tree path turns it into the `EncodingError` (``error(at:)``).
enum SinkFailure {
    /// Nested deeper than the sink's node limit (``DepthGuard/nodeLimit(maximumDepth:)``).
    case tooDeep(limit: Int)
    /// A negative integer key: v3 has no bytes for it.
    case negativeKey(Int)
    /// An integer key outside -2^59..<2^59: v2 has no bytes for it.
    case keyOutOfV2Range(Int)
    /// Stored v3 bytes of a field the decoding type did not read: v2 needs a wire type.
    case unknownBytesInV2
    /// An unkeyed container's `encodeNil()` in v2 without nil index sets.
    case nilElementWithoutIndexSet
    /// Events out of the contract's order: only the streaming encoder's own runs can send them,
    /// and it gives up before (the tree path never does).
    case unexpectedEvent

    /// The error of the tree path for a failure at `path`.
    func error(at path: [BinaryKey]) -> EncodingError {
        let value: Any
        let message: String
        switch self {
        case .tooDeep(let limit):
            value = limit
            message = "The tree is nested deeper than the maximum depth of \(limit)."
        case .negativeKey(let key):
            value = key
            message = "Integer key \(key) is negative, which v3 cannot write."
        case .keyOutOfV2Range(let key):
            value = key
            message = "Integer key \(key) is outside -2^59..<2^59, which v2 can write."
        case .unknownBytesInV2:
            value = BinaryValue.unknown(Data())
            message = """
                A field the decoding type did not read is kept as stored v3 bytes; v2 needs its \
                wire type, which those bytes do not say. Decode with a type that reads the field.
                """
        case .nilElementWithoutIndexSet:
            value = BinaryValue.nil
            message = """
                The v2 format cannot store encodeNil() in an unkeyed container unless \
                prependNilIndexSetForUnkeyedContainers is set on the encoder (and the decoder).
                """
        case .unexpectedEvent:
            value = BinaryValue.nil
            message = "Internal inconsistency: the writer was sent events out of order."
        }
        return .invalidValue(value, .init(codingPath: path, debugDescription: message))
    }
}

/// How deep the writers (and the v2 view of a tree) let nodes nest for an encoder's
/// `maximumDepth`: four nodes per level, since a value nested `maximumDepth` deep can have a
/// container, a single-value and an optional wrapper per level. A hand-built tree deeper than
/// that is an error rather than a stack overflow.
enum DepthGuard {
    static func nodeLimit(maximumDepth: Int) -> Int {
        let (limit, overflow) = maximumDepth.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : limit
    }
}
