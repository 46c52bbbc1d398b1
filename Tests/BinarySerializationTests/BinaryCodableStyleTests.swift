import BinarySerialization
import Foundation
import Testing

// Code written the way BinaryCodable's README and its users write it: it must compile and pass
// unchanged against this library.

private struct ChatMessage: Codable, Equatable {
    @FixedSizeEncoded var id: Int64 = 5
    var sender: String
    var delta: ZigZagEncoded<Int16> = 3
    @Packed var samples: [Double] = []
    var isRead: Bool
}

@Suite struct BinaryCodableStyleTests {
    private let message = ChatMessage(sender: "Bob", samples: [0.5, 2], isRead: false)

    @Test func staticCallsAndInferredTypes() throws {
        let data = try BinaryEncoder.encode(message)
        let decoded: ChatMessage = try BinaryDecoder.decode(from: data)
        #expect(decoded == message)

        let encoder = BinaryEncoder()
        let decoder = BinaryDecoder()
        let again: ChatMessage = try decoder.decode(from: encoder.encode(message))
        #expect(again == message)
        #expect(try decoder.decode(ChatMessage.self, from: data) == message)
    }

    @Test func wrapperLiteralsAndArithmetic() throws {
        var m = message
        m.id += 1
        m.delta = m.delta * 2 - 10
        #expect(m.id == 6 && m.delta == -4 && "\(m.delta)" == "-4")
        let decoded: ChatMessage = try BinaryDecoder.decode(from: BinaryEncoder.encode(m))
        #expect(decoded.id == 6 && decoded.delta.wrappedValue == -4)
    }

    @Test func streamDecoderFromALet() throws {
        let messages = (0..<5).map { ChatMessage(id: Int64($0), sender: "s\($0)", isRead: $0 % 2 == 0) }
        let encoder = BinaryStreamEncoder<ChatMessage>()
        let decoder = BinaryStreamDecoder<ChatMessage>()
        var received: [ChatMessage] = []
        for m in messages {
            let bytes = try encoder.encode(m)
            decoder.add(bytes.prefix(2))
            received += try decoder.decodeElements()
            decoder.add(bytes.dropFirst(2))
            if let element = try decoder.decodeElement() { received.append(element) }
        }
        #expect(received == messages)
        #expect(decoder.decodeElementsUntilError().elements.isEmpty)
    }

    @Test func fileReadAllUntilError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("style-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<ChatMessage>(fileAt: url)
        try writer.write(message)
        try writer.write(contentsOf: [message, message])
        try writer.close()

        let reader = try BinaryFileDecoder<ChatMessage>(fileAt: url)
        let elements = reader.readAllUntilError()
        try reader.close()
        #expect(elements == [message, message, message])
    }

    @Test func sortingThroughUserInfo() throws {
        struct Pair: Codable {
            var z = 1
            var a = 2
        }
        var encoder = BinaryEncoder()
        encoder.userInfo[BinaryEncoder.userInfoSortKey] = true
        var sorted = BinaryEncoder()
        sorted.sortKeysDuringEncoding = true
        #expect(try encoder.encode(Pair()) == sorted.encode(Pair()))
    }

    @Test func corruptDataIsReported() throws {
        do {
            let _: ChatMessage = try BinaryDecoder.decode(from: Data([0xff]))
            Issue.record("one byte is not a message")
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error {
                #expect(context.underlyingError is CorruptedDataError)
            }
        }
    }

    @Test func packedArraysAreTheirPlainBytes() throws {
        struct Plain: Codable { var values: [Int32] }
        struct Marked: Codable { @Packed var values: [Int32] }
        #expect(
            try BinaryEncoder.encode(Marked(values: [1, -1, 300])) == BinaryEncoder.encode(Plain(values: [1, -1, 300])))
    }
}
