import Foundation

/// Bytes appended to memory that grows by doubling, for writers that cannot size their output
/// first (the streaming encoder). Every write goes through a ``ByteWriter`` over exactly the
/// bytes reserved for it, so a write that does not match its reservation is caught, never a
/// write past the memory. Non-copyable: it owns its memory, which its `deinit` frees.
struct GrowingBuffer: ~Copyable {
    private(set) var base: UnsafeMutableRawPointer?
    private(set) var count = 0
    private(set) var capacity = 0
    /// Set when memory could not be had or a write did not fill its reservation; the bytes are
    /// then unusable.
    private(set) var failed = false

    init(initialCapacity: Int = 256) {
        _ = reserve(max(initialCapacity, 1))
    }

    deinit { free(base) }

    /// Makes room for `n` more bytes; `false` (and ``failed``) if that is impossible.
    @inline(__always)
    private mutating func reserve(_ n: Int) -> Bool {
        if _fastPath(n >= 0 && n <= capacity &- count) { return true }
        return grow(n)
    }

    @inline(never)
    private mutating func grow(_ n: Int) -> Bool {
        let (needed, overflow) = count.addingReportingOverflow(n)
        guard n >= 0, !overflow else {
            failed = true
            return false
        }
        var newCapacity = max(capacity, 64)
        while newCapacity < needed {
            let (doubled, o) = newCapacity.multipliedReportingOverflow(by: 2)
            newCapacity = o ? needed : doubled
        }
        guard let memory = realloc(base, newCapacity) else {
            failed = true
            return false
        }
        base = memory
        capacity = newCapacity
        return true
    }

    /// Appends exactly `n` bytes written by `body`.
    @inline(__always)
    mutating func append(_ n: Int, _ body: (inout ByteWriter) -> Void) {
        guard !failed, reserve(n), let base else {
            failed = true
            return
        }
        var writer = ByteWriter(base: base + count, capacity: n)
        body(&writer)
        guard !writer.overflowed, writer.offset == n else {
            failed = true
            return
        }
        count &+= n
    }

    /// Appends a string key: the varint `head(utf8Count)` (each format packs the count with its
    /// flags), then the key's UTF-8 bytes.
    @inline(__always)
    mutating func appendStringKey(_ key: String, head: (_ utf8Count: Int) -> UInt64) {
        let count = key.utf8.count
        let bits = head(count)
        append(varintSize(bits) &+ count) { w in
            w.varint(bits)
            w.string(key)
        }
    }

    /// Appends one byte.
    @inline(__always)
    mutating func byte(_ b: UInt8) {
        guard !failed, reserve(1), let base else {
            failed = true
            return
        }
        base.storeBytes(of: b, toByteOffset: count, as: UInt8.self)
        count &+= 1
    }

    /// Sets bits `bits` in the written byte at `offset`; a bad offset marks the buffer ``failed``.
    mutating func setBits(_ bits: UInt8, at offset: Int) {
        guard let base, offset >= 0, offset < count else {
            failed = true
            return
        }
        let old = base.load(fromByteOffset: offset, as: UInt8.self)
        base.storeBytes(of: old | bits, toByteOffset: offset, as: UInt8.self)
    }

    /// Forgets the bytes written from `offset` on; a bad offset marks the buffer ``failed``.
    mutating func truncate(to offset: Int) {
        guard offset >= 0, offset <= count else {
            failed = true
            return
        }
        count = offset
    }

    /// The bytes `range` of what was written; empty if the range is not inside the written bytes.
    func bytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        guard let base, range.lowerBound >= 0, range.upperBound <= count else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        return UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// Forgets the written bytes; keeps the memory unless it is larger than `limit` bytes, and then
    /// keeps a little: an append of no bytes needs memory to point at (it failed the buffer).
    mutating func removeAll(keepingCapacityUpTo limit: Int) {
        count = 0
        failed = false
        if capacity > limit {
            free(base)
            base = nil
            capacity = 0
            _ = reserve(max(1, min(limit, 256)))
        }
    }
}
