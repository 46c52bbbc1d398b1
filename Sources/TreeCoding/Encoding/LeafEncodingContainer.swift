/// Encoding containers that take a primitive as a leaf of the tree: the unkeyed and single-value
/// containers of the tree encoder and of the streaming encoder. Each says where a leaf goes; the
/// overloads for nil and the fourteen primitives that `Codable` requires are written once, here.
package protocol LeafEncodingContainer {
    /// Stores `leaf` (a primitive, or `.nil`) as the container's next element or its value.
    mutating func encodeLeaf(_ leaf: BinaryValue) throws
}

extension LeafEncodingContainer {
    @inlinable package mutating func encodeNil() throws { try encodeLeaf(.nil) }
    @inlinable package mutating func encode(_ value: Bool) throws { try encodeLeaf(.bool(value)) }
    @inlinable package mutating func encode(_ value: String) throws { try encodeLeaf(.string(value)) }
    @inlinable package mutating func encode(_ value: Double) throws { try encodeLeaf(.double(value)) }
    @inlinable package mutating func encode(_ value: Float) throws { try encodeLeaf(.float(value)) }
    @inlinable package mutating func encode(_ value: Int) throws { try encodeLeaf(.int(value)) }
    @inlinable package mutating func encode(_ value: Int8) throws { try encodeLeaf(.int8(value)) }
    @inlinable package mutating func encode(_ value: Int16) throws { try encodeLeaf(.int16(value)) }
    @inlinable package mutating func encode(_ value: Int32) throws { try encodeLeaf(.int32(value)) }
    @inlinable package mutating func encode(_ value: Int64) throws { try encodeLeaf(.int64(value)) }
    @inlinable package mutating func encode(_ value: UInt) throws { try encodeLeaf(.uint(value)) }
    @inlinable package mutating func encode(_ value: UInt8) throws { try encodeLeaf(.uint8(value)) }
    @inlinable package mutating func encode(_ value: UInt16) throws { try encodeLeaf(.uint16(value)) }
    @inlinable package mutating func encode(_ value: UInt32) throws { try encodeLeaf(.uint32(value)) }
    @inlinable package mutating func encode(_ value: UInt64) throws { try encodeLeaf(.uint64(value)) }
}
