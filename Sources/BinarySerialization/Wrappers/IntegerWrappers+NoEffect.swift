// Wrapper and type combinations that change nothing compile, with a deprecation warning: they
// are almost always a mistake. The coders write these values as if unwrapped.

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

extension FixedSizeEncoded where Value == Bool {
    /// `Bool` is one byte without the wrapper.
    @available(*, deprecated, message: "Property wrapper @FixedSizeEncoded has no effect on type Bool")
    public init(wrappedValue: Bool) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == Int8 {
    /// `Int8` is one byte without the wrapper.
    @available(*, deprecated, message: "Property wrapper @FixedSizeEncoded has no effect on type Int8")
    public init(wrappedValue: Int8) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == UInt8 {
    /// `UInt8` is one byte without the wrapper.
    @available(*, deprecated, message: "Property wrapper @FixedSizeEncoded has no effect on type UInt8")
    public init(wrappedValue: UInt8) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == Float {
    /// `Float` is four bytes without the wrapper.
    @available(*, deprecated, message: "Property wrapper @FixedSizeEncoded has no effect on type Float")
    public init(wrappedValue: Float) { self.init(unchecked: wrappedValue) }
}

extension FixedSizeEncoded where Value == Double {
    /// `Double` is eight bytes without the wrapper.
    @available(*, deprecated, message: "Property wrapper @FixedSizeEncoded has no effect on type Double")
    public init(wrappedValue: Double) { self.init(unchecked: wrappedValue) }
}
