/// An integer wrapper (``FixedSizeEncoded``, ``VariableLengthEncoded``, ``ZigZagEncoded``) used
/// as the integer it wraps: a `FixedWidthInteger` (literals, conversions such as `Int(wrapper)`,
/// comparison, arithmetic, bit operations and shifts, ranges, `init?(String)`, printing).
///
/// ```swift
/// var count: ZigZagEncoded<Int16> = 3
/// count += 4                       // 7
/// let id = FixedSizeEncoded<Int64>(someInt)
/// let mask = id & 0xff << 8
/// ```
/// Every operation is `Value`'s applied to the wrapped values: like `Int`'s, `+`, `-` and `*`
/// stop the program on overflow and `/` and `%` on a zero divisor. Use the
/// `...ReportingOverflow` methods when operands are not known to be in range.
public protocol EncodedInteger: FixedWidthInteger, LosslessStringConvertible
where
    Magnitude == Value.Magnitude, IntegerLiteralType == Value.IntegerLiteralType, Words == Value.Words,
    Stride == Value.Stride
{
    /// The wrapped integer type.
    associatedtype Value: FixedWidthInteger
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
    /// is out of range (see `init(exactly:)` and `init(clamping:)`).
    public init<T: BinaryInteger>(_ source: T) { self.init(wrappedValue: Value(source)) }

    /// Wraps `source` if `Value` represents it exactly, else returns nil.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Value(exactly: source) else { return nil }
        self.init(wrappedValue: value)
    }

    /// Wraps `source` rounded toward zero; like `Value(source)`, stops the program if it is out
    /// of range or not finite.
    public init<T: BinaryFloatingPoint>(_ source: T) { self.init(wrappedValue: Value(source)) }

    /// Wraps `source` if it is a whole number `Value` represents, else returns nil.
    public init?<T: BinaryFloatingPoint>(exactly source: T) {
        guard let value = Value(exactly: source) else { return nil }
        self.init(wrappedValue: value)
    }

    /// Wraps the low bits of `source` that fit `Value`.
    public init<T: BinaryInteger>(truncatingIfNeeded source: T) {
        self.init(wrappedValue: Value(truncatingIfNeeded: source))
    }

    /// Wraps `source`, or the nearest of `Value.min` and `Value.max` if it is out of range.
    public init<T: BinaryInteger>(clamping source: T) { self.init(wrappedValue: Value(clamping: source)) }

    /// Wraps the low bits of `source` that fit `Value`.
    public init<T: BinaryInteger>(_truncatingBits source: T) {
        self.init(wrappedValue: Value(truncatingIfNeeded: source))
    }

    /// Parses a decimal integer as `Value` does; nil if `description` is not one in range.
    public init?(_ description: String) {
        guard let value = Value(description) else { return nil }
        self.init(wrappedValue: value)
    }

    /// The smallest wrapped value.
    public static var min: Self { Self(wrappedValue: Value.min) }
    /// The largest wrapped value.
    public static var max: Self { Self(wrappedValue: Value.max) }
    /// Zero.
    public static var zero: Self { Self(wrappedValue: 0) }
    /// `Value`'s bit width.
    public static var bitWidth: Int { Value.bitWidth }
    /// Whether `Value` is signed.
    public static var isSigned: Bool { Value.isSigned }

    /// The magnitude of the wrapped value.
    public var magnitude: Value.Magnitude { wrappedValue.magnitude }
    /// The wrapped value's words, least significant first.
    public var words: Value.Words { wrappedValue.words }
    /// The wrapped value's bit width.
    public var bitWidth: Int { wrappedValue.bitWidth }
    /// The number of trailing zero bits of the wrapped value.
    public var trailingZeroBitCount: Int { wrappedValue.trailingZeroBitCount }
    /// The number of leading zero bits of the wrapped value.
    public var leadingZeroBitCount: Int { wrappedValue.leadingZeroBitCount }
    /// The number of one bits of the wrapped value.
    public var nonzeroBitCount: Int { wrappedValue.nonzeroBitCount }
    /// The wrapped value with its bytes reversed.
    public var byteSwapped: Self { Self(wrappedValue: wrappedValue.byteSwapped) }
    /// The wrapped value, printed as a plain number.
    public var description: String { wrappedValue.description }

    /// The distance to `other`, as `Value` measures it.
    public func distance(to other: Self) -> Value.Stride { wrappedValue.distance(to: other.wrappedValue) }
    /// The value `n` steps on, as `Value` advances.
    public func advanced(by n: Value.Stride) -> Self { Self(wrappedValue: wrappedValue.advanced(by: n)) }

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
    /// Adds in place.
    public static func += (lhs: inout Self, rhs: Self) { lhs.wrappedValue += rhs.wrappedValue }
    /// Subtracts in place.
    public static func -= (lhs: inout Self, rhs: Self) { lhs.wrappedValue -= rhs.wrappedValue }
    /// Multiplies in place.
    public static func *= (lhs: inout Self, rhs: Self) { lhs.wrappedValue *= rhs.wrappedValue }
    /// Divides in place.
    public static func /= (lhs: inout Self, rhs: Self) { lhs.wrappedValue /= rhs.wrappedValue }
    /// Takes the remainder in place.
    public static func %= (lhs: inout Self, rhs: Self) { lhs.wrappedValue %= rhs.wrappedValue }

    /// The bits set in both.
    public static func & (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue & rhs.wrappedValue) }
    /// The bits set in either.
    public static func | (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue | rhs.wrappedValue) }
    /// The bits set in exactly one.
    public static func ^ (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue ^ rhs.wrappedValue) }
    /// Every bit inverted.
    public static prefix func ~ (x: Self) -> Self { Self(wrappedValue: ~x.wrappedValue) }
    /// Keeps the bits set in both.
    public static func &= (lhs: inout Self, rhs: Self) { lhs.wrappedValue &= rhs.wrappedValue }
    /// Sets the bits set in `rhs`.
    public static func |= (lhs: inout Self, rhs: Self) { lhs.wrappedValue |= rhs.wrappedValue }
    /// Flips the bits set in `rhs`.
    public static func ^= (lhs: inout Self, rhs: Self) { lhs.wrappedValue ^= rhs.wrappedValue }

    /// Shifts left (right for a negative count), as `Value`'s `<<` does.
    public static func << <RHS: BinaryInteger>(lhs: Self, rhs: RHS) -> Self {
        Self(wrappedValue: lhs.wrappedValue << rhs)
    }
    /// Shifts right (left for a negative count), as `Value`'s `>>` does.
    public static func >> <RHS: BinaryInteger>(lhs: Self, rhs: RHS) -> Self {
        Self(wrappedValue: lhs.wrappedValue >> rhs)
    }
    /// Shifts left in place.
    public static func <<= <RHS: BinaryInteger>(lhs: inout Self, rhs: RHS) { lhs.wrappedValue <<= rhs }
    /// Shifts right in place.
    public static func >>= <RHS: BinaryInteger>(lhs: inout Self, rhs: RHS) { lhs.wrappedValue >>= rhs }
    /// Shifts left by `rhs` masked to the bit width.
    public static func &<< (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue &<< rhs.wrappedValue) }
    /// Shifts right by `rhs` masked to the bit width.
    public static func &>> (lhs: Self, rhs: Self) -> Self { Self(wrappedValue: lhs.wrappedValue &>> rhs.wrappedValue) }

    /// The sum and whether it overflowed.
    public func addingReportingOverflow(_ rhs: Self) -> (partialValue: Self, overflow: Bool) {
        Self.wrap(wrappedValue.addingReportingOverflow(rhs.wrappedValue))
    }
    /// The difference and whether it overflowed.
    public func subtractingReportingOverflow(_ rhs: Self) -> (partialValue: Self, overflow: Bool) {
        Self.wrap(wrappedValue.subtractingReportingOverflow(rhs.wrappedValue))
    }
    /// The product and whether it overflowed.
    public func multipliedReportingOverflow(by rhs: Self) -> (partialValue: Self, overflow: Bool) {
        Self.wrap(wrappedValue.multipliedReportingOverflow(by: rhs.wrappedValue))
    }
    /// The quotient and whether it overflowed (a zero divisor overflows instead of stopping).
    public func dividedReportingOverflow(by rhs: Self) -> (partialValue: Self, overflow: Bool) {
        Self.wrap(wrappedValue.dividedReportingOverflow(by: rhs.wrappedValue))
    }
    /// The remainder and whether it overflowed (a zero divisor overflows instead of stopping).
    public func remainderReportingOverflow(dividingBy rhs: Self) -> (partialValue: Self, overflow: Bool) {
        Self.wrap(wrappedValue.remainderReportingOverflow(dividingBy: rhs.wrappedValue))
    }
    /// The full-width product, high and low halves.
    public func multipliedFullWidth(by other: Self) -> (high: Self, low: Value.Magnitude) {
        let product = wrappedValue.multipliedFullWidth(by: other.wrappedValue)
        return (Self(wrappedValue: product.high), product.low)
    }
    /// Divides a full-width dividend, as `Value`'s `dividingFullWidth` does (which stops the
    /// program if the quotient does not fit).
    public func dividingFullWidth(
        _ dividend: (high: Self, low: Value.Magnitude)
    ) -> (quotient: Self, remainder: Self) {
        let result = wrappedValue.dividingFullWidth((dividend.high.wrappedValue, dividend.low))
        return (Self(wrappedValue: result.quotient), Self(wrappedValue: result.remainder))
    }

    /// A reported result of `Value`, wrapped.
    private static func wrap(_ result: (partialValue: Value, overflow: Bool)) -> (partialValue: Self, overflow: Bool) {
        (Self(wrappedValue: result.partialValue), result.overflow)
    }
}

// `FixedSizeEncoded` also wraps `Bool`, `Float`, `Double` and types of the user's, so each number
// protocol holds as its value's does (FixedSizeEncoded+Numbers.swift); the integer ones need an
// integer.
extension FixedSizeEncoded: BinaryInteger, FixedWidthInteger, EncodedInteger where Value: FixedWidthInteger {}
extension VariableLengthEncoded: Comparable, CustomStringConvertible, LosslessStringConvertible, Strideable,
    AdditiveArithmetic, ExpressibleByIntegerLiteral, Numeric, BinaryInteger, FixedWidthInteger, EncodedInteger
{}
extension ZigZagEncoded: Comparable, CustomStringConvertible, LosslessStringConvertible, Strideable,
    AdditiveArithmetic, ExpressibleByIntegerLiteral, Numeric, BinaryInteger, FixedWidthInteger, EncodedInteger
where Value: FixedWidthInteger {}

extension FixedSizeEncoded: SignedNumeric where Value: FixedWidthInteger & SignedInteger {}
extension VariableLengthEncoded: SignedNumeric where Value: SignedInteger {}
extension ZigZagEncoded: SignedNumeric where Value: FixedWidthInteger & SignedInteger {}
