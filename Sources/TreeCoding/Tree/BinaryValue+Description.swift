import Foundation

extension BinaryValue: CustomStringConvertible, CustomDebugStringConvertible {
    /// An indented, stable rendering of the tree: one node per line, keys in stored order.
    ///
    /// ```
    /// keyed {
    ///   "sender": "Alice"
    ///   "isRead": true
    ///   "unreadCount": Int 42
    /// }
    /// ```
    public var description: String {
        var out = ""
        render(into: &out, indent: "")
        return out
    }

    /// "n bytes: hex", the first 32 bytes shown.
    private static func bytesText(_ d: Data) -> String {
        var out = "\(d.count) bytes"
        if !d.isEmpty { out += ": " + d.prefix(32).map { String(format: "%02x", $0) }.joined(separator: " ") }
        return d.count > 32 ? out + " ..." : out
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    private func render(into out: inout String, indent: String) {
        let inner = indent + "  "
        switch self {
        case .nil: out += "nil"
        case .bool(let b): out += b ? "true" : "false"
        case .int8(let v): out += "Int8 \(v)"
        case .uint8(let v): out += "UInt8 \(v)"
        case .int16(let v, let e): out += "Int16 \(v)" + Self.suffix(e, default: .fixed)
        case .uint16(let v, let e): out += "UInt16 \(v)" + Self.suffix(e, default: .fixed)
        case .int32(let v, let e): out += "Int32 \(v)" + Self.suffix(e, default: .zigZag)
        case .uint32(let v, let e): out += "UInt32 \(v)" + Self.suffix(e, default: .varint)
        case .int64(let v, let e): out += "Int64 \(v)" + Self.suffix(e, default: .zigZag)
        case .uint64(let v, let e): out += "UInt64 \(v)" + Self.suffix(e, default: .varint)
        case .int(let v, let e): out += "Int \(v)" + Self.suffix(e, default: .zigZag)
        case .uint(let v, let e): out += "UInt \(v)" + Self.suffix(e, default: .varint)
        case .float(let v): out += "Float \(v)"
        case .double(let v): out += "Double \(v)"
        case .string(let s): out += Self.quoted(s)
        case .data(let d):
            out += "Data(" + Self.bytesText(d) + ")"
        case .unknown(let d):
            out += "unknown(" + Self.bytesText(d) + ")"
        case .packed(let p):
            let shown = (0..<min(p.count, 16)).map { p.leaf(at: $0).scalarText }
            out += "[\(p.elementKind.rawValue)] (\(p.count)) [" + shown.joined(separator: ", ")
            out += p.count > 16 ? ", ...]" : "]"
        case .unkeyed(let values):
            if values.isEmpty {
                out += "unkeyed []"
                return
            }
            out += "unkeyed [\n"
            for v in values {
                out += inner
                v.render(into: &out, indent: inner)
                out += "\n"
            }
            out += indent + "]"
        case .keyed(let fields):
            if fields.isEmpty {
                out += "keyed {}"
                return
            }
            out += "keyed {\n"
            for (k, v) in fields {
                out += inner + k.description + ": "
                v.render(into: &out, indent: inner)
                out += "\n"
            }
            out += indent + "}"
        case .single(let v):
            out += "single("
            v.render(into: &out, indent: indent)
            out += ")"
        case .optional(.none):
            out += "optional(nil)"
        case .optional(.some(let v)):
            out += "optional("
            v.render(into: &out, indent: indent)
            out += ")"
        }
    }

    /// A leaf without its type name (packed elements).
    private var scalarText: String {
        switch self {
        case .bool(let b): return b ? "true" : "false"
        case .int8(let v): return "\(v)"
        case .uint8(let v): return "\(v)"
        case .int16(let v, _): return "\(v)"
        case .uint16(let v, _): return "\(v)"
        case .int32(let v, _): return "\(v)"
        case .uint32(let v, _): return "\(v)"
        case .int64(let v, _): return "\(v)"
        case .uint64(let v, _): return "\(v)"
        case .int(let v, _): return "\(v)"
        case .uint(let v, _): return "\(v)"
        case .float(let v): return "\(v)"
        case .double(let v): return "\(v)"
        default: return description
        }
    }

    private static func suffix(_ e: IntegerEncoding, default d: IntegerEncoding) -> String {
        e == d ? "" : " (\(e.rawValue))"
    }

    private static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
