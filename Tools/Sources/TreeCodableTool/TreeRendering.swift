import BinarySerialization

/// An indented rendering of a `RawNode`: one line per container, field or element, with its
/// readings, size and offset (decimal, from the start of the input).
struct TreeRenderer {
    /// Added to every offset (the position of a stream element in its stream).
    var base = 0
    /// Spaces per level.
    var indentWidth = 2

    /// The lines of `node`, the first one labelled `label` (empty for a root).
    func lines(_ node: RawNode, label: String = "", indent: Int = 0) -> [String] {
        var out: [String] = []
        render(node, label: label, indent: indent, into: &out)
        return out
    }

    private func pad(_ indent: Int) -> String { String(repeating: " ", count: indent &* indentWidth) }

    private func size(_ node: RawNode) -> String {
        let n = node.byteCount
        return "\(n) byte\(n == 1 ? "" : "s") at \(base &+ node.offset)"
    }

    private func render(_ node: RawNode, label: String, indent: Int, into out: inout [String]) {
        let prefix = pad(indent) + (label.isEmpty ? "" : label + ": ")
        switch node.content {
        case .keyed(let fields):
            out.append(prefix + "keyed container (\(plural(fields.count, "field")), \(size(node)))")
            alternatives(node, indent: indent &+ 1, into: &out)
            for field in fields {
                var name = field.key.description
                if let wireType = field.wireType { name += " (wire type \(wireType) \(wireTypeName(wireType)))" }
                if let value = field.value {
                    render(value, label: name, indent: indent &+ 1, into: &out)
                } else {
                    out.append(pad(indent &+ 1) + name + ": nil")
                }
            }
        case .unkeyed(let elements):
            out.append(prefix + "unkeyed container (\(plural(elements.count, "element")), \(size(node)))")
            alternatives(node, indent: indent &+ 1, into: &out)
            for (i, element) in elements.enumerated() {
                if let element {
                    render(element, label: "[\(i)]", indent: indent &+ 1, into: &out)
                } else {
                    out.append(pad(indent &+ 1) + "[\(i)]: nil")
                }
            }
        case .bytes(let bytes, let readings):
            let text: String
            if bytes.isEmpty {
                text = "empty"
            } else if readings.isEmpty {
                text = "bytes " + hexPreview(bytes)
            } else {
                text = readings.map(\.description).joined(separator: " | ")
            }
            out.append(prefix + text + " (\(size(node)))")
            alternatives(node, indent: indent &+ 1, into: &out)
        }
    }

    private func alternatives(_ node: RawNode, indent: Int, into out: inout [String]) {
        guard !node.alternatives.isEmpty else { return }
        out.append(pad(indent) + "(also fits: " + node.alternatives.map(\.description).joined(separator: "; ") + ")")
    }
}

func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

/// The first eight bytes in hex, then `..` if there are more.
func hexPreview(_ bytes: [UInt8], limit: Int = 8) -> String {
    let shown = bytes.prefix(limit).map(hexByte)
    return shown.joined(separator: " ") + (bytes.count > limit ? " .." : "")
}

/// The name of a v2 wire type.
func wireTypeName(_ wireType: UInt8) -> String {
    switch wireType {
    case 0: return "varint"
    case 1: return "8 bytes"
    case 2: return "length-delimited"
    case 5: return "4 bytes"
    case 6: return "1 byte"
    case 7: return "2 bytes"
    default: return "unknown"
    }
}
