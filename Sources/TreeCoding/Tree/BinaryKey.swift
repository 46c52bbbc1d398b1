import Foundation

/// A key of a keyed container in the tree.
///
/// A key is written as an integer when it has an `intValue`, else as its string. Two keys are equal
/// when they are written the same: by `intValue` if either has one, else by the UTF-8 bytes of
/// `stringValue`. (Not by `String` equality, which treats canonically equivalent spellings such as
/// `"é"` and `"e\u{301}"`, or `"K"` and the Kelvin sign, as one string: they are different bytes,
/// so different keys.) The `stringValue` of an integer key is kept for sorting and display (the
/// `super` key is `0`/"super").
public struct BinaryKey: CodingKey, Hashable, Sendable, CustomStringConvertible {
    /// The key as a string: the field name, or the decimal form of an integer key.
    public let stringValue: String
    /// The integer the key is written as, or `nil` for a key written as its string.
    public let intValue: Int?

    /// A string key.
    public init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    /// An integer key; its string value is the decimal form of the integer.
    public init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// A key with both forms, like a `CodingKey` enum with `Int` raw values.
    public init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    /// The tree key for any coding key.
    @inline(__always)
    public init(_ key: some CodingKey) {
        self.stringValue = key.stringValue
        self.intValue = key.intValue
    }

    /// The key as a format writes it: an integer key without its name (an empty `stringValue`),
    /// which it does not need, and which costs a call and a string per field to read. Only for
    /// keys that end up in no tree and no coding path: the streaming encoder's primitive fields,
    /// whose keys go to the sink and to its check for repeated keys (both by ``intValue``).
    @inlinable @inline(__always)
    package init(writtenAs key: some CodingKey) {
        if let i = key.intValue {
            self.init(stringValue: "", intValue: i)
        } else {
            self.init(stringValue: key.stringValue)
        }
    }

    /// The key `superEncoder()` and `superDecoder()` use: integer `0`, named "super".
    public static let `super` = BinaryKey(stringValue: "super", intValue: 0)

    /// Whether two keys are written the same: by `intValue` if either has one, else by the UTF-8
    /// bytes of `stringValue`.
    @inline(__always)
    public static func == (lhs: BinaryKey, rhs: BinaryKey) -> Bool {
        if lhs.intValue != nil || rhs.intValue != nil { return lhs.intValue == rhs.intValue }
        return sameUTF8(lhs.stringValue, rhs.stringValue)
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        if let intValue {
            hasher.combine(0 as UInt8)
            hasher.combine(intValue)
        } else {
            hasher.combine(1 as UInt8)
            // Byte-equal strings are canonically equal, so they hash alike: consistent with `==`.
            hasher.combine(stringValue)
        }
    }

    /// The key for display: an integer key as its number (and its name if different), a string key quoted.
    public var description: String {
        if let intValue {
            return stringValue == String(intValue) ? "\(intValue)" : "\(intValue) (\"\(stringValue)\")"
        }
        return "\"\(stringValue)\""
    }
}

extension BinaryKey: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// A string key from a literal, like `"sender"`.
    public init(stringLiteral value: String) { self.init(stringValue: value) }
    /// An integer key from a literal, like `2`.
    public init(integerLiteral value: Int) { self.init(intValue: value) }
}

extension BinaryKey {
    /// One bit of a 64-bit filter, from a cheap hash of the key: a clear bit in a container's
    /// filter proves the key new without a search. Both encoders use this one function, so that
    /// the streaming encoder searches (and gives up on a repeated key) whenever the tree encoder
    /// would search and replace.
    @inlinable @inline(__always)
    package var filterBit: UInt64 {
        if let i = intValue { return 1 &<< UInt64(UInt(bitPattern: i) & 63) }
        // The length and the first byte: `utf8.last` walks back through a generic index
        // (about 75 instructions a key).
        let utf8 = stringValue.utf8
        let h = utf8.count &* 7 &+ Int(utf8.first ?? 0) &* 3
        return 1 &<< UInt64(UInt(bitPattern: h) & 63)
    }
}

/// Whether two strings have the same UTF-8 bytes (`==` on `String` compares canonical equivalence).
@inline(never)
func sameUTF8(_ a: String, _ b: String) -> Bool {
    let (x, y) = (a.utf8, b.utf8)
    // Byte-equal strings are canonically equal, so `!=` (a byte comparison for ASCII) rules
    // most pairs out; canonically equal ones still need their bytes compared.
    guard x.count == y.count, a == b else { return false }
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        let (s, t) = (x.span, y.span)
        for i in s.indices where s[i] != t[i] { return false }
        return true
    }
    return x.elementsEqual(y)
}
