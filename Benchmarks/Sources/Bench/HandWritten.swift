// Hand-written serializers for the exact types of P2 and P3: the practical limit.
//
// They write the same kind of bytes as v3 (zig-zag varints for signed integers, big-endian
// Float/Double, one byte per Bool, length-prefixed UTF-8 strings) into a `[UInt8]` allocated
// once at an upper bound of the size, and read them back with a bounds check before every read.
// No Codable, no tree, no keys: what a careful programmer would write by hand for one type.
import BenchSupport
import Foundation

struct HandError: Error, CustomStringConvertible {
    var description: String
}

/// A coder for one type, written by hand.
struct HandCoder<T> {
    var encode: (T) -> [UInt8]
    var decode: (Data) throws -> T
}

// MARK: - Writer

/// Writes into memory sized beforehand (the caller guarantees the room).
struct HandWriter {
    let base: UnsafeMutablePointer<UInt8>
    var offset = 0

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        base[offset] = b
        offset &+= 1
    }

    /// Base-128 varint, at most 9 bytes (the 9th carries the top 8 bits), as in BinaryCodable.
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var v = value
        for _ in 0..<8 {
            if v < 0x80 {
                byte(UInt8(truncatingIfNeeded: v))
                return
            }
            byte(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        byte(UInt8(truncatingIfNeeded: v))
    }

    @inline(__always)
    mutating func zigZag(_ v: Int) {
        let x = Int64(v)
        varint(UInt64(bitPattern: (x << 1) ^ (x >> 63)))
    }

    @inline(__always)
    mutating func bigEndian<I: FixedWidthInteger>(_ v: I) {
        UnsafeMutableRawPointer(base + offset).storeBytes(of: v.bigEndian, as: I.self)
        offset &+= MemoryLayout<I>.size
    }

    @inline(__always)
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            if let p = utf8.baseAddress {
                (base + offset).update(from: p, count: utf8.count)
            }
            offset &+= utf8.count
        }
    }

    /// An array of `upperBound` capacity filled by `body`, trimmed to what was written.
    static func bytes(upperBound: Int, _ body: (inout HandWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: upperBound) { buffer, count in
            var w = HandWriter(base: buffer.baseAddress!)
            body(&w)
            precondition(w.offset <= upperBound, "hand-written size bound is wrong")
            count = w.offset
        }
    }
}

// MARK: - Reader

/// Reads from a buffer, checking the remaining length before every read.
struct HandReader {
    let buffer: UnsafeRawBufferPointer
    var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var remaining: Int { buffer.count - offset }

    @inline(__always)
    mutating func byte() throws -> UInt8 {
        guard offset < buffer.count else { throw HandError(description: "unexpected end") }
        let b = buffer[offset]
        offset &+= 1
        return b
    }

    @inline(__always)
    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        for i in 0..<8 {
            let b = try byte()
            result |= UInt64(b & 0x7F) << UInt64(7 * i)
            if b < 0x80 { return result }
        }
        return result | UInt64(try byte()) << 56
    }

    /// A varint when at least 9 bytes remain (the caller checked).
    @inline(__always)
    mutating func varintUnchecked() -> UInt64 {
        var result: UInt64 = 0
        for i in 0..<8 {
            let b = buffer[offset]
            offset &+= 1
            result |= UInt64(b & 0x7F) << UInt64(7 * i)
            if b < 0x80 { return result }
        }
        let b = buffer[offset]
        offset &+= 1
        return result | UInt64(b) << 56
    }

    @inline(__always)
    mutating func zigZag() throws -> Int {
        let u = try varint()
        return Int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))))
    }

    @inline(__always)
    mutating func bigEndian<I: FixedWidthInteger>(_: I.Type) throws -> I {
        guard remaining >= MemoryLayout<I>.size else { throw HandError(description: "unexpected end") }
        let v = buffer.loadUnaligned(fromByteOffset: offset, as: I.self)
        offset &+= MemoryLayout<I>.size
        return I(bigEndian: v)
    }

    @inline(__always)
    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw HandError(description: "bad Bool")
        }
    }

    /// An element count, checked against the bytes that remain (`minimumElementSize` each).
    @inline(__always)
    mutating func count(minimumElementSize: Int) throws -> Int {
        let n = try varint()
        guard n <= UInt64(remaining / minimumElementSize) else { throw HandError(description: "count too large") }
        return Int(n)
    }

    @inline(__always)
    mutating func string() throws -> String {
        let n = try count(minimumElementSize: 1)
        let s = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + n]), as: UTF8.self)
        offset += n
        return s
    }

    func finish() throws {
        guard offset == buffer.count else { throw HandError(description: "trailing bytes") }
    }
}

private func readAll<T>(_ data: Data, _ body: (inout HandReader) throws -> T) throws -> T {
    try data.withUnsafeBytes { buffer in
        var r = HandReader(buffer)
        let value = try body(&r)
        try r.finish()
        return value
    }
}

// MARK: - Coders

enum Hand {
    static let records = HandCoder<[Record]>(
        encode: { records in
            // Upper bound: fixed parts + varint lengths + string bytes + tags.
            var bound = 9
            for r in records {
                bound += 9 + 9 + 1 + 8 + 4 + 1 + (9 + r.name.utf8.count) + 1 + (9 + (r.note?.utf8.count ?? 0))
                    + 9 + 9 * r.tags.count + 9 + 9
            }
            return HandWriter.bytes(upperBound: bound) { w in
                w.varint(UInt64(records.count))
                for r in records {
                    w.zigZag(r.id)
                    w.zigZag(Int(r.count))
                    w.byte(r.flags)
                    w.bigEndian(r.score.bitPattern)
                    w.bigEndian(r.ratio.bitPattern)
                    w.byte(r.isActive ? 1 : 0)
                    w.string(r.name)
                    if let note = r.note {
                        w.byte(1)
                        w.string(note)
                    } else {
                        w.byte(0)
                    }
                    w.varint(UInt64(r.tags.count))
                    for t in r.tags { w.zigZag(t) }
                    w.zigZag(Int(r.position.x))
                    w.zigZag(Int(r.position.y))
                }
            }
        },
        decode: { data in
            try readAll(data) { r in
                // A record takes at least 30 bytes.
                let n = try r.count(minimumElementSize: 30)
                var result: [Record] = []
                result.reserveCapacity(n)
                for _ in 0..<n {
                    let id = try r.zigZag()
                    guard let count = Int32(exactly: try r.zigZag()) else { throw HandError(description: "Int32 overflow") }
                    let flags = try r.byte()
                    let score = Double(bitPattern: try r.bigEndian(UInt64.self))
                    let ratio = Float(bitPattern: try r.bigEndian(UInt32.self))
                    let isActive = try r.bool()
                    let name = try r.string()
                    let note: String? = try r.bool() ? try r.string() : nil
                    let tagCount = try r.count(minimumElementSize: 1)
                    var tags: [Int] = []
                    tags.reserveCapacity(tagCount)
                    for _ in 0..<tagCount { tags.append(try r.zigZag()) }
                    guard let x = Int32(exactly: try r.zigZag()), let y = Int32(exactly: try r.zigZag()) else {
                        throw HandError(description: "Int32 overflow")
                    }
                    result.append(Record(
                        id: id, count: count, flags: flags, score: score, ratio: ratio, isActive: isActive,
                        name: name, note: note, tags: tags, position: Point(x: x, y: y)))
                }
                return result
            }
        })

    static let ints = HandCoder<[Int]>(
        encode: { values in
            HandWriter.bytes(upperBound: 9 + 9 * values.count) { w in
                w.varint(UInt64(values.count))
                for v in values { w.zigZag(v) }
            }
        },
        decode: { data in
            try readAll(data) { r in
                let n = try r.count(minimumElementSize: 1)
                return try [Int](unsafeUninitializedCapacity: n) { buffer, count in
                    for i in 0..<n {
                        // No per-byte bounds check while a whole varint fits.
                        let u = r.remaining >= 9 ? r.varintUnchecked() : try r.varint()
                        buffer.initializeElement(at: i, to: Int(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))))
                        count = i + 1
                    }
                }
            }
        })

    static let doubles = HandCoder<[Double]>(
        encode: { values in
            HandWriter.bytes(upperBound: 9 + 8 * values.count) { w in
                w.varint(UInt64(values.count))
                for v in values { w.bigEndian(v.bitPattern) }
            }
        },
        decode: { data in
            try readAll(data) { r in
                let n = try r.count(minimumElementSize: 8)
                // One bounds check for the whole array, then a plain loop.
                let source = r.buffer.baseAddress! + r.offset
                r.offset += 8 * n
                return [Double](unsafeUninitializedCapacity: n) { buffer, count in
                    for i in 0..<n {
                        let bits = source.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                        buffer.initializeElement(at: i, to: Double(bitPattern: UInt64(bigEndian: bits)))
                    }
                    count = n
                }
            }
        })

    static let bools = HandCoder<[Bool]>(
        encode: { values in
            HandWriter.bytes(upperBound: 9 + values.count) { w in
                w.varint(UInt64(values.count))
                for v in values { w.byte(v ? 1 : 0) }
            }
        },
        decode: { data in
            try readAll(data) { r in
                let n = try r.count(minimumElementSize: 1)
                let source = (r.buffer.baseAddress! + r.offset).assumingMemoryBound(to: UInt8.self)
                r.offset += n
                // One loop: convert each byte, and remember whether any was not 0 or 1.
                var invalid: UInt8 = 0
                let result = [Bool](unsafeUninitializedCapacity: n) { buffer, count in
                    for i in 0..<n {
                        let b = source[i]
                        invalid |= b & 0xFE
                        buffer.initializeElement(at: i, to: b != 0)
                    }
                    count = n
                }
                guard invalid == 0 else { throw HandError(description: "bad Bool") }
                return result
            }
        })
}
