// The zig-zag mapping that `IntegerEncoding.zigZag` names: the tree's integer conversion rules and
// both formats' writers and readers use it.

/// `v` zig-zag mapped (0, -1, 1, -2... become 0, 1, 2, 3...), so small magnitudes make short varints.
@inlinable @inline(__always)
package func zigZag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
/// `v` zig-zag mapped in its own 32 bits.
@inlinable @inline(__always)
package func zigZag(_ v: Int32) -> UInt64 { UInt64(UInt32(bitPattern: (v << 1) ^ (v >> 31))) }
/// `v` zig-zag mapped in its own 16 bits.
@inlinable @inline(__always)
package func zigZag(_ v: Int16) -> UInt64 { UInt64(UInt16(bitPattern: (v << 1) ^ (v >> 15))) }
/// The inverse of ``zigZag(_:)-(Int64)``; a value below 2^n maps back into n-bit range.
@inlinable @inline(__always)
package func unZigZag(_ u: UInt64) -> Int64 { Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1))) }
