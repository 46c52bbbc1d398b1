import BinarySerialization

// The wrappers over types they do not change (`VariableLengthEncoded<UInt32>`, `ZigZagEncoded<Int>`,
// ...) have deprecated concrete initializers, so that users hear about them. Tests build them on
// purpose, to check they encode as the plain type: a generic function reaches the generic
// initializer, which is not deprecated, so those deliberate uses do not warn.

/// A `VariableLengthEncoded` built through the generic initializer.
func noEffectWrapper<Value: VariableLengthCodable>(_ value: Value) -> VariableLengthEncoded<Value> {
    VariableLengthEncoded(wrappedValue: value)
}

/// A `ZigZagEncoded` built through the generic initializer.
func noEffectWrapper<Value: ZigZagCodable>(_ value: Value) -> ZigZagEncoded<Value> {
    ZigZagEncoded(wrappedValue: value)
}

/// A `FixedSizeEncoded` built through the generic initializer.
func noEffectWrapper<Value: FixedSizeCodable>(_ value: Value) -> FixedSizeEncoded<Value> {
    FixedSizeEncoded(wrappedValue: value)
}
