/// Builds the lines of an annotated hex dump: offset in hex, up to eight bytes, then the meaning.
///
/// ```
/// 00  0d 73 65 6e 64 65 72     key "sender" (string key, 6 bytes)
/// 07  0a 41 6c 69 63 65        sender: "Alice" (5 bytes)
/// ```
/// Ranges longer than eight bytes show their first seven bytes and `..`.
struct HexDump {
    let bytes: [UInt8]
    private(set) var lines: [String] = []
    private let offsetWidth: Int

    static let shownBytes = 8
    static let hexColumn = 25

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.offsetWidth = max(2, String(max(bytes.count &- 1, 0), radix: 16).count)
    }

    /// One line for `range`, its meaning indented `depth` levels.
    mutating func line(_ range: Range<Int>, _ meaning: String, depth: Int) {
        let start = max(0, min(range.lowerBound, bytes.count))
        let end = max(start, min(range.upperBound, bytes.count))
        let offset = String(start, radix: 16)
        var text = String(repeating: "0", count: max(0, offsetWidth &- offset.count)) + offset + "  "
        var hex: String
        if end &- start > Self.shownBytes {
            hex = bytes[start..<(start &+ Self.shownBytes &- 1)].map(Self.hexByte).joined(separator: " ") + " .."
        } else {
            hex = bytes[start..<end].map(Self.hexByte).joined(separator: " ")
        }
        hex += String(repeating: " ", count: max(1, Self.hexColumn &- hex.count))
        text += hex + String(repeating: "  ", count: depth) + meaning
        lines.append(text)
    }

    /// The dump as text, one line per range, each ending in a newline.
    var text: String { lines.map { $0 + "\n" }.joined() }

    static func hexByte(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 0x0f)]])
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// The name of a v2 wire type.
    static func wireTypeName(_ t: UInt8) -> String {
        switch t {
        case 0: return "varint"
        case 1: return "8 bytes"
        case 2: return "length-delimited"
        case 5: return "4 bytes"
        case 6: return "1 byte"
        case 7: return "2 bytes"
        default: return "wire type \(t)"
        }
    }
}
