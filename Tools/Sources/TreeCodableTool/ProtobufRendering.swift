import BinarySerialization
import Foundation

/// An indented rendering of a protobuf message read without its type: one `number: value` line
/// per field, scalars as `protoc --decode_raw` prints them (fixed-size values in hex).
///
/// A length-delimited value lists every reading that fits, joined by ` | ` as the v3 inspector
/// joins a value's readings (see ``lengthDelimitedReadings(_:message:)``); when its bytes frame as
/// a message, that message's fields follow one level deeper, as a group's do.
struct ProtobufRenderer {
    /// Spaces per level.
    var indentWidth = 2

    /// The lines of `message`'s fields, `indent` levels deep.
    func lines(_ message: ProtobufRawMessage, indent: Int = 0) -> [String] {
        var out: [String] = []
        render(message, indent: indent, into: &out)
        return out
    }

    private func render(_ message: ProtobufRawMessage, indent: Int, into out: inout [String]) {
        let prefix = String(repeating: " ", count: indent &* indentWidth)
        for field in message.fields {
            let label = prefix + "\(field.number): "
            switch field.value {
            case .varint(let v): out.append(label + String(v))
            case .fixed64(let v): out.append(label + String(format: "0x%016llx", v))
            case .fixed32(let v): out.append(label + String(format: "0x%08x", v))
            case .lengthDelimited(let bytes, let nested):
                out.append(label + lengthDelimitedReadings(bytes, message: nested).joined(separator: " | "))
                if let nested { render(nested, indent: indent &+ 1, into: &out) }
            case .group(let group):
                out.append(label + "group (\(plural(group.fields.count, "field")))")
                render(group, indent: indent &+ 1, into: &out)
            }
        }
    }
}

/// The readings of a length-delimited value, most plausible first: its text in quotes (escaped
/// as `protoc --decode_raw` escapes it) when `bytes` are valid UTF-8, else `bytes` and every byte
/// in hex; and `message (N fields)` when `message` (what the bytes frame as) is not nil. Text that
/// a person could have written (no control characters but tab and line breaks) comes first,
/// else the message.
func lengthDelimitedReadings(_ bytes: Data, message: ProtobufRawMessage?) -> [String] {
    let text = utf8Text(bytes)
    let flat = text == nil ? "bytes " + bytes.map(hexByte).joined(separator: " ") : ProtobufRawMessage.quoted(bytes)
    guard let message else { return [flat] }
    let framed = "message (\(plural(message.fields.count, "field")))"
    return text.map(isPrintableText) == true ? [flat, framed] : [framed, flat]
}

/// `bytes` as a string when they are valid UTF-8, else nil. Decoding repairs invalid UTF-8, so
/// the bytes are valid exactly when the decoded string's UTF-8 is the bytes.
func utf8Text(_ bytes: Data) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
}

/// Whether `text` has no control characters but tab, line feed and carriage return.
func isPrintableText(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { u in
        u == "\t" || u == "\n" || u == "\r" || u.properties.generalCategory != .control
    }
}
