// `FixedSizeEncoded` is comparable, printable, parsable, a number and strideable exactly when its
// value is, whatever the value (an integer, `Bool`, `Float`, `Double`, a type of the user's), so
// code that uses the wrapper as its value keeps compiling. Every operation is the value's, applied
// to the wrapped values. For integers, `EncodedInteger` adds the integer protocols.

extension FixedSizeEncoded: Comparable where Value: Comparable {}
extension FixedSizeEncoded: CustomStringConvertible where Value: CustomStringConvertible {}
extension FixedSizeEncoded: LosslessStringConvertible where Value: LosslessStringConvertible {}
extension FixedSizeEncoded: Strideable where Value: Strideable {}
extension FixedSizeEncoded: AdditiveArithmetic where Value: AdditiveArithmetic {}
extension FixedSizeEncoded: ExpressibleByIntegerLiteral where Value: ExpressibleByIntegerLiteral {}
extension FixedSizeEncoded: Numeric where Value: Numeric {}

extension FixedSizeEncoded where Value: Comparable {
    /// Compares the wrapped values.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.wrappedValue < rhs.wrappedValue }
}

extension FixedSizeEncoded where Value: CustomStringConvertible {
    /// The wrapped value's description.
    public var description: String { wrappedValue.description }
}

extension FixedSizeEncoded where Value: LosslessStringConvertible {
    /// Parses `description` as `Value` does; nil if `Value` does not read it.
    public init?(_ description: String) {
        guard let value = Value(description) else { return nil }
        self.init(unchecked: value)
    }
}

extension FixedSizeEncoded where Value: Strideable {
    /// The distance to `other`, as `Value` measures it.
    public func distance(to other: Self) -> Value.Stride { wrappedValue.distance(to: other.wrappedValue) }
    /// The value `n` steps on, as `Value` advances.
    public func advanced(by n: Value.Stride) -> Self { Self(unchecked: wrappedValue.advanced(by: n)) }
}

extension FixedSizeEncoded where Value: AdditiveArithmetic {
    /// The wrapped zero.
    public static var zero: Self { Self(unchecked: .zero) }
    /// The sum, as `Value`'s `+` computes it.
    public static func + (lhs: Self, rhs: Self) -> Self { Self(unchecked: lhs.wrappedValue + rhs.wrappedValue) }
    /// The difference, as `Value`'s `-` computes it.
    public static func - (lhs: Self, rhs: Self) -> Self { Self(unchecked: lhs.wrappedValue - rhs.wrappedValue) }
}

extension FixedSizeEncoded where Value: ExpressibleByIntegerLiteral {
    /// Wraps an integer literal.
    public init(integerLiteral value: Value.IntegerLiteralType) { self.init(unchecked: Value(integerLiteral: value)) }
}

extension FixedSizeEncoded where Value: Numeric {
    /// Wraps `source` if `Value` represents it exactly, else returns nil.
    public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Value(exactly: source) else { return nil }
        self.init(unchecked: value)
    }
    /// The magnitude of the wrapped value.
    public var magnitude: Value.Magnitude { wrappedValue.magnitude }
    /// The product, as `Value`'s `*` computes it.
    public static func * (lhs: Self, rhs: Self) -> Self { Self(unchecked: lhs.wrappedValue * rhs.wrappedValue) }
    /// Multiplies in place.
    public static func *= (lhs: inout Self, rhs: Self) { lhs.wrappedValue *= rhs.wrappedValue }
}
