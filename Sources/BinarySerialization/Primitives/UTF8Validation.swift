/// Checks of UTF-8 read from bytes that make no `String`: a string key is checked when its
/// container is framed and made into a `String` only when a type asks for its name.

/// Whether every byte is below 0x80: eight at a time, then one at a time for the rest (a
/// generic `contains(where:)` cost about six instructions a byte, on every string key read).
@inline(__always)
func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var i = 0
    while count &- i >= 8 {
        if base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
        i &+= 8
    }
    while i < count {
        if base.load(fromByteOffset: i, as: UInt8.self) >= 0x80 { return false }
        i &+= 1
    }
    return true
}

/// Whether `bytes` is well-formed UTF-8 (the Unicode Standard, table 3-7): no stray
/// continuation byte, no truncated sequence, no overlong form, no surrogate (U+D800–U+DFFF) and
/// nothing above U+10FFFF. The bytes `String(decoding:as:)` keeps unchanged, without making the
/// string: checking a non-ASCII key that way made a string (and, past 15 bytes, an allocation)
/// that was thrown away.
func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let count = bytes.count
    var i = 0
    while i < count {
        let lead = bytes[i]
        if lead < 0x80 {
            i &+= 1
            continue
        }
        // The sequence's length, and the range of its second byte (narrower than 80...BF after
        // E0, ED, F0 and F4, which rules out overlong forms, surrogates and values past 10FFFF).
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return false  // 80...C1 (a continuation byte or an overlong lead) and F5...FF
        }
        guard count &- i >= length else { return false }
        let second = bytes[i &+ 1]
        guard second >= low, second <= high else { return false }
        var j = 2
        while j < length {
            guard bytes[i &+ j] & 0xC0 == 0x80 else { return false }
            j &+= 1
        }
        i &+= length
    }
    return true
}
