import BinarySerialization
// The main job of TreeCodable, end to end:
// encode -> look at the tree -> bytes -> transcode legacy data -> decode.
import Foundation

struct Message: Codable, Equatable {
    var sender: String
    var isRead: Bool
    @FixedSizeEncoded var id: UInt64
    var tags: [String]
    var scores: [Int]
    var replyTo: Int?
}

let message = Message(
    sender: "Alice", isRead: false, id: 0xDEAD_BEEF_F00D, tags: ["inbox", "work"], scores: [3, -280, 1_000_000],
    replyTo: nil)

func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined(separator: " ") }

do {
    // 1. Encode to an inspectable tree.
    var encoder = BinaryEncoder()  // format .v3
    encoder.sortKeysDuringEncoding = true
    var tree = try encoder.encodeTree(message)
    print("1. The tree of the message:\n\(tree)\n")

    // 2. Edit the tree by hand, then serialize it.
    tree["isRead"] = .bool(true)
    let data = try encoder.encode(tree: tree)
    print("2. v3 bytes of the edited tree (\(data.count) bytes):\n\(hex(data))\n")

    // 3. Decode the bytes.
    let decoder = BinaryDecoder()
    let decoded = try decoder.decode(Message.self, from: data)
    print("3. Decoded: isRead = \(decoded.isRead), id = \(String(decoded.id, radix: 16)), scores = \(decoded.scores)\n")

    // 4. Legacy data: bytes as BinaryCodable 2.x wrote them, migrated to v3 in memory.
    let legacy = try BinaryEncoder(format: .v2).encode(decoded)
    var transcoder = BinaryTranscoder(from: .v2, to: .v3)
    transcoder.encoder.sortKeysDuringEncoding = true
    let migrated = try transcoder.transcode(Message.self, from: legacy)
    print("4. v2 bytes (\(legacy.count)):\n\(hex(legacy))\n   transcoded to v3 (\(migrated.count)):\n\(hex(migrated))")
    print("   same as encoding directly in v3: \(migrated == data)\n")

    // 5. Decode the migrated bytes and compare.
    let back = try decoder.decode(Message.self, from: migrated)
    print("5. Round trip intact: \(back == decoded)")

    // 6. Bad input is an error, not a crash.
    do {
        // Key "isRead", then an element length prefix claiming about 2^62 bytes.
        let hostile = Data([0x0d] + Array("isRead".utf8) + [0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
        _ = try decoder.decode(Message.self, from: hostile)
    } catch {
        print("6. Hostile bytes: \(error)")
    }
} catch {
    print("Example failed: \(error)")
    exit(1)
}
