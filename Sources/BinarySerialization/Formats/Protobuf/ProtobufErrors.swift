import Foundation

/// Why a value cannot be written as a proto3 message: the `underlyingError` of the
/// `EncodingError` that ``ProtobufEncoder`` throws (the error's coding path names the value).
///
/// The case names are BinaryCodable 2.0.3's; 2.0.3 threw them bare, this library wraps them in an
/// `EncodingError` with the coding path and a description of the rule.
public enum ProtobufEncodingError: Error, Sendable, Equatable {
    /// A single-value container was requested and nothing was written to it.
    case noValueInSingleValueContainer
    /// A `nil` where proto3 has no way to store it: in an array, a map, or an optional of an
    /// optional.
    case nilValuesNotSupported
    /// A type that proto3 has no scalar for (`Int8`, `Int16`, `UInt8`, `UInt16`, a floating-point map
    /// key...), or a structure it cannot express (an array of arrays, an optional array); the
    /// associated value names it.
    case unsupportedType(String)
    /// `superEncoder()`: protocol buffers have no inheritance.
    case superNotSupported
    /// A coding key without an integer value; the associated value is its string value.
    case missingIntegerKey(String)
    /// A repeated field whose elements do not all have the same protobuf type.
    case multipleTypesInUnkeyedContainer
    /// A field number outside 1...536870911 (2^29 − 1).
    case integerKeyOutOfRange(Int)
    /// A value's `encode(to:)` asked for two kinds of container.
    case multipleContainersAccessed
    /// A value's `encode(to:)` asked for no container.
    case noContainersAccessed
    /// The top-level value is not a message (a keyed container with integer keys).
    case rootIsNotKeyedContainer
    /// Part of BinaryCodable 2.0.3's API (its `.proto` generator); never thrown here.
    case protobufDefinitionUnavailable(String)
}

/// Why bytes could not be read as the requested type in the protobuf format: the `underlyingError`
/// of a `DecodingError` from ``ProtobufDecoder`` when the bytes are well-formed but the type asks
/// for something protobuf cannot hold. (Malformed bytes give a ``WireFormatError`` there instead.)
/// The case names are BinaryCodable 2.0.3's.
public enum ProtobufDecodingError: Error, Sendable, Equatable {
    /// A map entry whose key cannot be read as the dictionary's key type.
    case unexpectedDictionaryKey
    /// `superDecoder()`: protocol buffers have no inheritance.
    case superNotSupported
    /// A type that proto3 has no scalar for (`Int8`, `UInt16`...); the associated value names it.
    case unsupportedType(String)
    /// A request the format cannot answer (a key without an integer value, a single value at the
    /// top level...); the associated value describes it.
    case invalidAccess(String)
}

/// Marks an enum whose cases are the members of a protobuf `oneof`.
///
/// Each case has one associated value, and the case's `CodingKeys` integer values are the members'
/// field numbers, which are fields of the enclosing message (they must not overlap its own keys).
/// The coding key of the enum's property in the enclosing type is not written. A member that is
/// set is written even when its value is the default (a oneof member has presence).
///
/// ```swift
/// struct Search: Codable {
///     var query: String
///     var filter: Filter?          // nil: no member set
///     enum Filter: Codable, ProtobufOneOf {
///         case id(Int64)
///         case name(String)
///         enum CodingKeys: Int, CodingKey { case id = 2, name = 3 }
///     }
///     enum CodingKeys: Int, CodingKey { case query = 1, filter = 100 }
/// }
/// ```
public protocol ProtobufOneOf {}

extension ProtobufDecodingError {
    /// What was asked that protobuf cannot answer, for a `DecodingError`'s description.
    var reason: String {
        switch self {
        case .unexpectedDictionaryKey: return "a map key that is not the dictionary's key type"
        case .superNotSupported: return "superDecoder() has no proto3 form"
        case .unsupportedType(let name):
            return "proto3 has no scalar type for \(name) (use Int32, UInt32, Int64 or UInt64)"
        case .invalidAccess(let what): return what
        }
    }
}

extension WireFormatError {
    /// The error as `DecodingError.dataCorrupted` for bytes read without a type (no coding path):
    /// the field whose value did not frame, which a decoder puts in the path, is named in the text.
    var topLevelDecodingError: DecodingError {
        let field = key.map { "field \($0.stringValue): " } ?? ""
        return .dataCorrupted(
            .init(codingPath: [], debugDescription: "Protobuf: \(field)\(message)", underlyingError: self))
    }
}

extension ProtobufEncodingError: CustomStringConvertible {
    /// The type and the case, such as `ProtobufEncodingError.missingIntegerKey`: the
    /// `EncodingError` that carries it states the key, type or number in its coding path, value
    /// and debug description, so each is printed once. The associated value holds it as well.
    public var description: String {
        let name =
            switch self {
            case .noValueInSingleValueContainer: "noValueInSingleValueContainer"
            case .nilValuesNotSupported: "nilValuesNotSupported"
            case .unsupportedType: "unsupportedType"
            case .superNotSupported: "superNotSupported"
            case .missingIntegerKey: "missingIntegerKey"
            case .multipleTypesInUnkeyedContainer: "multipleTypesInUnkeyedContainer"
            case .integerKeyOutOfRange: "integerKeyOutOfRange"
            case .multipleContainersAccessed: "multipleContainersAccessed"
            case .noContainersAccessed: "noContainersAccessed"
            case .rootIsNotKeyedContainer: "rootIsNotKeyedContainer"
            case .protobufDefinitionUnavailable: "protobufDefinitionUnavailable"
            }
        return "ProtobufEncodingError.\(name)"
    }
}

extension ProtobufDecodingError: CustomStringConvertible {
    /// The type and the case, such as `ProtobufDecodingError.unsupportedType`: the
    /// `DecodingError` that carries it states the rest in its debug description.
    public var description: String {
        let name =
            switch self {
            case .unexpectedDictionaryKey: "unexpectedDictionaryKey"
            case .superNotSupported: "superNotSupported"
            case .unsupportedType: "unsupportedType"
            case .invalidAccess: "invalidAccess"
            }
        return "ProtobufDecodingError.\(name)"
    }
}
