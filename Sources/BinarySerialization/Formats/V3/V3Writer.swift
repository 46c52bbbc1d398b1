import Foundation
import TreeCoding

/// Serializes a tree in the v3 format: one pass to size every container (cached, so nesting
/// costs O(n), not O(n·depth)), one allocation, one pass to write.
///
/// Contexts: at the top level and inside a single-value container a node is written "raw"
/// (a `.single`/`.optional` adds a nil byte: `00` value, `01` nil); inside a keyed or unkeyed
/// container a node is an "element": `varint(length << 1)` then its bytes, or `01` for nil
/// (the nil flag folds into the length prefix).
struct V3Writer {
    /// Sizes of the non-leaf nodes, in pre-order; filled by `measure`, read back by `write`.
    private var sizes: [Int] = []
    private var cursor = 0
    private var depth = DepthGuard()

    static func serialize(_ tree: BinaryValue, maximumDepth: Int) throws -> Data {
        var writer = V3Writer()
        writer.depth.setMaximumDepth(maximumDepth)
        let total = try writer.rawSize(tree)
        return try Output.make(count: total) { w in writer.writeRaw(tree, to: &w) }
    }

    /// Serializes a tree as one element of a container or stream: `varint(length << 1)` and the
    /// bytes, or `01` for nil.
    static func serializeElement(_ tree: BinaryValue, maximumDepth: Int) throws -> Data {
        var writer = V3Writer()
        writer.depth.setMaximumDepth(maximumDepth)
        let total = try writer.elementSize(tree)
        return try Output.make(count: total) { w in writer.writeElement(tree, to: &w) }
    }

    /// Appends `tree` to `buffer`, as an element or raw; `false` if it cannot be written.
    mutating func append(_ tree: BinaryValue, asElement: Bool, to buffer: inout GrowingBuffer, maximumDepth: Int)
        -> Bool
    {
        depth.setMaximumDepth(maximumDepth)
        guard let total = try? (asElement ? elementSize(tree) : rawSize(tree)) else { return false }
        var writer = self
        buffer.append(total) { w in
            if asElement { writer.writeElement(tree, to: &w) } else { writer.writeRaw(tree, to: &w) }
        }
        return !buffer.failed
    }

    // MARK: Size pass

    /// The size of `value` written raw; records the size of every non-leaf node.
    private mutating func rawSize(_ value: BinaryValue) throws -> Int {
        if let leaf = Scalars.size(of: value) { return leaf }
        try depth.enter()
        defer { depth.leave() }
        let slot = sizes.count
        sizes.append(0)
        var total = 0
        switch value {
        case .nil, .optional(.none), .single(.nil):
            total = 1
        case .single(let inner), .optional(.some(let inner)):
            total = 1 + (try rawSize(inner))
        case .packed(let p):
            total = Scalars.size(of: p)
        case .unkeyed(let elements):
            for (i, e) in elements.enumerated() {
                total += try WriterPath.under(WriterPath.indexKey(i)) { try elementSize(e) }
            }
        case .keyed(let fields):
            for f in fields.fields {
                total += try WriterPath.under(f.key) { try keySize(f.key) + elementSize(f.value) }
            }
        default:
            break
        }
        sizes[slot] = total
        return total
    }

    private mutating func elementSize(_ value: BinaryValue) throws -> Int {
        switch value {
        case .nil, .optional(.none), .single(.nil):
            return 1
        case .single(let inner), .optional(.some(let inner)):
            // The wrapper's slot, then the content without the nil byte.
            let slot = sizes.count
            sizes.append(0)
            let content = try rawSize(inner)
            sizes[slot] = content + 1
            return varintSize(V3Framing.elementPrefix(length: content)) + content
        default:
            let content = try rawSize(value)
            return varintSize(V3Framing.elementPrefix(length: content)) + content
        }
    }

    private func keySize(_ key: BinaryKey) throws -> Int {
        if let i = key.intValue {
            return varintSize(try Self.intKeyBits(i))
        }
        let n = key.stringValue.utf8.count
        return varintSize(V3Framing.stringKeyPrefix(byteCount: n)) + n
    }

    /// Integer keys are written as `varint(key << 1)`: any key from 0 to `Int.max` (the shifted
    /// value fits 64 bits). Negative keys have no v3 encoding.
    static func intKeyBits(_ key: Int) throws -> UInt64 {
        guard key >= 0 else {
            throw EncodingError.invalidValue(
                key, .init(codingPath: [], debugDescription: "Integer key \(key) is negative, which v3 cannot write."))
        }
        return V3Framing.intKeyPrefix(key)
    }

    // MARK: Write pass

    /// The recorded size of the next non-leaf node, or the size of a leaf.
    private func peekSize(_ value: BinaryValue) -> Int {
        if let leaf = Scalars.size(of: value) { return leaf }
        return sizes[cursor]
    }

    private mutating func writeRaw(_ value: BinaryValue, to w: inout ByteWriter) {
        if Scalars.size(of: value) != nil {
            Scalars.write(value, to: &w)
            return
        }
        cursor += 1
        switch value {
        case .nil, .optional(.none), .single(.nil):
            w.byte(V3Framing.nilByte)
        case .single(let inner), .optional(.some(let inner)):
            w.byte(V3Framing.someByte)
            writeRaw(inner, to: &w)
        case .packed(let p):
            Scalars.write(p, to: &w)
        case .unkeyed(let elements):
            for e in elements { writeElement(e, to: &w) }
        case .keyed(let fields):
            for f in fields.fields {
                writeKey(f.key, to: &w)
                writeElement(f.value, to: &w)
            }
        default:
            break
        }
    }

    private mutating func writeElement(_ value: BinaryValue, to w: inout ByteWriter) {
        switch value {
        case .nil, .optional(.none), .single(.nil):
            w.byte(V3Framing.nilByte)
        case .single(let inner), .optional(.some(let inner)):
            cursor += 1
            w.varint(V3Framing.elementPrefix(length: peekSize(inner)))
            writeRaw(inner, to: &w)
        default:
            w.varint(V3Framing.elementPrefix(length: peekSize(value)))
            writeRaw(value, to: &w)
        }
    }

    private func writeKey(_ key: BinaryKey, to w: inout ByteWriter) {
        if let i = key.intValue {
            w.varint(V3Framing.intKeyPrefix(i))  // checked non-negative by the size pass
        } else {
            w.varint(V3Framing.stringKeyPrefix(byteCount: key.stringValue.utf8.count))
            w.string(key.stringValue)
        }
    }
}

/// The output buffer: allocated once at its exact size and handed to `Data` without a copy
/// (a small one is written on the stack and copied: ``copiedLimit``).
enum Output {
    /// Outputs of up to this many bytes are written into a temporary buffer on the stack and
    /// copied into a `Data` of their own. A `Data` that takes a buffer with a deallocator costs
    /// more to make and to free (Foundation's exclusivity checks on its storage, the
    /// deallocator's call) than a small copy: a 24-byte P1 encode ran 84 instructions fewer with a
    /// copy from the heap, an 890-byte P5 encode 20 more.
    static let copiedLimit = 256

    /// Allocates `count` bytes, lets `body` fill them, and checks it wrote exactly `count`.
    ///
    /// - Throws: the error of `body`, or an `EncodingError` when the writes did not fill the
    ///   buffer exactly (the size pass and the write pass disagree: an internal inconsistency).
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
                    "Internal inconsistency: the size pass measured \(expected) bytes but the write pass \(wrote); nothing was written past the buffer."
            ))
    }
}

/// Bounds the nesting of nodes a writer recurses into, so a hand-built tree deeper than the limit
/// is an `EncodingError` rather than a stack overflow. Every non-leaf node counts (a value nested
/// `maximumDepth` deep can have a container, a single-value and an optional wrapper per level),
/// so the limit is four nodes per level of the encoder's `maximumDepth`.
struct DepthGuard {
    private(set) var limit = 2048
    private var depth = 0

    mutating func setMaximumDepth(_ maximumDepth: Int) {
        limit = Self.nodeLimit(maximumDepth: maximumDepth)
    }

    /// The node nesting allowed for an encoder's `maximumDepth` (the streaming sinks give up past it).
    static func nodeLimit(maximumDepth: Int) -> Int {
        let (limit, overflow) = maximumDepth.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : limit
    }

    @inline(__always)
    mutating func enter() throws {
        depth += 1
        guard depth <= limit else {
            throw EncodingError.invalidValue(
                depth,
                .init(codingPath: [], debugDescription: "The tree is nested deeper than the maximum depth of \(limit).")
            )
        }
    }

    @inline(__always)
    mutating func leave() { depth -= 1 }
}
