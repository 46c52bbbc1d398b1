import BinarySerialization

/// A JSON value written with its object keys in the order given, so the output is stable.
enum JSON {
    case null
    case bool(Bool)
    case int(Int)
    case uint(UInt64)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    /// The value on one line.
    var text: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .uint(let u): out += String(u)
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { out += "," }
                Self.quote(key, into: &out)
                out += ":"
                value.write(into: &out)
            }
            out += "}"
        }
    }

    /// `s` as a JSON string: quotes, backslashes and control characters escaped.
    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 &- hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }
}

/// The JSON form of a raw node (schema in Tools/README.md): offsets are decimal and absolute,
/// shifted by `base`.
func rawNodeJSON(_ node: RawNode, base: Int) -> JSON {
    var members: [(String, JSON)] = [
        ("offset", .int(base &+ node.offset)), ("size", .int(node.byteCount)),
    ]
    switch node.content {
    case .keyed(let fields):
        members.append(("kind", .string("keyed")))
        members.append(
            (
                "fields",
                .array(
                    fields.map { field in
                        let key: JSON
                        switch field.key {
                        case .int(let k): key = .uint(k)
                        case .string(let s): key = .string(s)
                        }
                        return .object([
                            ("key", key), ("keyOffset", .int(base &+ field.keyOffset)),
                            ("wireType", field.wireType.map { .int(Int($0)) } ?? .null),
                            ("value", field.value.map { rawNodeJSON($0, base: base) } ?? .null),
                        ])
                    })
            ))
    case .unkeyed(let elements):
        members.append(("kind", .string("unkeyed")))
        members.append(("elements", .array(elements.map { $0.map { rawNodeJSON($0, base: base) } ?? .null })))
    case .bytes(let bytes, let readings):
        members.append(("kind", .string("bytes")))
        members.append(("hex", .string(bytes.map(hexByte).joined())))
        members.append(("readings", .array(readings.map { .string($0.description) })))
    }
    members.append(("alsoFits", .array(node.alternatives.map { .string($0.description) })))
    return .object(members)
}

/// A byte as two lowercase hex digits.
func hexByte(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16)
    return byte < 0x10 ? "0" + digits : digits
}

/// A protobuf message read without its type: `{"fields": [...]}`, each field
/// `{"number", "offset", "wireType", ...}` with its value by wire type: `"varint"`, `"fixed64"`,
/// `"fixed32"` (numbers); `"bytes"` (hex), `"message"` (the fields they frame as, or null) and
/// `"string"` (the text when the bytes are valid UTF-8, or null); or `"group"`.
func protobufJSON(_ message: ProtobufRawMessage) -> JSON {
    .object([("fields", .array(message.fields.map(protobufFieldJSON)))])
}

private func protobufFieldJSON(_ field: ProtobufRawField) -> JSON {
    var members: [(String, JSON)] = [("number", .int(field.number)), ("offset", .int(field.offset))]
    switch field.value {
    case .varint(let v): members += [("wireType", .int(0)), ("varint", .uint(v))]
    case .fixed64(let v): members += [("wireType", .int(1)), ("fixed64", .uint(v))]
    case .fixed32(let v): members += [("wireType", .int(5)), ("fixed32", .uint(UInt64(v)))]
    case .lengthDelimited(let bytes, let message):
        members += [
            ("wireType", .int(2)), ("bytes", .string(bytes.map(hexByte).joined())),
            ("message", message.map(protobufJSON) ?? .null), ("string", utf8Text(bytes).map { .string($0) } ?? .null),
        ]
    case .group(let message): members += [("wireType", .int(3)), ("group", protobufJSON(message))]
    }
    return .object(members)
}
