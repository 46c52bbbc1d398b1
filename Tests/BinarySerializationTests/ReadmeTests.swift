import BinarySerialization
import Foundation
import Testing

/// The README's snippets, compiled and checked, so the documentation stays true.
@Suite struct ReadmeTests {
    struct Message: Codable, Equatable {
        var sender: String
        var isRead: Bool
        var unreadCount: Int
    }

    struct Record: Codable, Equatable {
        @FixedSizeEncoded var hash: UInt64
        @VariableLengthEncoded var small: Int32
        @ZigZagEncoded var delta: Int16
    }

    struct Reading: Codable, Equatable {
        var sensor: UInt32
        var celsius: Float
        var delta: Int16
    }

    let message = Message(sender: "Alice", isRead: true, unreadCount: 42)

    @Test func quickStart() throws {
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        let data = try encoder.encode(message)
        #expect(data.count == 36)
        let decoder = BinaryDecoder()
        #expect(try decoder.decode(Message.self, from: data) == message)
        #expect(try decoder.decode(Message.self, from: Array(data)) == message)
        #expect(try decoder.decode(Message.self, from: (Data([0xaa]) + data).dropFirst()) == message)
    }

    @Test func lookAtTheTree() throws {
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        let decoder = BinaryDecoder()
        let data = try encoder.encode(message)
        var tree = try encoder.encodeTree(message)
        #expect(
            tree.description == """
                keyed {
                  "isRead": true
                  "sender": "Alice"
                  "unreadCount": Int 42
                }
                """)
        tree["unreadCount"] = 0
        let edited = try encoder.encode(tree: tree)
        #expect(try decoder.decode(Message.self, from: edited).unreadCount == 0)
        #expect(try decoder.decode(Message.self, fromTree: tree).unreadCount == 0)
        #expect(try decoder.decodeTree(Message.self, from: data) == encoder.encodeTree(message))

        let handMade: BinaryValue = ["sender": "Bob", "isRead": false, "unreadCount": 3]
        #expect(
            try decoder.decode(Message.self, fromTree: handMade)
                == Message(sender: "Bob", isRead: false, unreadCount: 3))
    }

    @Test func editTheTree() throws {
        let encoder = BinaryEncoder()
        let decoder = BinaryDecoder()
        var reading = try encoder.encodeTree(Reading(sensor: 7, celsius: 21.5, delta: -2))
        reading["sensor"] = 8
        reading["celsius"] = 0.1
        reading["delta"] = 3
        #expect(reading["sensor"] == .uint32(8, .varint))
        #expect(reading["celsius"] == .float(0.1))
        #expect(reading["delta"] == .int16(3, .fixed))
        let expected = Reading(sensor: 8, celsius: 0.1, delta: 3)
        #expect(try decoder.decode(Reading.self, from: encoder.encode(tree: reading)) == expected)
        #expect(try decoder.decode(Reading.self, fromTree: reading) == expected)
        let error = #expect(throws: BinaryValue.EditError.self) { try reading.setValue(-1, forKey: "sensor") }
        #expect(error?.code == .typeMismatch)
        reading["sensor"] = -1
        #expect(throws: DecodingError.self) { try decoder.decode(Reading.self, fromTree: reading) }
    }

    @Test func wrappers() throws {
        let record = Record(hash: 0x0102_0304_0506_0708, small: 5, delta: -3)
        let tree = try BinaryEncoder().encodeTree(record)
        #expect(tree["hash"] == .uint64(0x0102_0304_0506_0708, .fixed))
        #expect(tree["small"] == .int32(5, .varint))
        #expect(tree["delta"] == .int16(-3, .zigZag))
        #expect(try BinaryDecoder().decode(Record.self, from: BinaryEncoder().encode(record)) == record)
        // Transparent with other coders.
        let json = try JSONEncoder().encode(record)
        #expect(try JSONDecoder().decode(Record.self, from: json) == record)
        #expect(String(decoding: json, as: UTF8.self).contains("\"delta\":-3"))
    }

    @Test func legacyMigration() throws {
        let legacyData = try BinaryEncoder(format: .v2).encode(message)
        var transcoder = BinaryTranscoder(from: .v2, to: .v3)
        transcoder.encoder.sortKeysDuringEncoding = true
        let migrated = try transcoder.transcode(Message.self, from: legacyData)
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = true
        #expect(migrated == (try encoder.encode(message)))
    }

    @Test func streamsAndFiles() throws {
        let messages = (0..<5).map { Message(sender: "s\($0)", isRead: $0 % 2 == 0, unreadCount: $0) }
        let streamEncoder = BinaryStreamEncoder<Message>(encoder: BinaryEncoder())
        let bytes = try streamEncoder.encode(contentsOf: messages)
        let stream = BinaryStreamDecoder<Message>(decoder: BinaryDecoder())
        stream.add(bytes.prefix(10))
        var decoded = try stream.decodeElements()
        stream.add(bytes.dropFirst(10))
        decoded += try stream.decodeElements()
        try stream.finish()
        #expect(decoded == messages)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Message>(fileAt: url, encoder: BinaryEncoder())
        try writer.write(contentsOf: messages)
        try writer.close()
        var read: [Message] = []
        try BinaryFileDecoder<Message>(fileAt: url, decoder: BinaryDecoder()).read { read.append($0) }
        #expect(read == messages)
    }
}

/// The README's "Protocol Buffers" section: the bytes it shows, and the error a type with the Quick
/// start's synthesized `String` keys gets.
@Suite struct ReadmeProtobufTests {
    struct Message: Codable, Equatable {
        var sender: String
        var isRead: Bool
        var unreadCount: Int
        enum CodingKeys: Int, CodingKey { case sender = 1, isRead = 2, unreadCount = 3 }
    }

    let message = Message(sender: "Alice", isRead: true, unreadCount: 42)

    @Test func quickStart() throws {
        let data = try ProtobufEncoder().encode(message)
        #expect(spacedHex(data) == "0a 05 41 6c 69 63 65 10 01 18 2a")
        #expect(try ProtobufDecoder().decode(Message.self, from: data) == message)
        #expect(try ProtobufEncoder().encode(Message(sender: "", isRead: false, unreadCount: 0)).isEmpty)
    }

    @Test func stringKeysAreAnEncodingError() {
        let error = #expect(throws: EncodingError.self) { try ProtobufEncoder().encode(ReadmeTests().message) }
        guard let error, case .invalidValue(let value, let context) = error else {
            Issue.record("expected EncodingError.invalidValue")
            return
        }
        #expect(value as? String == "Alice")  // the field's value; the path names the key
        #expect(context.codingPath.map(\.stringValue) == ["sender"])
        #expect(context.codingPath.map(\.intValue) == [nil])
        #expect(context.debugDescription == "Protobuf: the key has no integer value: fields need Int coding keys")
        #expect(context.underlyingError as? ProtobufEncodingError == .missingIntegerKey("sender"))
        #expect(
            String(describing: error) == """
                EncodingError.invalidValue: "Alice" (String). Path: sender. Debug description: Protobuf: the key \
                has no integer value: fields need Int coding keys. Underlying error: \
                ProtobufEncodingError.missingIntegerKey
                """)
    }
}
