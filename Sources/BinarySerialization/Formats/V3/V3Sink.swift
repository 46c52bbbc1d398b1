import Foundation
import TreeCoding

/// The v3 writer: writes v3 bytes as the streaming encoder sends a value, and trees sent to it
/// as the same events (``TreeReplay``).
///
/// A v3 element starts with the length of its bytes, which is known only once the element
/// ends. The sink writes every element's content without that prefix and notes, in a side
/// table, where each prefix goes and (when the element closes) how long it is, counting the
/// prefixes of the elements nested inside. `finish()` then copies the content once into the
/// output, inserting the prefixes: O(n) whatever the nesting, with no byte moved twice. Leaves
/// inside containers know their size up front and are written with their prefix directly.
///
/// The rules are ``V3Framing``'s.
///
/// Mutable state is `@exclusivity(unchecked)`: a sink belongs to one encoding run on one thread,
/// and no method keeps a property accessed while calling out (the dynamic checks cost about a
/// sixth of the streamed encoding).
final class V3Sink: ByteSink {
    @exclusivity(unchecked) private var buffer = GrowingBuffer()
    /// One per bracketed element: where its prefix goes and, once closed, its full length.
    @exclusivity(unchecked) private var prefixes: [(position: Int, length: Int)] = []
    /// The open bracketed nodes, innermost last; the first is the top level.
    @exclusivity(unchecked) private var contexts: [Context] = []
    @exclusivity(unchecked) private var depthLimit = 0
    @exclusivity(unchecked) private(set) var failure: SinkFailure?

    private struct Context {
        /// Inside keyed and unkeyed containers, nodes are elements; elsewhere they are written raw.
        let childrenAreElements: Bool
        /// The index of this node's entry in `prefixes`, or -1 when it has no prefix.
        let prefix: Int
        /// The bytes of prefixes nested in this node, which its own length includes.
        var nestedPrefixBytes = 0
    }

    init() {
        contexts.reserveCapacity(16)
    }

    /// Sets the sink up for a run with `maximumDepth` (``endRun()`` emptied it).
    private func reset(maximumDepth: Int, rootIsElement: Bool) {
        // Four nodes per level of the encoder's depth (DepthGuard); past that a streamed run
        // gives up, and a tree's replay reports the error.
        depthLimit = DepthGuard.nodeLimit(maximumDepth: maximumDepth)
        failure = nil
        while !contexts.isEmpty { contexts.removeLast() }
        contexts.append(Context(childrenAreElements: rootIsElement, prefix: -1))
    }

    @inline(__always)
    func endRun() {
        buffer.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes)
        prefixes.removeAll(keepingCapacityUpTo: RetentionLimits.sinkBytes / 16)
        contexts.releaseStorage(beyond: RetentionLimits.levels)
    }

    /// `value` in v3 bytes, streamed; `nil` if the streaming run gave up or the sink could not
    /// write what it was sent (the caller then encodes through the tree).
    ///
    /// `asStreamElement` writes the value as a stream element (`varint(length << 1)` and the value
    /// through its own `encode(to:)`, or `01` for nil), as `BinaryStreamEncoder` frames it.
    static func encode<T: Encodable>(_ value: T, options: TreeEncoder, asStreamElement: Bool = false) -> Data? {
        StreamingScratch.with { scratch in
            let streamer = scratch.v3
            streamer.sink.reset(maximumDepth: options.maximumDepth, rootIsElement: asStreamElement)
            return streamer.run(value, options: options, throughEncodable: asStreamElement)
        }
    }

    /// `tree`'s v3 bytes (as a stream element with `asElement`: `varint(length << 1)` and the
    /// bytes, or `01` for nil).
    static func write(_ tree: BinaryValue, maximumDepth: Int, asElement: Bool = false) throws -> Data {
        try StreamingScratch.with { scratch in
            let streamer = scratch.v3
            streamer.sink.reset(maximumDepth: maximumDepth, rootIsElement: asElement)
            return try streamer.write(tree)
        }
    }

    private var childrenAreElements: Bool {
        contexts[contexts.count &- 1].childrenAreElements
    }

    /// A leaf's bytes, out of line: inlined into `value(_:)`, the leaf switch measured +1.4%
    /// instructions on P2 encode.
    @inline(never)
    private static func writeLeaf(_ node: BinaryValue, to w: inout ByteWriter) {
        Scalars.write(node, to: &w)
    }

    /// A node sent whole that holds other nodes, written as its events. (Out of line: `value(_:)`
    /// stays small enough for its leaf path to be inlined.)
    @inline(never)
    private func sendEvents(of node: BinaryValue) {
        _ = TreeReplay.send(node, to: self)
    }

    @inline(never)
    private func fail(_ reason: SinkFailure = .unexpectedEvent) { failure = reason }

    // MARK: Events

    func value(_ node: BinaryValue) {
        // Leaves and packed arrays are written here, not through a shared helper taking the write
        // as a closure: that measured +5% instructions on P2 encode.
        if let size = Scalars.size(of: node) {
            if childrenAreElements {
                let prefix = V3Framing.elementPrefix(length: size)
                buffer.append(varintSize(prefix) &+ size) { w in
                    w.varint(prefix)
                    Self.writeLeaf(node, to: &w)
                }
            } else {
                buffer.append(size) { w in Self.writeLeaf(node, to: &w) }
            }
            return
        }
        switch node {
        case .nil, .optional(.none), .single(.nil):
            buffer.byte(V3Framing.nilByte)
        case .packed(let packed):
            let size = Scalars.size(of: packed)
            if childrenAreElements {
                let prefix = V3Framing.elementPrefix(length: size)
                buffer.append(varintSize(prefix) &+ size) { w in
                    w.varint(prefix)
                    Scalars.write(packed, to: &w)
                }
            } else {
                buffer.append(size) { w in Scalars.write(packed, to: &w) }
            }
        default:
            sendEvents(of: node)
        }
    }

    func strings(_ strings: [String]) {
        guard childrenAreElements else {
            for string in strings { value(.string(string)) }  // what the events mean anywhere else
            return
        }
        for string in strings {
            let size = string.utf8.count
            let prefix = V3Framing.elementPrefix(length: size)
            buffer.append(varintSize(prefix) &+ size) { w in
                w.varint(prefix)
                w.string(string)
            }
        }
    }

    func key(_ key: BinaryKey) {
        if !Self.append(key, to: &buffer) { fail(.negativeKey(key.intValue ?? 0)) }
    }

    /// Appends a key's bytes; `false` for a negative integer key, which has none.
    @inline(__always)
    private static func append(_ key: BinaryKey, to buffer: inout GrowingBuffer) -> Bool {
        if let i = key.intValue {
            guard i >= 0 else { return false }
            let prefix = V3Framing.intKeyPrefix(i)
            buffer.append(varintSize(prefix)) { w in w.varint(prefix) }
        } else {
            buffer.appendStringKey(key.stringValue) { count in V3Framing.stringKeyPrefix(byteCount: count) }
        }
        return true
    }

    func begin(_ kind: SinkNodeKind) {
        // `contexts` holds the top level too: `depthLimit` nested nodes are allowed.
        guard contexts.count <= depthLimit else { return fail(.tooDeep(limit: depthLimit)) }
        let containerChildren: Bool
        switch kind {
        case .keyed, .unkeyed: containerChildren = true
        case .single, .optional: containerChildren = false
        }
        if childrenAreElements {
            // An element: its prefix (the length of the content, without a nil flag) comes later.
            prefixes.append((buffer.count, 0))
            contexts.append(Context(childrenAreElements: containerChildren, prefix: prefixes.count &- 1))
        } else {
            // The top level or inside a wrapper: "a value follows".
            if !containerChildren { buffer.byte(V3Framing.someByte) }
            contexts.append(Context(childrenAreElements: containerChildren, prefix: -1))
        }
    }

    func end() {
        guard contexts.count > 1, let closed = contexts.popLast() else { return fail() }
        var nested = closed.nestedPrefixBytes
        if closed.prefix >= 0 {
            let start = prefixes[closed.prefix].position
            let length = buffer.count &- start &+ nested
            prefixes[closed.prefix].length = length
            nested &+= varintSize(V3Framing.elementPrefix(length: length))
        }
        contexts[contexts.count &- 1].nestedPrefixBytes &+= nested
    }

    // MARK: Output

    /// A copy of the bytes with every prefix in place; `nil` if anything failed or a node is
    /// still open. (A copy, so that the buffer serves the next run.)
    func finish() -> Data? {
        guard failure == nil, !buffer.failed, contexts.count == 1 else { return nil }
        let total = buffer.count &+ contexts[0].nestedPrefixBytes
        return try? Output.make(count: total) { w in
            var copied = 0
            for entry in prefixes {
                w.bytes(buffer.bytes(copied..<max(copied, entry.position)))
                w.varint(V3Framing.elementPrefix(length: entry.length))
                copied = max(copied, entry.position)
            }
            w.bytes(buffer.bytes(copied..<buffer.count))
        }
    }
}

extension V3Sink: DirectFieldSink {
    func fieldKeyBytes(_ key: BinaryKey) -> [UInt8]? { Self.keyBytes(key) }

    /// The bytes of `key` in a keyed container (``V3FieldCursor`` matches them as they are read).
    static func keyBytes(_ key: BinaryKey) -> [UInt8]? {
        bytes { append(key, to: &$0) }
    }

    /// The key, then the leaf as an element: `key(_:)` and `value(_:)` inside a keyed node.
    func field(_ key: UnsafeRawBufferPointer, _ leaf: BinaryValue) {
        guard childrenAreElements, let size = Scalars.size(of: leaf) else { return fail() }
        let prefix = V3Framing.elementPrefix(length: size)
        buffer.append(key.count &+ varintSize(prefix) &+ size) { w in
            for byte in key { w.byte(byte) }  // a key is a few bytes: no call to copy them
            w.varint(prefix)
            Self.writeLeaf(leaf, to: &w)
        }
    }
}
