import Foundation
import TreeCoding

/// A Swift type that is one proto3 scalar: the primitives and the integer wrappers.
///
/// `protobufType` is `nil` for a type proto3 has no scalar for (8- and 16-bit integers, a wrapper
/// around one): encoding or decoding it is an error naming the type.
protocol ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { get }
    /// The leaf of the protobuf tree (its ``IntegerEncoding`` names the proto type).
    var protobufLeaf: BinaryValue? { get }
    /// The value of a leaf read as ``protobufType``; `nil` if it does not fit.
    init?(protobufLeaf: BinaryValue)
}

extension Bool: ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { .bool }
    var protobufLeaf: BinaryValue? { .bool(self) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard case .bool(let v) = leaf else { return nil }
        self = v
    }
}

extension Float: ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { .float }
    var protobufLeaf: BinaryValue? { .float(self) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard case .float(let v) = leaf else { return nil }
        self = v
    }
}

extension Double: ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { .double }
    var protobufLeaf: BinaryValue? { .double(self) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard case .double(let v) = leaf else { return nil }
        self = v
    }
}

extension String: ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { .string }
    var protobufLeaf: BinaryValue? { .string(self) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard case .string(let v) = leaf else { return nil }
        self = v
    }
}

extension Data: ProtobufLeaf {
    static var protobufType: ProtobufScalarType? { .bytes }
    var protobufLeaf: BinaryValue? { .data(self) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard case .data(let v) = leaf else { return nil }
        self = v
    }
}

/// The integers proto3 has a type for, with the encoding of a plain (unwrapped) value.
protocol ProtobufInteger: FixedWidthInteger {}
extension Int32: ProtobufInteger {}
extension Int64: ProtobufInteger {}
extension Int: ProtobufInteger {}
extension UInt32: ProtobufInteger {}
extension UInt64: ProtobufInteger {}
extension UInt: ProtobufInteger {}

extension ProtobufInteger {
    /// The proto type of `Self` written with `encoding` (`Int` and `UInt` are 64-bit).
    static func protobufType(_ encoding: IntegerEncoding) -> ProtobufScalarType {
        ProtobufScalarType.integer(signed: Self.isSigned, bits64: Self.bitWidth > 32, encoding)
    }

    /// The leaf of the value with `encoding`.
    func protobufLeaf(_ encoding: IntegerEncoding) -> BinaryValue {
        switch self {
        case let v as Int32: return .int32(v, encoding)
        case let v as Int64: return .int64(v, encoding)
        case let v as UInt32: return .uint32(v, encoding)
        case let v as UInt64: return .uint64(v, encoding)
        // `Int` and `UInt` are written as 64-bit integers (the leaf keeps its Swift type).
        case let v as Int: return .int(v, encoding)
        default: return .uint(UInt(truncatingIfNeeded: self), encoding)
        }
    }

    /// The value of an integer leaf, if it holds one that fits `Self` exactly.
    static func protobufValue(of leaf: BinaryValue) -> Self? {
        switch leaf {
        case .int32(let v, _): return Self(exactly: v)
        case .int64(let v, _): return Self(exactly: v)
        case .int(let v, _): return Self(exactly: v)
        case .uint32(let v, _): return Self(exactly: v)
        case .uint64(let v, _): return Self(exactly: v)
        case .uint(let v, _): return Self(exactly: v)
        default: return nil
        }
    }
}

/// Plain integers: `int32`, `int64`, `uint32`, `uint64` (`Int` and `UInt` as the 64-bit ones).
protocol PlainProtobufInteger: ProtobufInteger, ProtobufLeaf {}

extension PlainProtobufInteger {
    static var protobufType: ProtobufScalarType? { protobufType(.varint) }
    var protobufLeaf: BinaryValue? { protobufLeaf(.varint) }
    init?(protobufLeaf leaf: BinaryValue) {
        guard let v = Self.protobufValue(of: leaf) else { return nil }
        self = v
    }
}

extension Int32: PlainProtobufInteger {}
extension Int64: PlainProtobufInteger {}
extension Int: PlainProtobufInteger {}
extension UInt32: PlainProtobufInteger {}
extension UInt64: PlainProtobufInteger {}
extension UInt: PlainProtobufInteger {}

/// Integers proto3 has no type for: writing or reading one is an error naming it.
protocol UnsupportedProtobufInteger: ProtobufLeaf {}

extension UnsupportedProtobufInteger {
    static var protobufType: ProtobufScalarType? { nil }
    var protobufLeaf: BinaryValue? { nil }
    init?(protobufLeaf leaf: BinaryValue) { return nil }
}

extension Int8: UnsupportedProtobufInteger {}
extension Int16: UnsupportedProtobufInteger {}
extension UInt8: UnsupportedProtobufInteger {}
extension UInt16: UnsupportedProtobufInteger {}

/// An integer wrapper: the wrapped integer with the wrapper's encoding; a wrapped type proto3 has
/// no scalar for is unsupported.
protocol ProtobufWrapperLeaf: ProtobufLeaf {
    associatedtype Wrapped
    static var protobufEncoding: IntegerEncoding { get }
    var protobufWrapped: Wrapped { get }
    init(protobufWrapped: Wrapped)
}

extension ProtobufWrapperLeaf {
    static var protobufType: ProtobufScalarType? {
        (Wrapped.self as? any ProtobufInteger.Type)?.protobufType(protobufEncoding)
    }

    var protobufLeaf: BinaryValue? {
        (protobufWrapped as? any ProtobufInteger)?.protobufLeaf(Self.protobufEncoding)
    }

    init?(protobufLeaf leaf: BinaryValue) {
        guard let integer = Wrapped.self as? any ProtobufInteger.Type,
            let value = integer.protobufValue(of: leaf) as? Wrapped
        else { return nil }
        self.init(protobufWrapped: value)
    }
}

extension FixedSizeEncoded: ProtobufWrapperLeaf {
    static var protobufEncoding: IntegerEncoding { .fixed }
    var protobufWrapped: Value { wrappedValue }
    init(protobufWrapped: Value) { self.init(wrappedValue: protobufWrapped) }
}

extension VariableLengthEncoded: ProtobufWrapperLeaf {
    static var protobufEncoding: IntegerEncoding { .varint }
    var protobufWrapped: Value { wrappedValue }
    init(protobufWrapped: Value) { self.init(wrappedValue: protobufWrapped) }
}

extension ZigZagEncoded: ProtobufWrapperLeaf {
    static var protobufEncoding: IntegerEncoding { .zigZag }
    var protobufWrapped: Value { wrappedValue }
    init(protobufWrapped: Value) { self.init(wrappedValue: protobufWrapped) }
}

extension SignedValue: ProtobufWrapperLeaf {
    static var protobufEncoding: IntegerEncoding { .zigZag }
    var protobufWrapped: WrappedValue { wrappedValue }
    init(protobufWrapped: WrappedValue) { self.init(wrappedValue: protobufWrapped) }
}
