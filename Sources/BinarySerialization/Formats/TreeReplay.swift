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
                if let below = send(element, to: sink) { return [BinaryKey.index(index)] + below }
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
