public import Foundation
import TreeCoding

/// A protobuf message read without its type, as `protoc --decode_raw` reads one: each field's
/// number and wire type are in the bytes, so the framing is exact; only a length-delimited value is
/// a guess (a nested message when its bytes frame as one, else a string or bytes).
///
/// `description` prints it in `protoc --decode_raw`'s text form. `serialized()` writes the fields
/// back; the bytes equal the input except that over-long varints come back in their shortest form.
public struct ProtobufRawMessage: Hashable, Sendable, CustomStringConvertible {
    /// The fields in stored order.
    public var fields: [ProtobufRawField]

    /// A message of `fields`.
    public init(fields: [ProtobufRawField]) { self.fields = fields }

    /// The fields as `protoc --decode_raw` prints them: `number: value` for scalars (fixed-size
    /// values in hex), `number { ... }` for nested messages and groups, strings quoted.
    public var description: String {
        var out = ""
        write(to: &out, indent: "")
        return out
    }

    /// The message's bytes.
    public func serialized() -> Data {
        var out: [UInt8] = []
        write(to: &out)
        return Data(out)
    }
}

/// One field of a ``ProtobufRawMessage``.
public struct ProtobufRawField: Hashable, Sendable {
    /// Where the field's tag starts in the input.
    public var offset: Int
    /// The field number.
    public var number: Int
    /// The value, in its wire type.
    public var value: Value

    /// A field numbered `number` at `offset`.
    public init(offset: Int, number: Int, value: Value) {
        self.offset = offset
        self.number = number
        self.value = value
    }

    /// A field's value, by wire type.
    public enum Value: Hashable, Sendable {
        /// Wire type 0.
        case varint(UInt64)
        /// Wire type 1: eight bytes, little-endian.
        case fixed64(UInt64)
        /// Wire type 5: four bytes, little-endian.
        case fixed32(UInt32)
        /// Wire type 2: the bytes, and the message they frame as, if they do (non-empty, every
        /// field whole).
        case lengthDelimited(Data, message: ProtobufRawMessage?)
        /// Wire types 3 and 4: the fields between a group's start and end tags.
        case group(ProtobufRawMessage)
    }
}

extension ProtobufDecoder {
    /// Reads `data` as a protobuf message without its type (`protoc --decode_raw`).
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the bytes are not a message (a truncated field,
    ///   a bad wire type, field number 0...) or nest deeper than ``maximumDepth``, with the offset.
    /// - Complexity: O(n · depth) in the size of the data.
    public func decodeRaw(from data: Data) throws -> ProtobufRawMessage {
        let input = data.withUnsafeBytes { ProtobufInput($0) }
        do {
            return try ProtobufRawReader(input: input, maximumDepth: maximumDepth).message(0..<input.count, depth: 0)
        } catch let error as WireFormatError {
            throw error.topLevelDecodingError
        }
    }
}

/// Reads fields without a type, with the framing rules of ``ProtobufFraming``.
private struct ProtobufRawReader {
    let input: ProtobufInput
    let maximumDepth: Int
    private let stack = DecodingThreadCache.current.stack

    func message(_ range: Range<Int>, depth: Int) throws -> ProtobufRawMessage {
        try ProtobufFraming.checkNesting(depth, maximumDepth: maximumDepth, stack: stack, at: range.lowerBound)
        return try message(ProtobufFraming.fields(input.buffer, [range], maximumDepth: maximumDepth), depth: depth)
    }

    /// The message of `entries`, framed `depth` messages below the top level.
    private func message(_ entries: [ProtobufFieldEntry], depth: Int) throws -> ProtobufRawMessage {
        ProtobufRawMessage(fields: try entries.map { try field($0, depth: depth) })
    }

    func field(_ entry: ProtobufFieldEntry, depth: Int) throws -> ProtobufRawField {
        var r = input.reader(entry.value)
        let value: ProtobufRawField.Value
        switch entry.wireType {
        case .varint: value = .varint(try r.protobufVarint())
        case .fixed64: value = .fixed64(try r.littleEndian(UInt64.self))
        case .fixed32: value = .fixed32(try r.littleEndian(UInt32.self))
        case .lengthDelimited:
            let bytes = Data(UnsafeRawBufferPointer(rebasing: input.buffer[entry.value]))
            value = .lengthDelimited(bytes, message: try nestedMessage(entry.value, depth: depth + 1))
        case .startGroup, .endGroup:
            // The group's value runs to its end tag, which is not one of its fields.
            var fields: [ProtobufRawField] = []
            var g = input.reader(entry.value)
            while !g.isAtEnd {
                let inner = try ProtobufFraming.field(&g, groupDepth: depth + 1, maximumDepth: maximumDepth)
                if inner.wireType == .endGroup { break }
                fields.append(try field(inner, depth: depth + 1))
            }
            value = .group(ProtobufRawMessage(fields: fields))
        }
        return ProtobufRawField(offset: entry.tagStart, number: entry.number, value: value)
    }

    /// The message the bytes of `range` frame as, or `nil` (empty, not whole fields, or deeper
    /// than `maximumDepth`). Throws only where the thread's stack ends.
    func nestedMessage(_ range: Range<Int>, depth: Int) throws -> ProtobufRawMessage? {
        guard depth <= maximumDepth, !range.isEmpty,
            let entries = try? ProtobufFraming.fields(input.buffer, [range], maximumDepth: maximumDepth)
        else { return nil }
        try ProtobufFraming.checkNesting(depth, maximumDepth: maximumDepth, stack: stack, at: range.lowerBound)
        return try message(entries, depth: depth)
    }
}

extension ProtobufRawMessage {
    func write(to out: inout String, indent: String) {
        for field in fields {
            switch field.value {
            case .varint(let v): out += "\(indent)\(field.number): \(v)\n"
            case .fixed64(let v): out += "\(indent)\(field.number): 0x\(hex(v, digits: 16))\n"
            case .fixed32(let v): out += "\(indent)\(field.number): 0x\(hex(UInt64(v), digits: 8))\n"
            case .lengthDelimited(_, let message?), .group(let message):
                out += "\(indent)\(field.number) {\n"
                message.write(to: &out, indent: indent + "  ")
                out += "\(indent)}\n"
            case .lengthDelimited(let bytes, nil):
                out += "\(indent)\(field.number): \(Self.quoted(bytes))\n"
            }
        }
    }

    private func hex(_ v: UInt64, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    /// `bytes` in double quotes as `protoc --decode_raw` prints a string field: UTF-8 text as is
    /// (quotes, backslashes and control characters escaped), other bytes printable ASCII as is and
    /// the rest in octal escapes. `"\010\001"` for the bytes `08 01`.
    public static func quoted(_ bytes: Data) -> String { "\"" + escaped(bytes) + "\"" }

    /// The bytes as a C-style string literal's content: printable ASCII as is, UTF-8 text as is,
    /// anything else in octal escapes (as protoc prints it).
    static func escaped(_ bytes: Data) -> String {
        if let text = bytes.withUnsafeBytes({ validUTF8String($0) }) {
            return text.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\n"
                case "\r": return "\\r"
                case "\t": return "\\t"
                default:
                    return scalar.value < 0x20 || scalar.value == 0x7f
                        ? "\\" + String(scalar.value, radix: 8).leftPadded(to: 3) : String(scalar)
                }
            }.joined()
        }
        return bytes.map { b -> String in
            switch b {
            case UInt8(ascii: "\""): return "\\\""
            case UInt8(ascii: "\\"): return "\\\\"
            case 0x20..<0x7f: return String(UnicodeScalar(b))
            default: return "\\" + String(b, radix: 8).leftPadded(to: 3)
            }
        }.joined()
    }

    func write(to out: inout [UInt8]) {
        for field in fields {
            switch field.value {
            case .varint(let v):
                Self.tag(field.number, .varint, &out)
                ProtobufVarint.forEachByte(v) { out.append($0) }
            case .fixed64(let v):
                Self.tag(field.number, .fixed64, &out)
                withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
            case .fixed32(let v):
                Self.tag(field.number, .fixed32, &out)
                withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
            case .lengthDelimited(let bytes, _):
                Self.tag(field.number, .lengthDelimited, &out)
                ProtobufVarint.forEachByte(UInt64(bytes.count)) { out.append($0) }
                out.append(contentsOf: bytes)
            case .group(let message):
                Self.tag(field.number, .startGroup, &out)
                message.write(to: &out)
                Self.tag(field.number, .endGroup, &out)
            }
        }
    }

    private static func tag(_ number: Int, _ type: ProtobufWireType, _ out: inout [UInt8]) {
        // A field read from bytes has a number in range; a hand-made one is clamped into the
        // 29 bits a tag holds rather than trapping.
        let field = min(max(number, 0), ProtobufWire.fieldNumbers.upperBound)
        ProtobufVarint.forEachByte(ProtobufWire.tag(field, type)) { out.append($0) }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
