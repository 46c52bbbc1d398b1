/// An integer wrapper (``FixedSizeEncoded``, ``VariableLengthEncoded``, ``ZigZagEncoded``) used
/// as the number it wraps: integer literals, conversions, comparison, arithmetic and printing.
///
/// ```swift
/// var count: ZigZagEncoded<Int16> = 3
/// count += 4                       // 7
/// let id = FixedSizeEncoded<Int64>(someInt)
/// ```
/// The operators behave like those of `Value`: like `Int`'s, `+`, `-` and `*` stop the program
/// on overflow and `/` and `%` on a zero divisor. Use the wrapped value's `...ReportingOverflow`
/// methods when operands are not known to be in range.
public protocol EncodedInteger: Numeric, Comparable, Hashable, CustomStringConvertible, Sendable
where Magnitude == Value.Magnitude, IntegerLiteralType == Value.IntegerLiteralType {
    /// The wrapped integer type.
    associatedtype Value: FixedWidthInteger & Sendable
    /// The wrapped integer.
    var wrappedValue: Value { get set }
    /// Wraps `wrappedValue`.
    init(wrappedValue: Value)
}

extension EncodedInteger {
    /// Wraps an integer literal.
    public init(integerLiteral value: Value.IntegerLiteralType) {
        self.init(wrappedValue: Value(integerLiteral: value))
    }

    /// Wraps `source` converted to `Value`; like `Value(source)`, stops the program if `source`
    /// is out of range (see ``init(exactly:)`` and ``init(clamping:)``).
    public init<T: BinaryInteger>(_ source: T) {
        self.init(wrappedValue: Value(source))
    }

    /// Wraps `source` if `Value` represents it exactly, else returns nil.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Value(exactly: source) else { return nil }
        self.init(wrappedValue: value)
    }

    /// Wraps the low bits of `source` that fit `Value`.
    public init<T: BinaryInteger>(truncatingIfNeeded source: T) {
        self.init(wrappedValue: Value(truncatingIfNeeded: source))
    }

    /// Wraps `source`, or the nearest of `Value.min` and `Value.max` if it is out of range.
    public init<T: BinaryInteger>(clamping source: T) {
        self.init(wrappedValue: Value(clamping: source))
    }

    /// The smallest wrapped value.
    public static var min: Self { Self(wrappedValue: Value.min) }
    /// The largest wrapped value.
    public static var max: Self { Self(wrappedValue: Value.max) }
    /// Zero.
    public static var zero: Self { Self(wrappedValue: 0) }

    /// The magnitude of the wrapped value.
    public var magnitude: Value.Magnitude { wrappedValue.magnitude }

    /// The wrapped value, printed as a plain number.
    public var description: String { wrappedValue.description }

    /// Compares the wrapped values.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue < rhs.wrappedValue }

    /// The sum, as `Value`'s `+` computes it.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue + rhs.wrappedValue) }
    /// The difference, as `Value`'s `-` computes it.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue - rhs.wrappedValue) }
    /// The product, as `Value`'s `*` computes it.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue * rhs.wrappedValue) }
    /// The quotient, as `Value`'s `/` computes it.
    public static func / (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue / rhs.wrappedValue) }
    /// The remainder, as `Value`'s `%` computes it.
    public static func % (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue % rhs.wrappedValue) }

    /// Multiplies in place.
    public static func *= (lhs: inout Self, rhs: Self) { lhs.wrappedValue *= rhs.wrappedValue }
    /// Divides in place.
    public static func /= (lhs: inout Self, rhs: Self) { lhs.wrappedValue /= rhs.wrappedValue }
    /// Takes the remainder in place.
    public static func %= (lhs: inout Self, rhs: Self) { lhs.wrappedValue %= rhs.wrappedValue }
}

extension FixedSizeEncoded: EncodedInteger {}
extension VariableLengthEncoded: EncodedInteger {}
extension ZigZagEncoded: EncodedInteger {}

extension FixedSizeEncoded: SignedNumeric where Value: SignedInteger {}
extension VariableLengthEncoded: SignedNumeric where Value: SignedInteger {}
extension ZigZagEncoded: SignedNumeric {}

// MARK: Combinations that change nothing

extension ZigZagEncoded where Value == Int {
    /// `Int` is zig-zag encoded without the wrapper.
    @available(*, deprecated, message: "Int is zig-zag encoded already: ZigZagEncoded<Int> has no effect")
    public init(wrappedValue: Int) { self.init(unchecked: wrappedValue) }
}

extension ZigZagEncoded where Value == Int32 {
    /// `Int32` is zig-zag encoded without the wrapper.
    @available(*, deprecated, message: "Int32 is zig-zag encoded already: ZigZagEncoded<Int32> has no effect")
    public init(wrappedValue: Int32) { self.init(unchecked: wrappedValue) }
}

extension ZigZagEncoded where Value == Int64 {
    /// `Int64` is zig-zag encoded without the wrapper.
    @available(*, deprecated, message: "Int64 is zig-zag encoded already: ZigZagEncoded<Int64> has no effect")
    public init(wrappedValue: Int64) { self.init(unchecked: wrappedValue) }
}

extension VariableLengthEncoded where Value == UInt32 {
    /// `UInt32` is a varint without the wrapper.
    @available(*, deprecated, message: "UInt32 is a varint already: VariableLengthEncoded<UInt32> has no effect")
    public init(wrappedValue: UInt32) { self.init(unchecked: wrappedValue) }
}

extension VariableLengthEncoded where Value == UInt64 {
    /// `UInt64` is a varint without the wrapper.
    @available(*, deprecated, message: "UInt64 is a varint already: VariableLengthEncoded<UInt64> has no effect")
    public init(wrappedValue: UInt64) { self.init(unchecked: wrappedValue) }
}

extension VariableLengthEncoded where Value == UInt {
    /// `UInt` is a varint without the wrapper.
    @available(*, deprecated, message: "UInt is a varint already: VariableLengthEncoded<UInt> has no effect")
    public init(wrappedValue: UInt) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == Int16 {
    /// `Int16` is written in two bytes without the wrapper.
    @available(*, deprecated, message: "Int16 is fixed-size already: FixedSizeEncoded<Int16> has no effect")
    public init(wrappedValue: Int16) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == UInt16 {
    /// `UInt16` is written in two bytes without the wrapper.
    @available(*, deprecated, message: "UInt16 is fixed-size already: FixedSizeEncoded<UInt16> has no effect")
    public init(wrappedValue: UInt16) { self.init(unchecked: wrappedValue) }
}
