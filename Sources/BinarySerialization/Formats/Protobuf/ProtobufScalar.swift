import Foundation
import TreeCoding

/// The proto3 scalar types, and how each is a leaf of the protobuf tree.
///
/// In a tree made by ``ProtobufEncoder``, an integer leaf's ``IntegerEncoding`` names its proto type:
/// `.varint` is `int32`/`int64`/`uint32`/`uint64`, `.zigZag` is `sint32`/`sint64`, `.fixed` is
/// `sfixed32`/`sfixed64`/`fixed32`/`fixed64`. (`Int` and `UInt` are 64-bit protobuf integers.)
enum ProtobufScalarType: Sendable, CustomStringConvertible {
    case int32, int64, uint32, uint64, sint32, sint64
    case fixed32, fixed64, sfixed32, sfixed64
    case bool, float, double, string, bytes

    var wireType: ProtobufWireType {
        switch self {
        case .int32, .int64, .uint32, .uint64, .sint32, .sint64, .bool: return .varint
        case .fixed32, .sfixed32, .float: return .fixed32
        case .fixed64, .sfixed64, .double: return .fixed64
        case .string, .bytes: return .lengthDelimited
        }
    }

    /// Whether a repeated field of the type is packed (every numeric type; not strings or bytes).
    var isPackable: Bool { wireType != .lengthDelimited }

    var description: String {
        switch self {
        case .int32: return "int32"
        case .int64: return "int64"
        case .uint32: return "uint32"
        case .uint64: return "uint64"
        case .sint32: return "sint32"
        case .sint64: return "sint64"
        case .fixed32: return "fixed32"
        case .fixed64: return "fixed64"
        case .sfixed32: return "sfixed32"
        case .sfixed64: return "sfixed64"
        case .bool: return "bool"
        case .float: return "float"
        case .double: return "double"
        case .string: return "string"
        case .bytes: return "bytes"
        }
    }

    /// The proto type of an integer of `bits` bits, signed or not, written with `encoding`.
    static func integer(signed: Bool, bits64: Bool, _ encoding: IntegerEncoding) -> Self {
        switch (signed, bits64, encoding) {
        case (true, false, .varint): return .int32
        case (true, false, .zigZag): return .sint32
        case (true, false, .fixed): return .sfixed32
        case (true, true, .varint): return .int64
        case (true, true, .zigZag): return .sint64
        case (true, true, .fixed): return .sfixed64
        case (false, false, .fixed): return .fixed32
        case (false, false, _): return .uint32
        case (false, true, .fixed): return .fixed64
        case (false, true, _): return .uint64
        }
    }

    /// The proto type of a leaf; `nil` for a node that is not a protobuf scalar.
    ///
    /// `signedZigZagIsPlain`: the leaf comes from a value's events, where a plain signed integer
    /// is `.zigZag` (v3's default) and is `int32`/`int64`; else (a protobuf tree, or a leaf whose
    /// encoding a wrapper chose) `.zigZag` is `sint32`/`sint64`.
    init?(leaf: BinaryValue, signedZigZagIsPlain: Bool = false) {
        @inline(__always) func signed(_ e: IntegerEncoding) -> IntegerEncoding {
            e.protobuf(plain: signedZigZagIsPlain)
        }
        switch leaf {
        case .bool: self = .bool
        case .int32(_, let e): self = .integer(signed: true, bits64: false, signed(e))
        case .int64(_, let e), .int(_, let e): self = .integer(signed: true, bits64: true, signed(e))
        case .uint32(_, let e): self = .integer(signed: false, bits64: false, e)
        case .uint64(_, let e), .uint(_, let e): self = .integer(signed: false, bits64: true, e)
        case .float: self = .float
        case .double: self = .double
        case .string: self = .string
        case .data: self = .bytes
        default: return nil
        }
    }
}

/// How a leaf of the tree is written: its proto type and its payload.
enum ProtobufLeafWire {
    case varint(UInt64)
    case fixed32(UInt32)
    case fixed64(UInt64)
    case string(String)
    case bytes(Data)

    @inline(__always)
    var wireType: ProtobufWireType {
        switch self {
        case .varint: return .varint
        case .fixed32: return .fixed32
        case .fixed64: return .fixed64
        case .string, .bytes: return .lengthDelimited
        }
    }

    /// Whether the value is proto3's default (zero, empty), which a field without presence omits.
    /// A float's default is the bit pattern zero: `-0.0` is written.
    @inline(__always)
    var isDefault: Bool {
        switch self {
        case .varint(let v): return v == 0
        case .fixed32(let v): return v == 0
        case .fixed64(let v): return v == 0
        case .string(let s): return s.utf8.isEmpty
        case .bytes(let d): return d.isEmpty
        }
    }

    /// The payload's size in bytes, without its length prefix.
    @inline(__always)
    var payloadSize: Int {
        switch self {
        case .varint(let v): return ProtobufVarint.size(v)
        case .fixed32: return 4
        case .fixed64: return 8
        case .string(let s): return s.utf8.count
        case .bytes(let d): return d.count
        }
    }

    /// The wire form of a leaf; `nil` for a node that is not a protobuf scalar (an 8- or 16-bit
    /// integer has no proto type). `signedZigZagIsPlain`: see ``ProtobufScalarType/init(leaf:signedZigZagIsPlain:)``.
    @inline(__always)
    init?(_ leaf: BinaryValue, signedZigZagIsPlain: Bool = false) {
        @inline(__always) func signed(_ e: IntegerEncoding) -> IntegerEncoding {
            e.protobuf(plain: signedZigZagIsPlain)
        }
        switch leaf {
        case .bool(let v): self = .varint(v ? 1 : 0)
        case .int32(let v, let e): self.init(signed: Int64(v), bits64: false, signed(e))
        case .int64(let v, let e): self.init(signed: v, bits64: true, signed(e))
        case .int(let v, let e): self.init(signed: Int64(v), bits64: true, signed(e))
        case .uint32(let v, .fixed): self = .fixed32(v)
        case .uint32(let v, _): self = .varint(UInt64(v))
        case .uint64(let v, .fixed): self = .fixed64(v)
        case .uint64(let v, _): self = .varint(v)
        case .uint(let v, .fixed): self = .fixed64(UInt64(v))
        case .uint(let v, _): self = .varint(UInt64(v))
        case .float(let v): self = .fixed32(v.bitPattern)
        case .double(let v): self = .fixed64(v.bitPattern)
        case .string(let v): self = .string(v)
        case .data(let v): self = .bytes(v)
        default: return nil
        }
    }

    /// Writes the payload (with its length first if `delimited` and length-delimited).
    @inline(__always)
    func write(to w: inout ByteWriter, delimited: Bool) {
        switch self {
        case .varint(let v): w.protobufVarint(v)
        case .fixed32(let v): w.littleEndian(v)
        case .fixed64(let v): w.littleEndian(v)
        case .string(let s):
            if delimited { w.protobufVarint(UInt64(s.utf8.count)) }
            w.string(s)
        case .bytes(let d):
            if delimited { w.protobufVarint(UInt64(d.count)) }
            d.withUnsafeBytes { w.bytes($0) }
        }
    }

    private init(signed v: Int64, bits64: Bool, _ encoding: IntegerEncoding) {
        switch encoding {
        // int32 and int64 are sign-extended to 64 bits: a negative value takes 10 bytes.
        case .varint: self = .varint(UInt64(bitPattern: v))
        case .zigZag: self = .varint(bits64 ? zigZag(v) : zigZag(Int32(truncatingIfNeeded: v)))
        case .fixed:
            self = bits64 ? .fixed64(UInt64(bitPattern: v)) : .fixed32(UInt32(bitPattern: Int32(truncatingIfNeeded: v)))
        }
    }
}

/// A packed array's payload: plain numbers, each the plain proto type of its Swift type (`int32`,
/// `int64` for `Int`, `uint64` for `UInt`...), one after another.
enum ProtobufPacked {
    /// The payload's size; `nil` for 8- and 16-bit integers, which have no proto type.
    static func payloadSize(_ array: PackedArray) -> Int? {
        switch array {
        case .bool(let a): return a.count
        case .int32(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size(UInt64(bitPattern: Int64($1))) }
        case .int64(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size(UInt64(bitPattern: $1)) }
        case .int(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size(UInt64(bitPattern: Int64($1))) }
        case .uint32(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size(UInt64($1)) }
        case .uint64(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size($1) }
        case .uint(let a): return a.reduce(0) { $0 &+ ProtobufVarint.size(UInt64($1)) }
        case .float(let a): return 4 &* a.count
        case .double(let a): return 8 &* a.count
        case .int8, .uint8, .int16, .uint16: return nil
        }
    }

    /// Writes the payload ``payloadSize(_:)`` counted.
    static func write(_ array: PackedArray, to w: inout ByteWriter) {
        switch array {
        case .bool(let a): for v in a { w.byte(v ? 1 : 0) }
        case .int32(let a): for v in a { w.protobufVarint(UInt64(bitPattern: Int64(v))) }
        case .int64(let a): for v in a { w.protobufVarint(UInt64(bitPattern: v)) }
        case .int(let a): for v in a { w.protobufVarint(UInt64(bitPattern: Int64(v))) }
        case .uint32(let a): for v in a { w.protobufVarint(UInt64(v)) }
        case .uint64(let a): for v in a { w.protobufVarint(v) }
        case .uint(let a): for v in a { w.protobufVarint(UInt64(v)) }
        case .float(let a): for v in a { w.littleEndian(v.bitPattern) }
        case .double(let a): for v in a { w.littleEndian(v.bitPattern) }
        case .int8, .uint8, .int16, .uint16: break
        }
    }
}

extension IntegerEncoding {
    /// A signed integer's encoding in protobuf: a plain (unwrapped) `Int32`, `Int64` or `Int`
    /// arrives as `.zigZag` (v3's default) and is `int32`/`int64`, `.varint`; one a wrapper chose
    /// (`plain` false) is as chosen (`.zigZag`: `sint32`/`sint64`).
    @inline(__always)
    func protobuf(plain: Bool) -> IntegerEncoding { plain && self == .zigZag ? .varint : self }
}
