// BinaryCodable 4.0.0's integer initializers from a varint's value already read (`raw`), beside
// the ones from bytes (`init(fromVarint: Data)`, `init(fromZigZag: Data)`). The value is range
// checked, never truncated: a value that does not fit throws `CorruptedDataError`, as 4.0.0 does.
// `UInt64` and `Int64` take every value and do not throw, as in 4.0.0.

/// `raw` as a `T`, or `CorruptedDataError` naming the type.
private func exactly<T: FixedWidthInteger>(_ raw: some BinaryInteger, as type: T.Type) throws -> T {
    guard let value = T(exactly: raw) else {
        throw WireFormatError(.invalidBytes, "\(raw) does not fit \(T.self)", offset: 0)
    }
    return value
}

extension UInt64 {
    /// The value of a varint: `raw` itself.
    public init(fromVarint raw: UInt64) { self = raw }
}

extension Int64 {
    /// The 64-bit pattern of a varint's value.
    public init(fromVarint raw: UInt64) { self.init(bitPattern: raw) }
    /// A varint's value with the zig-zag mapping undone (0, 1, 2, 3 become 0, -1, 1, -2).
    public init(fromZigZag raw: UInt64) { self = unZigZag(raw) }
}

extension UInt32 {
    /// A varint's value; throws ``CorruptedDataError`` if it does not fit 32 bits.
    public init(fromVarint raw: UInt64) throws { self = try exactly(raw, as: UInt32.self) }
}

extension Int32 {
    /// A varint's value as a 32-bit pattern; throws ``CorruptedDataError`` if it does not fit 32 bits.
    public init(fromVarint raw: UInt64) throws { self.init(bitPattern: try UInt32(fromVarint: raw)) }
    /// A varint's value with the zig-zag mapping undone; throws ``CorruptedDataError`` if the
    /// result does not fit `Int32`.
    public init(fromZigZag raw: UInt64) throws { self = try exactly(unZigZag(raw), as: Int32.self) }
}

extension UInt16 {
    /// A varint's value; throws ``CorruptedDataError`` if it does not fit 16 bits.
    public init(fromVarint raw: UInt64) throws { self = try exactly(raw, as: UInt16.self) }
}

extension Int16 {
    /// A varint's value as a 16-bit pattern; throws ``CorruptedDataError`` if it does not fit 16 bits.
    public init(fromVarint raw: UInt64) throws { self.init(bitPattern: try UInt16(fromVarint: raw)) }
    /// A varint's value with the zig-zag mapping undone; throws ``CorruptedDataError`` if the
    /// result does not fit `Int16`.
    public init(fromZigZag raw: UInt64) throws { self = try exactly(unZigZag(raw), as: Int16.self) }
}

extension UInt {
    /// A varint's value; throws ``CorruptedDataError`` if it does not fit `UInt` (32-bit platforms).
    public init(fromVarint raw: UInt64) throws { self = try exactly(raw, as: UInt.self) }
}

extension Int {
    /// A varint's value as a 64-bit pattern; throws ``CorruptedDataError`` if it does not fit `Int`
    /// (32-bit platforms).
    public init(fromVarint raw: UInt64) throws { self = try exactly(Int64(bitPattern: raw), as: Int.self) }
    /// A varint's value with the zig-zag mapping undone; throws ``CorruptedDataError`` if the
    /// result does not fit `Int` (32-bit platforms).
    public init(fromZigZag raw: UInt64) throws { self = try exactly(unZigZag(raw), as: Int.self) }
}
