import BinarySerialization
import Foundation
import Testing

// Helpers shared by the golden-byte, determinism and malformed-input tests.

/// Bytes from hex text: whitespace is ignored and `//` starts a comment that runs to the end of
/// the line, so inputs can be written one annotated byte group per line.
func bytes(_ text: String) -> [UInt8] {
    var digits = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
        digits += code.filter { !$0.isWhitespace }
    }
    precondition(digits.count % 2 == 0, "odd number of hex digits in \(text)")
    return unhex(digits.lowercased())
}

/// Hex with a space between bytes, for readable failure messages.
func spacedHex(_ b: some Sequence<UInt8>) -> String {
    b.map { String(format: "%02x", $0) }.joined(separator: " ")
}

/// An encoder configuration a test runs in, named for the failure messages.
struct EncoderSetup: CustomStringConvertible, Sendable {
    let description: String
    let encoder: BinaryEncoder

    /// Unsorted v3, v2, and v2 with nil index sets: every option that changes unsorted bytes.
    static let all: [EncoderSetup] = [
        EncoderSetup(description: "v3", encoder: BinaryEncoder(format: .v3)),
        EncoderSetup(description: "v2", encoder: BinaryEncoder(format: .v2)),
        EncoderSetup(
            description: "v2 with nil index sets",
            encoder: {
                var e = BinaryEncoder(format: .v2)
                e.prependNilIndexSetForUnkeyedContainers = true
                return e
            }()),
    ]

    /// v3 with sorted keys.
    static let sortedV3 = EncoderSetup(description: "v3 sorted", encoder: v3Encoder(sorted: true))
}

/// A v3 encoder, sorted unless told otherwise.
func v3Encoder(sorted: Bool = true) -> BinaryEncoder {
    var e = BinaryEncoder(format: .v3)
    e.sortKeysDuringEncoding = sorted
    return e
}

extension DecodingError {
    /// The case, as a name tests can compare.
    var caseName: String {
        switch self {
        case .typeMismatch: return "typeMismatch"
        case .valueNotFound: return "valueNotFound"
        case .keyNotFound: return "keyNotFound"
        case .dataCorrupted: return "dataCorrupted"
        @unknown default: return "unknown"
        }
    }

    var context: Context? {
        switch self {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): return c
        @unknown default: return nil
        }
    }

    /// The coding path as strings (`"Index 2"` for unkeyed positions).
    var pathStrings: [String] { context?.codingPath.map(\.stringValue) ?? [] }
}

/// `T` read by its own `init(from:)`, with no `encode(to:)`: a transcode writes what it read
/// (`decodeTree`), where an `Encodable` type is decoded and encoded.
struct DecodeOnly<T: Decodable>: Decodable {
    var value: T
    init(from decoder: any Decoder) throws { value = try T(from: decoder) }
}

/// A value behind a lock, for collecting results from several threads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// A varint as v2 and v3 write it, for building inputs by hand: base 128, low group first, at most
/// nine bytes (the ninth taking the top eight bits whole).
func binaryCodableVarint(_ value: UInt64) -> [UInt8] {
    var v = value
    var out: [UInt8] = []
    for _ in 0..<8 {
        if v < 0x80 { return out + [UInt8(v)] }
        out.append(UInt8(v & 0x7f) | 0x80)
        v >>= 7
    }
    return out + [UInt8(v)]
}

/// A plain base-128 varint of up to ten bytes (protobuf's; the same bytes as
/// ``binaryCodableVarint(_:)`` below 2^56).
func base128Varint(_ value: UInt64) -> [UInt8] {
    var v = value
    var out: [UInt8] = []
    while v >= 0x80 {
        out.append(UInt8(v & 0x7f) | 0x80)
        v >>= 7
    }
    return out + [UInt8(v)]
}
