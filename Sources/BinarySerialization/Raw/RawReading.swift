/// One way to read a run of bytes as a primitive, a string or a packed array. Every reading
/// accounts for all the bytes of its run.
public enum RawReading: Hashable, Sendable, CustomStringConvertible {
    /// Valid UTF-8 text.
    case text(String)
    /// One byte `00` or `01`.
    case bool(Bool)
    /// One minimal varint: an unsigned integer, or a signed one after zig-zag (see ``zigZagged(_:)``).
    case varint(UInt64)
    /// One byte, as `UInt8` (or `Int8` through its bit pattern).
    case byte(UInt8)
    /// A little-endian integer of 2, 4 or 8 bytes (`Int16`/`UInt16`, fixed-size wrappers).
    case littleEndian(UInt64, byteCount: Int)
    /// Four bytes as a big-endian `Float`.
    case float(Float)
    /// Eight bytes as a big-endian `Double`.
    case double(Double)
    /// Two or more minimal varints back to back (a packed integer array).
    case packedVarints([UInt64])
    /// A multiple of eight bytes as big-endian `Double`s (a packed `[Double]`).
    case packedDoubles([Double])
    /// A multiple of four bytes as big-endian `Float`s (a packed `[Float]`).
    case packedFloats([Float])

    /// The signed value of a zig-zag varint `v`: 0, 1, 2, 3 ... become 0, -1, 1, -2 ... .
    public static func zigZagged(_ v: UInt64) -> Int64 { unZigZag(v) }

    /// A short phrase such as `varint 84 (zig-zag 42)` or `"Alice"`.
    public var description: String {
        switch self {
        case .text(let s): return RawText.quoted(s, limit: 48)
        case .bool(let b): return "Bool \(b)"
        case .varint(let v):
            return "varint \(v) (zig-zag \(unZigZag(v)))"
        case .byte(let b):
            return b < 0x80 ? "UInt8 \(b)" : "UInt8 \(b) (Int8 \(Int8(bitPattern: b)))"
        case .littleEndian(let v, let n):
            let bits = n &* 8
            let signed: Int64
            switch n {
            case 2: signed = Int64(Int16(truncatingIfNeeded: v))
            case 4: signed = Int64(Int32(truncatingIfNeeded: v))
            default: signed = Int64(bitPattern: v)
            }
            let base = "UInt\(bits) LE \(v)"
            return signed < 0 ? base + " (Int\(bits) \(signed))" : base
        case .float(let f): return "Float \(f)"
        case .double(let d): return "Double \(d)"
        case .packedVarints(let vs):
            let zigZag = vs.map { unZigZag($0) }
            return "packed \(vs.count) varints \(RawText.list(vs)) (zig-zag \(RawText.list(zigZag)))"
        case .packedDoubles(let ds): return "packed \(ds.count) Doubles \(RawText.list(ds))"
        case .packedFloats(let fs): return "packed \(fs.count) Floats \(RawText.list(fs))"
        }
    }

    /// The readings that consume all of `bytes`, most plausible first.
    ///
    /// - Complexity: O(n) in the number of bytes.
    static func readings(of bytes: ArraySlice<UInt8>) -> [RawReading] {
        let n = bytes.count
        guard n > 0 else { return [] }
        var out: [RawReading] = []
        let text = RawText.validUTF8(bytes)
        let printable = text.map(RawText.isPrintable) ?? false
        if n >= 2, printable, let text { out.append(.text(text)) }
        if n == 1, let b = bytes.first {
            if b <= 1 { out.append(.bool(b == 1)) }
            if b < 0x80 { out.append(.varint(UInt64(b))) }
            out.append(.byte(b))
            if printable, let text { out.append(.text(text)) }
            return out
        }
        let varints = packedVarints(bytes)
        if let varints, varints.count == 1, let v = varints.first { out.append(.varint(v)) }
        switch n {
        case 2: out.append(.littleEndian(UInt64(littleEndian(bytes)), byteCount: 2))
        case 4:
            let f = Float(bitPattern: UInt32(truncatingIfNeeded: bigEndian(bytes)))
            let integer = RawReading.littleEndian(littleEndian(bytes), byteCount: 4)
            out += isPlausible(Double(f)) ? [.float(f), integer] : [integer, .float(f)]
        case 8:
            let d = Double(bitPattern: bigEndian(bytes))
            let integer = RawReading.littleEndian(littleEndian(bytes), byteCount: 8)
            out += isPlausible(d) ? [.double(d), integer] : [integer, .double(d)]
        default: break
        }
        if let varints, varints.count >= 2 { out.append(.packedVarints(varints)) }
        // Printable text is never also offered as floating-point numbers: text bytes read as
        // floats fall in the plausible range often enough to be noise on every string.
        if printable { return out }
        if n >= 16, n % 8 == 0 {
            let doubles = chunks(bytes, 8).map { Double(bitPattern: bigEndian($0)) }
            if doubles.allSatisfy(isPlausible) { out.append(.packedDoubles(doubles)) }
        }
        if n >= 8, n % 4 == 0 {
            let floats = chunks(bytes, 4).map { Float(bitPattern: UInt32(truncatingIfNeeded: bigEndian($0))) }
            if floats.allSatisfy({ isPlausible(Double($0)) }) { out.append(.packedFloats(floats)) }
        }
        return out
    }

    /// Whether a floating-point reading looks like a number someone stored: zero, or a finite
    /// magnitude between 1e-12 and 1e15 (random bytes mostly give tiny or huge exponents).
    static func isPlausible(_ v: Double) -> Bool {
        v == 0 || (v.isFinite && v.magnitude > 1e-12 && v.magnitude < 1e15)
    }

    /// The minimal varints that make up exactly `bytes`, or `nil` if they do not.
    static func packedVarints(_ bytes: ArraySlice<UInt8>) -> [UInt64]? {
        var values: [UInt64] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard let (v, next) = RawVarint.read(bytes, at: i) else { return nil }
            values.append(v)
            i = next
        }
        return values
    }

    private static func chunks(_ bytes: ArraySlice<UInt8>, _ size: Int) -> [ArraySlice<UInt8>] {
        stride(from: bytes.startIndex, to: bytes.endIndex, by: size).map { bytes[$0..<min($0 &+ size, bytes.endIndex)] }
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in bytes.prefix(8).enumerated() { v |= UInt64(b) << (UInt64(i) &* 8) }
        return v
    }

    private static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var v: UInt64 = 0
        for b in bytes.prefix(8) { v = v << 8 | UInt64(b) }
        return v
    }
}

/// Varints over byte arrays, for the raw reader: the decoder's varint rules (IntegerWireRules),
/// so writing a value back gives the same bytes.
enum RawVarint {
    /// The varint at `index` and the index after it, or `nil` if there is none or it is not minimal.
    static func read(_ bytes: ArraySlice<UInt8>, at index: Int) -> (UInt64, Int)? {
        guard index >= bytes.startIndex, index <= bytes.endIndex else { return nil }
        let reading = bytes.withUnsafeBytes { readVarint($0, from: index &- bytes.startIndex, end: $0.count) }
        guard case .value(let value, let next) = reading else { return nil }
        return (value, next &+ bytes.startIndex)
    }

    /// Appends `value` as a minimal varint.
    static func write(_ value: UInt64, to out: inout [UInt8]) {
        forEachVarintByte(value) { out.append($0) }
    }
}

/// Text helpers for descriptions.
enum RawText {
    /// Whether `s` looks like text a person wrote: no control characters except tab and newlines.
    static func isPrintable(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy(isPrintable)
    }

    /// Whether `u` is a printable scalar (or tab, newline, carriage return).
    static func isPrintable(_ u: Unicode.Scalar) -> Bool {
        if u == "\t" || u == "\n" || u == "\r" { return true }
        if u.value < 0x20 || (u.value >= 0x7f && u.value < 0xa0) { return false }
        if u.value < 0x7f { return true }
        // Unicode scalar properties need macOS 10.15, iOS 13, tvOS 13, watchOS 6; before them a
        // non-control scalar counts as printable.
        guard #available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *) else { return true }
        let category = u.properties.generalCategory
        return category != .unassigned && (category != .format || u.value == 0x200d)
    }

    /// `bytes` as a string if they are valid UTF-8, else nil.
    ///
    /// Decoding repairs invalid UTF-8 (with U+FFFD), so the bytes are valid exactly when the
    /// string's UTF-8 is the bytes. (`String(validating:as:)` would say the same, from macOS 15.)
    ///
    /// - Complexity: O(n) in the number of bytes.
    static func validUTF8(_ bytes: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// `s` in double quotes with escapes, cut after `limit` characters.
    static func quoted(_ s: String, limit: Int) -> String {
        var out = "\""
        var count = 0
        for c in s.unicodeScalars {
            if count >= limit {
                out += "…"
                break
            }
            count &+= 1
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7f {
                    out += "\\u{" + String(c.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }

    /// `[a, b, c, ...]`, at most eight items.
    static func list<T>(_ items: [T]) -> String {
        let shown = items.prefix(8).map { "\($0)" }.joined(separator: ", ")
        return "[" + shown + (items.count > 8 ? ", …]" : "]")
    }
}
