import Foundation
import TreeCoding

/// The bytes of primitive leaves and packed arrays, which both formats share.
enum Scalars {
    // MARK: Sizes

    /// The byte size of a leaf; `nil` if `value` is not a leaf.
    @inline(__always)
    static func size(of value: BinaryValue) -> Int? {
        switch value {
        case .bool, .int8, .uint8: return 1
        case .int16(let v, let e): return integerSize(UInt64(UInt16(bitPattern: v)), zigZag(v), e, width: 2)
        case .uint16(let v, let e): return integerSize(UInt64(v), UInt64(v), e, width: 2)
        case .int32(let v, let e): return integerSize(UInt64(UInt32(bitPattern: v)), zigZag(v), e, width: 4)
        case .uint32(let v, let e): return integerSize(UInt64(v), UInt64(v), e, width: 4)
        case .int64(let v, let e): return integerSize(UInt64(bitPattern: v), zigZag(v), e, width: 8)
        case .uint64(let v, let e): return integerSize(v, v, e, width: 8)
        case .int(let v, let e): return integerSize(UInt64(bitPattern: Int64(v)), zigZag(Int64(v)), e, width: 8)
        case .uint(let v, let e): return integerSize(UInt64(v), UInt64(v), e, width: 8)
        case .float: return 4
        case .double: return 8
        case .string(let s): return s.utf8.count
        case .data(let d), .unknown(let d): return d.count  // v3 writes unknown content as stored
        default: return nil
        }
    }

    @inline(__always)
    private static func integerSize(_ bits: UInt64, _ zz: UInt64, _ e: IntegerEncoding, width: Int) -> Int {
        switch e {
        case .fixed: return width
        case .varint: return varintSize(bits)
        case .zigZag: return varintSize(zz)
        }
    }

    /// Whether a packed array's size depends on its values (and is worth caching).
    static func isVariable(_ packed: PackedArray) -> Bool {
        switch packed {
        case .int32, .uint32, .int64, .uint64, .int, .uint: return true
        default: return false
        }
    }

    static func size(of packed: PackedArray) -> Int {
        switch packed {
        case .bool(let a): return a.count
        case .int8(let a): return a.count
        case .uint8(let a): return a.count
        case .int16(let a): return a.count &* 2
        case .uint16(let a): return a.count &* 2
        case .float(let a): return a.count &* 4
        case .double(let a): return a.count &* 8
        case .int32(let a): return a.reduce(0) { $0 &+ varintSize(zigZag($1)) }
        case .int64(let a): return a.reduce(0) { $0 &+ varintSize(zigZag($1)) }
        case .int(let a): return a.reduce(0) { $0 &+ varintSize(zigZag(Int64($1))) }
        case .uint32(let a): return a.reduce(0) { $0 &+ varintSize(UInt64($1)) }
        case .uint64(let a): return a.reduce(0) { $0 &+ varintSize($1) }
        case .uint(let a): return a.reduce(0) { $0 &+ varintSize(UInt64($1)) }
        }
    }

    // MARK: Writing

    /// Writes a leaf (the caller checked it is one with ``size(of:)``).
    @inline(__always)
    static func write(_ value: BinaryValue, to w: inout ByteWriter) {
        switch value {
        case .string(let s): w.string(s)
        case .data(let d), .unknown(let d): writeBytes(d, to: &w)
        default: writeNumber(value, to: &w)
        }
    }

    /// Writes `Data` (out of line: its closure made ``write(_:to:)`` too large to inline).
    @inline(never)
    private static func writeBytes(_ d: Data, to w: inout ByteWriter) {
        d.withUnsafeBytes { w.bytes($0) }
    }

    /// Writes a Bool, integer or float leaf.
    @inline(__always)
    private static func writeNumber(_ value: BinaryValue, to w: inout ByteWriter) {
        switch value {
        case .bool(let b): w.byte(b ? 1 : 0)
        case .int8(let v): w.byte(UInt8(bitPattern: v))
        case .uint8(let v): w.byte(v)
        case .int16(let v, let e): writeInteger(UInt64(UInt16(bitPattern: v)), zigZag(v), e, v, to: &w)
        case .uint16(let v, let e): writeInteger(UInt64(v), UInt64(v), e, v, to: &w)
        case .int32(let v, let e): writeInteger(UInt64(UInt32(bitPattern: v)), zigZag(v), e, v, to: &w)
        case .uint32(let v, let e): writeInteger(UInt64(v), UInt64(v), e, v, to: &w)
        case .int64(let v, let e): writeInteger(UInt64(bitPattern: v), zigZag(v), e, v, to: &w)
        case .uint64(let v, let e): writeInteger(v, v, e, v, to: &w)
        case .int(let v, let e): writeInteger(UInt64(bitPattern: Int64(v)), zigZag(Int64(v)), e, Int64(v), to: &w)
        case .uint(let v, let e): writeInteger(UInt64(v), UInt64(v), e, UInt64(v), to: &w)
        case .float(let f): w.bigEndian(f.bitPattern)
        case .double(let d): w.bigEndian(d.bitPattern)
        default: break
        }
    }

    @inline(__always)
    private static func writeInteger<T: FixedWidthInteger>(
        _ bits: UInt64, _ zz: UInt64, _ e: IntegerEncoding, _ fixed: T, to w: inout ByteWriter
    ) {
        switch e {
        case .fixed: w.littleEndian(fixed)
        case .varint: w.varint(bits)
        case .zigZag: w.varint(zz)
        }
    }

    static func write(_ packed: PackedArray, to w: inout ByteWriter) {
        switch packed {
        case .bool(let a): for b in a { w.byte(b ? 1 : 0) }
        case .int8(let a): a.withUnsafeBytes { w.bytes($0) }
        case .uint8(let a): a.withUnsafeBytes { w.bytes($0) }
        case .int16(let a): writeLittleEndian(a, to: &w)
        case .uint16(let a): writeLittleEndian(a, to: &w)
        case .float(let a): for f in a { w.bigEndian(f.bitPattern) }
        case .double(let a): for d in a { w.bigEndian(d.bitPattern) }
        case .int32(let a): for v in a { w.varint(zigZag(v)) }
        case .int64(let a): for v in a { w.varint(zigZag(v)) }
        case .int(let a): for v in a { w.varint(zigZag(Int64(v))) }
        case .uint32(let a): for v in a { w.varint(UInt64(v)) }
        case .uint64(let a): for v in a { w.varint(v) }
        case .uint(let a): for v in a { w.varint(UInt64(v)) }
        }
    }

    private static func writeLittleEndian<T: FixedWidthInteger>(_ a: [T], to w: inout ByteWriter) {
        #if _endian(little)
            a.withUnsafeBytes { w.bytes($0) }
        #else
            for v in a { w.littleEndian(v) }
        #endif
    }

    // MARK: Reading

    /// Reads a primitive of `kind`. Strings and data take every remaining byte of `r`.
    static func read(_ kind: ScalarKind, from r: inout ByteReader) throws -> BinaryValue {
        switch kind {
        case .string:
            return .string(try readString(&r))
        case .data:
            let bytes = UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<r.end])
            r.offset = r.end
            return .data(Data(bytes))
        default:
            return try kind.leaf(bits: readBits(kind, from: &r))
        }
    }

    /// Reads a fixed-size primitive of `kind` (any but a string or data) as its bits (see
    /// ``ScalarKind/leaf(bits:)``), without a leaf around them: typed decoding reads its
    /// primitives this way.
    @inline(__always)
    static func readBits(_ kind: ScalarKind, from r: inout ByteReader) throws -> UInt64 {
        switch kind {
        case .bool:
            let start = r.offset
            let b = try r.byte()
            guard b <= 1 else {
                throw WireFormatError(.invalidBytes, "a Bool must be 0 or 1, found \(b)", offset: start)
            }
            return UInt64(b)
        case .int8, .uint8: return UInt64(try r.byte())
        case .int16(let e):
            switch e {
            case .fixed: return UInt64(try r.littleEndian(UInt16.self))
            case .varint: return UInt64(try r.varint(as: UInt16.self))
            case .zigZag: return UInt64(bitPattern: unZigZag(UInt64(try r.varint(as: UInt16.self))))
            }
        case .uint16(let e):
            switch e {
            case .fixed: return UInt64(try r.littleEndian(UInt16.self))
            case .varint, .zigZag: return UInt64(try r.varint(as: UInt16.self))
            }
        case .int32(let e):
            switch e {
            case .fixed: return UInt64(try r.littleEndian(UInt32.self))
            case .varint: return UInt64(try r.varint(as: UInt32.self))
            case .zigZag: return UInt64(bitPattern: unZigZag(UInt64(try r.varint(as: UInt32.self))))
            }
        case .uint32(let e):
            switch e {
            case .fixed: return UInt64(try r.littleEndian(UInt32.self))
            case .varint, .zigZag: return UInt64(try r.varint(as: UInt32.self))
            }
        case .int64(let e), .int(let e):
            switch e {
            case .fixed: return try r.littleEndian(UInt64.self)
            case .varint: return try r.varint()
            case .zigZag: return UInt64(bitPattern: unZigZag(try r.varint()))
            }
        case .uint64(let e), .uint(let e):
            switch e {
            case .fixed: return try r.littleEndian(UInt64.self)
            case .varint, .zigZag: return try r.varint()
            }
        case .float: return UInt64(try r.bigEndian(UInt32.self))
        case .double: return try r.bigEndian(UInt64.self)
        case .string, .data:
            throw WireFormatError(.unsupported, "a \(kind) is not a fixed-size primitive", offset: r.offset)
        }
    }

    /// Reads a packed array filling all of `r`.
    static func readPacked(_ kind: PackedArray.Kind, from r: inout ByteReader) throws -> PackedArray {
        switch kind {
        case .bool:
            let bytes = UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<r.end])
            if !allZeroOrOne(bytes), let bad = bytes.firstIndex(where: { $0 > 1 }) {
                throw WireFormatError(
                    .invalidBytes, "a Bool must be 0 or 1, found \(bytes[bad])", offset: r.offset + bad)
            }
            r.offset = r.end
            if bytes.isEmpty { return .bool([]) }
            // Every byte is 0 or 1, which is exactly how a Bool is stored: copy them.
            return .bool(
                [Bool](unsafeUninitializedCapacity: bytes.count) { out, initialized in
                    if let base = out.baseAddress, let source = bytes.baseAddress {
                        UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: bytes.count)
                    }
                    initialized = bytes.count
                })
        case .int8: return .int8(try readFixed(&r, Int8.self) { $0 })
        case .uint8:
            let bytes = Array(UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<r.end]))
            r.offset = r.end
            return .uint8(bytes)
        case .int16: return .int16(try readFixed(&r, Int16.self) { Int16(littleEndian: $0) })
        case .uint16: return .uint16(try readFixed(&r, UInt16.self) { UInt16(littleEndian: $0) })
        case .float: return .float(try readFixed(&r, UInt32.self) { Float(bitPattern: UInt32(bigEndian: $0)) })
        case .double: return .double(try readFixed(&r, UInt64.self) { Double(bitPattern: UInt64(bigEndian: $0)) })
        case .int32:
            return .int32(
                try readVarints(&r) { u, at in
                    guard u <= UInt64(UInt32.max) else { throw tooLarge(u, Int32.self, at) }
                    return Int32(truncatingIfNeeded: unZigZag(u))
                })
        case .uint32:
            return .uint32(
                try readVarints(&r) { u, at in
                    guard let v = UInt32(exactly: u) else { throw tooLarge(u, UInt32.self, at) }
                    return v
                })
        case .int64: return .int64(try readVarints(&r) { u, _ in unZigZag(u) })
        case .int: return .int(try readVarints(&r) { u, _ in Int(unZigZag(u)) })
        case .uint64: return .uint64(try readVarints(&r) { u, _ in u })
        case .uint: return .uint(try readVarints(&r) { u, _ in UInt(u) })
        }
    }

    /// Whether every byte is 0 or 1, eight bytes at a time.
    @inline(__always)
    private static func allZeroOrOne(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        var high: UInt64 = 0
        while i &+ 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        while i < bytes.count {
            high |= UInt64(bytes[i])
            i &+= 1
        }
        return high & 0xfefe_fefe_fefe_fefe == 0
    }

    private static func tooLarge(_ u: UInt64, _ type: Any.Type, _ offset: Int) -> WireFormatError {
        WireFormatError(.invalidBytes, "varint \(u) does not fit \(type)", offset: offset)
    }

    /// Fixed-width elements: the region must be a whole number of elements.
    @inline(__always)
    private static func readFixed<Raw: FixedWidthInteger, T>(
        _ r: inout ByteReader, _ raw: Raw.Type, _ convert: (Raw) -> T
    ) throws -> [T] {
        let width = MemoryLayout<Raw>.size
        guard r.remaining % width == 0 else {
            throw WireFormatError(
                .invalidBytes, "\(r.remaining) bytes is not a whole number of \(width)-byte elements", offset: r.offset)
        }
        let count = r.remaining / width
        // No empty array through `unsafeUninitializedCapacity`: it writes the count of the shared
        // empty-array storage, a (benign) write that ThreadSanitizer reports across threads.
        if count == 0 { return [] }
        let base = r.buffer
        let start = r.offset
        let result = [T](unsafeUninitializedCapacity: count) { out, initialized in
            guard let p = out.baseAddress else {
                initialized = 0
                return
            }
            for i in 0..<count {
                (p + i).initialize(
                    to: convert(base.loadUnaligned(fromByteOffset: start + i * width, as: Raw.self)))
            }
            initialized = count
        }
        r.offset = r.end
        return result
    }

    /// Varint elements: one pass counts them, the second decodes into an exactly sized array.
    ///
    /// The passes read the bytes through a raw pointer; the count pass proves that every varint
    /// ends inside the region, so the decode pass needs no bounds checks of its own.
    @inline(__always)
    private static func readVarints<T>(
        _ r: inout ByteReader, _ convert: (UInt64, Int) throws -> T
    ) throws -> [T] {
        let start = r.offset
        let end = r.end
        guard start < end, let p = r.buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return [] }
        // Count: a varint ends at a byte below 0x80, or at its ninth byte.
        var count = 0
        var run = 0
        var i = start
        while i < end {
            if p[i] < 0x80 || run == 8 {
                count &+= 1
                run = 0
            } else {
                run &+= 1
            }
            i &+= 1
        }
        if run != 0 {
            var error = WireFormatError(.truncated, "the data ends inside a varint", offset: end - run)
            if r.isOpenEnded { error.regionEnd = end }
            throw error
        }
        r.offset = end
        return try [T](unsafeUninitializedCapacity: count) { out, initialized in
            initialized = 0
            guard let o = out.baseAddress else { return }
            var i = start
            var k = 0
            while i < end {
                let at = i
                let first = p[i]
                i &+= 1
                var value: UInt64
                if first < 0x80 {
                    value = UInt64(first)
                } else {
                    value = UInt64(first & 0x7f)
                    var shift: UInt64 = 7
                    var length = 1
                    while true {
                        let b = p[i]
                        i &+= 1
                        length &+= 1
                        if length == 9 {
                            if b == 0 { throw WireFormatError(.invalidBytes, "over-long varint", offset: at) }
                            value |= UInt64(b) << 56
                            break
                        }
                        value |= UInt64(b & 0x7f) << shift
                        if b < 0x80 {
                            if b == 0 { throw WireFormatError(.invalidBytes, "over-long varint", offset: at) }
                            break
                        }
                        shift &+= 7
                    }
                }
                (o + k).initialize(to: try convert(value, at))
                k &+= 1
                initialized = k
            }
        }
    }
}

extension Scalars {
    /// The rest of `r` as a UTF-8 string.
    @inline(__always)
    static func readString(_ r: inout ByteReader) throws -> String {
        let start = r.offset
        let bytes = UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<r.end])
        guard let s = validUTF8String(bytes) else {
            throw WireFormatError(.invalidBytes, "invalid UTF-8 in a string", offset: start)
        }
        r.offset = r.end
        return s
    }
}

/// The string spelled by `bytes`, or nil if they are not valid UTF-8.
///
/// `String(validating:as:)` is generic over the input and instantiates the metadata of
/// `UnsafeBufferPointer<UInt8>` and `Unicode.ParseResult` on every call (in the standard library,
/// unspecialized): about 40% of the instructions of decoding a `[String]` of short strings went
/// there (callgrind). `String(decoding:as:)` on an `UnsafeBufferPointer<UInt8>` is the standard
/// library's fast path; it repairs invalid input with U+FFFD instead of failing, and its output is
/// always valid UTF-8, so the input was valid exactly when the output has the same bytes.
@inline(__always)
func validUTF8String(_ bytes: UnsafeRawBufferPointer) -> String? {
    bytes.withMemoryRebound(to: UInt8.self) { units -> String? in
        var string = String(decoding: units, as: UTF8.self)
        let unchanged = string.withUTF8 { utf8 -> Bool in
            guard utf8.count == units.count else { return false }
            guard let a = utf8.baseAddress, let b = units.baseAddress else { return true }  // both empty
            return memcmp(a, b, units.count) == 0
        }
        return unchanged ? string : nil
    }
}
