import BinarySerialization
import Foundation
import Testing

// Types and helpers of the protobuf tests. Golden bytes are worked out by hand from the protobuf
// encoding specification (tag = field << 3 | wire type; varints of up to 10 bytes; fixed values
// little-endian); the Interop package checks the same rules against swift-protobuf.

/// A message with one field, number 1.
struct PB1<T: Codable & Equatable>: Codable, Equatable {
    var value: T
    init(_ value: T) { self.value = value }
    enum CodingKeys: Int, CodingKey { case value = 1 }
}

/// A message with an optional field, number 1 (a field with presence).
struct PBOptional<T: Codable & Equatable>: Codable, Equatable {
    var value: T?
    enum CodingKeys: Int, CodingKey { case value = 1 }
}

struct PBInner: Codable, Equatable {
    var a: Int32 = 0
    var b: Int32 = 0
    enum CodingKeys: Int, CodingKey { case a = 1, b = 2 }
}

struct PBOuter: Codable, Equatable {
    var name: String = ""
    var inner: PBInner = PBInner()
    var more: PBInner? = nil
    enum CodingKeys: Int, CodingKey { case name = 1, inner = 3, more = 4 }
}

enum PBColor: Int32, Codable, Equatable {
    case unspecified = 0, red = 1, blue = 2
}

struct PBChoice: Codable, Equatable {
    var id: Int32 = 0
    var pick: Pick? = nil
    enum Pick: Codable, Equatable, ProtobufOneOf {
        case number(Int64)
        case text(String)
        case inner(PBInner)
        enum CodingKeys: Int, CodingKey { case number = 2, text = 3, inner = 4 }
    }
    enum CodingKeys: Int, CodingKey { case id = 1, pick = 100 }
}

/// Checks that `value` encodes to `hex` and that `hex` decodes to `value`, and that the tree
/// path gives the same bytes.
func expectProtobuf<T: Codable & Equatable>(
    _ value: T, _ hex: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let golden = bytes(hex)
    do {
        let encoder = ProtobufEncoder()
        let data = try encoder.encode(value)
        #expect(spacedHex(data) == spacedHex(golden), "encoded bytes", sourceLocation: sourceLocation)
        let viaTree = try encoder.encode(tree: encoder.encodeTree(value))
        #expect(spacedHex(viaTree) == spacedHex(golden), "bytes through the tree", sourceLocation: sourceLocation)
    } catch {
        Issue.record("encoding threw \(error)", sourceLocation: sourceLocation)
    }
    do {
        let decoded = try ProtobufDecoder().decode(T.self, from: Data(golden))
        #expect(decoded == value, "decoding the golden bytes", sourceLocation: sourceLocation)
    } catch {
        Issue.record("decoding the golden bytes threw \(error)", sourceLocation: sourceLocation)
    }
}

/// Checks that decoding `hex` as `T` gives `value` (inputs no encoder writes, but parsers accept).
func expectProtobufDecodes<T: Decodable & Equatable>(
    _ hex: String, as value: T, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let decoded = try ProtobufDecoder().decode(T.self, from: Data(bytes(hex)))
        #expect(decoded == value, sourceLocation: sourceLocation)
    } catch {
        Issue.record("decoding threw \(error)", sourceLocation: sourceLocation)
    }
}

/// The `ProtobufEncodingError` under the `EncodingError` that encoding `value` throws, with the
/// error's coding path as a string.
func protobufEncodingFailure<T: Encodable>(_ value: T) -> (ProtobufEncodingError?, String)? {
    do {
        _ = try ProtobufEncoder().encode(value)
        return nil
    } catch let EncodingError.invalidValue(_, context) {
        return (
            context.underlyingError as? ProtobufEncodingError,
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        )
    } catch {
        return (nil, "not an EncodingError: \(error)")
    }
}

/// The `DecodingError` that decoding `hex` as `T` throws; `nil` (a test failure) if it decodes.
func protobufDecodingFailure<T: Decodable>(
    _ type: T.Type, _ hex: String, sourceLocation: SourceLocation = #_sourceLocation
) -> DecodingError? {
    do {
        _ = try ProtobufDecoder().decode(T.self, from: Data(bytes(hex)))
        Issue.record("decoded without an error", sourceLocation: sourceLocation)
        return nil
    } catch let error as DecodingError {
        return error
    } catch {
        Issue.record("threw \(error), not a DecodingError", sourceLocation: sourceLocation)
        return nil
    }
}

extension DecodingError {
    /// The wire error underneath, with its byte offset.
    var wireError: WireFormatError? {
        switch self {
        case .dataCorrupted(let c), .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c):
            return c.underlyingError as? WireFormatError
        @unknown default: return nil
        }
    }

    var path: String {
        let c: Context
        switch self {
        case .dataCorrupted(let x), .typeMismatch(_, let x), .valueNotFound(_, let x), .keyNotFound(_, let x): c = x
        @unknown default: return ""
        }
        return c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
}
