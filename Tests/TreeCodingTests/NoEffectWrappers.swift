import TreeCoding

// The wrappers over types they do not change (`VariableLengthEncoded<UInt32>`, `ZigZagEncoded<Int>`,
// ...) have deprecated concrete initializers, so that users hear about them. Tests build them on
// purpose, to check they encode as the plain type: a generic function reaches the generic
// initializer, which is not deprecated, so those deliberate uses do not warn. (BinarySerializationTests
// has the same helper for all three wrappers: test targets share no source.)

/// A `VariableLengthEncoded` built through the generic initializer.
func noEffectWrapper<Value: VariableLengthCodable>(_ value: Value) -> VariableLengthEncoded<Value> {
    VariableLengthEncoded(wrappedValue: value)
}
