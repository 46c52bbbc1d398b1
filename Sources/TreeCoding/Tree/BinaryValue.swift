public import Foundation

/// A node of the value tree that sits between a `Codable` value and its bytes.
///
/// A tree keeps everything the wire formats need, so serializing a tree gives exactly the bytes
/// that encoding the value directly gives:
/// - every integer leaf keeps its exact width and its ``IntegerEncoding``;
/// - arrays and sets of primitives are one ``packed(_:)`` node holding an unboxed Swift array;
/// - keyed containers keep their insertion order (``KeyedFields``);
/// - values that went through a single-value container (``single(_:)``) or an `Optional`
///   (``optional(_:)``) are marked, because the formats write them differently.
///
/// You can build a tree by hand, with literals where natural:
/// ```swift
/// let tree: BinaryValue = ["sender": "Alice", "isRead": true, "unreadCount": 42]
/// ```
///
/// Keys and positions never share a subscript: `tree["name"]` and `tree[4]` are fields (an integer
/// literal is an integer key, as with `enum CodingKeys: Int`), `tree[key:]` takes a `String` or `Int`
/// variable, `tree[someCodingKey]` a coding key, and `tree[position:]` reads an element.
///
/// An edit is kept exactly or refused. A value assigned in place of a primitive leaf takes the
/// leaf's type and integer encoding when it converts exactly (``assigning(_:)``): `tree["n"] = 5`
/// on a `UInt32` field stores `.uint32(5, .varint)`. The subscript setters always take effect; the
/// throwing methods (``setValue(_:forKey:)``, ``setElement(_:at:)``, ``insert(_:at:)``,
/// ``append(_:)``, ``removeElement(at:)``, ``modifyElement(at:_:)``) refuse a value that does not
/// convert, or a container or position that does not exist, with an ``EditError``.
///
/// The tree contract: decoding a type from a tree is exactly as strict as decoding it from the
/// tree's bytes, so if it returns a value, serializing the tree gives bytes that decode to that
/// value (or throws an `EncodingError`); and the tree of a value's stored bytes (`decodeTree`)
/// equals the value's tree (`encodeTree`), for the value the format stores.
public enum BinaryValue: Hashable, Sendable {
    /// No value: written by `encodeNil()` in an unkeyed or single-value container.
    case `nil`
    /// A `Bool`, written as one byte `00` or `01`.
    case bool(Bool)
    /// An `Int8`, written as one byte.
    case int8(Int8)
    /// A `UInt8`, written as one byte.
    case uint8(UInt8)
    /// An `Int16` and how it is written (two little-endian bytes unless a wrapper chose otherwise).
    case int16(Int16, IntegerEncoding = .fixed)
    /// A `UInt16` and how it is written (two little-endian bytes unless a wrapper chose otherwise).
    case uint16(UInt16, IntegerEncoding = .fixed)
    /// An `Int32` and how it is written (a zig-zag varint unless a wrapper chose otherwise).
    case int32(Int32, IntegerEncoding = .zigZag)
    /// A `UInt32` and how it is written (a varint unless a wrapper chose otherwise).
    case uint32(UInt32, IntegerEncoding = .varint)
    /// An `Int64` and how it is written (a zig-zag varint unless a wrapper chose otherwise).
    case int64(Int64, IntegerEncoding = .zigZag)
    /// A `UInt64` and how it is written (a varint unless a wrapper chose otherwise).
    case uint64(UInt64, IntegerEncoding = .varint)
    /// An `Int` and how it is written (a zig-zag varint unless a wrapper chose otherwise).
    case int(Int, IntegerEncoding = .zigZag)
    /// A `UInt` and how it is written (a varint unless a wrapper chose otherwise).
    case uint(UInt, IntegerEncoding = .varint)
    /// A `Float`, written as its four IEEE 754 bytes, big-endian (as BinaryCodable writes it).
    case float(Float)
    /// A `Double`, written as its eight IEEE 754 bytes, big-endian (as BinaryCodable writes it).
    case double(Double)
    /// A `String`, written as its UTF-8 bytes.
    case string(String)
    /// A `Data` value, written as its bytes.
    case data(Data)
    /// A homogeneous array (or set) of primitives, stored unboxed.
    case packed(PackedArray)
    /// An unkeyed container: elements in order.
    case unkeyed([BinaryValue])
    /// A keyed container: fields in insertion order, one value per key.
    case keyed(KeyedFields)
    /// A value written through a (non-optional) single-value container,
    /// such as a `RawRepresentable` enum, `Date` or `UUID`.
    indirect case single(BinaryValue)
    /// An `Optional`: `.optional(nil)` is `Optional.none`.
    indirect case optional(BinaryValue?)
    /// Stored bytes that the decoding type did not read: a v3 field the type does not know (an
    /// older version of the type), kept by `decodeTree` so that serializing the tree in v3 gives
    /// back every byte. The bytes are the value's content, without its length prefix. v2 cannot
    /// write such a node (its wire type is unknown), and no type decodes from it.
    case unknown(Data)
}

/// How an integer leaf is written.
public enum IntegerEncoding: String, Hashable, Sendable, CaseIterable {
    /// Little-endian, in the full width of the type.
    case fixed
    /// Unsigned base-128 varint of the bit pattern.
    case varint
    /// Zig-zag mapped, then varint.
    case zigZag
}

extension BinaryValue {
    /// The empty keyed container.
    public static var emptyKeyed: BinaryValue { .keyed(KeyedFields()) }

    /// `.optional(nil)`, made once: the case is indirect, so each new one is an allocation.
    package static let optionalNone: BinaryValue = .optional(nil)

    /// Whether this node is `.nil` or `.optional(nil)`.
    public var isNil: Bool {
        switch self {
        case .nil, .optional(.none): return true
        default: return false
        }
    }

    /// A short name of the node's kind, used in descriptions and error messages.
    public var kindName: String {
        switch self {
        case .nil: return "nil"
        case .bool: return "Bool"
        case .int8: return "Int8"
        case .uint8: return "UInt8"
        case .int16: return "Int16"
        case .uint16: return "UInt16"
        case .int32: return "Int32"
        case .uint32: return "UInt32"
        case .int64: return "Int64"
        case .uint64: return "UInt64"
        case .int: return "Int"
        case .uint: return "UInt"
        case .float: return "Float"
        case .double: return "Double"
        case .string: return "String"
        case .data: return "Data"
        case .packed(let p): return "[\(p.elementKindName)]"
        case .unkeyed: return "unkeyed"
        case .keyed: return "keyed"
        case .single: return "single"
        case .optional: return "optional"
        case .unknown: return "unknown"
        }
    }
}
