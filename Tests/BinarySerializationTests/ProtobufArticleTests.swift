import BinarySerialization
import Foundation
import Testing

/// The snippets of the DocC article Protobuf.md ("Protocol Buffers"), with the bytes and the
/// printed output it shows.
@Suite struct ProtobufArticleTests {
    typealias Message = ReadmeProtobufTests.Message

    struct Settings: Codable, Equatable {
        var volume: Int32
        var limit: Int32?
        enum CodingKeys: Int, CodingKey { case volume = 1, limit = 2 }
    }

    struct Search: Codable, Equatable {
        var query: String
        var filter: Filter?
        enum Filter: Codable, Equatable, ProtobufOneOf {
            case id(Int64)
            case name(String)
            enum CodingKeys: Int, CodingKey { case id = 2, name = 3 }
        }
        enum CodingKeys: Int, CodingKey { case query = 1, filter = 100 }
    }

    struct Stock: Codable, Equatable {
        var counts: [String: Int32]
        enum CodingKeys: Int, CodingKey { case counts = 1 }
    }

    struct OldMessage: Codable, Equatable {
        var sender: String
        enum CodingKeys: Int, CodingKey { case sender = 1 }
    }

    struct Batch: Codable, Equatable {
        var messages: [Message]
        enum CodingKeys: Int, CodingKey { case messages = 1 }
    }

    let data = Data(bytes("0a 05 41 6c 69 63 65 10 01 18 2a"))

    @Test func fieldNumbers() {
        let error = #expect(throws: DecodingError.self) {
            try ProtobufDecoder().decode(ReadmeTests.Message.self, from: data)
        }
        guard let error, case .typeMismatch(_, let context) = error else {
            Issue.record("expected DecodingError.typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(
            context.debugDescription.contains("the key has no integer value: fields need Int coding keys"))
        #expect(context.underlyingError is ProtobufDecodingError)
    }

    @Test func presence() throws {
        #expect(spacedHex(try ProtobufEncoder().encode(Settings(volume: 0, limit: 0))) == "10 00")
        #expect(try ProtobufEncoder().encode(Settings(volume: 0, limit: nil)).isEmpty)
    }

    @Test func oneOf() throws {
        let search = Search(query: "a", filter: .id(0))
        let bytes = try ProtobufEncoder().encode(search)
        #expect(spacedHex(bytes) == "0a 01 61 10 00")
        #expect(try ProtobufDecoder().decode(Search.self, from: bytes) == search)
    }

    @Test func maps() throws {
        let stock = Stock(counts: ["a": 1])
        let bytes = try ProtobufEncoder().encode(stock)
        #expect(spacedHex(bytes) == "0a 05 0a 01 61 10 01")
        #expect(try ProtobufDecoder().decode(Stock.self, from: bytes) == stock)
    }

    @Test func unknownFields() throws {
        let tree = try ProtobufDecoder().decodeTree(OldMessage.self, from: data)
        #expect(
            tree.description == """
                keyed {
                  1: "Alice"
                  2: unknown(2 bytes: 10 01)
                  3: unknown(2 bytes: 18 2a)
                }
                """)
        #expect(try ProtobufEncoder().encode(tree: tree) == data)
    }

    @Test func severalMessages() throws {
        let first = Message(sender: "Alice", isRead: true, unreadCount: 42)
        let second = Message(sender: "Bob", isRead: false, unreadCount: 3)
        var log = Data()
        log += try ProtobufEncoder().encode(Batch(messages: [first]))
        log += try ProtobufEncoder().encode(Batch(messages: [second]))
        #expect(spacedHex(log.prefix(2)) == "0a 0b")
        #expect(try ProtobufDecoder().decode(Batch.self, from: log).messages == [first, second])
        // Two messages one after the other read as one.
        let merged = try ProtobufEncoder().encode(first) + ProtobufEncoder().encode(second)
        #expect(
            try ProtobufDecoder().decode(Message.self, from: merged)
                == Message(sender: "Bob", isRead: true, unreadCount: 3))
    }

    @Test func bytesWithoutAType() throws {
        #expect(
            try ProtobufDecoder().decodeRaw(from: data).description == """
                1: "Alice"
                2: 1
                3: 42

                """)
        #expect(
            try ProtobufDecoder().explain(data) == """
                00  0a                       field 1 (length-delimited)
                01  05                         length 5
                02  41 6c 69 63 65             "Alice" (5 bytes)
                07  10                       field 2 (varint)
                08  01                         varint 1 (sint -1)
                09  18                       field 3 (varint)
                0a  2a                         varint 42 (sint 21)

                """)
    }

    struct Field<T: Encodable>: Encodable {
        var value: T
        enum CodingKeys: Int, CodingKey { case value = 1 }
    }

    struct MessageKey: Codable, Hashable {
        var a: Int32
        enum CodingKeys: Int, CodingKey { case a = 1 }
    }

    /// The code under the `EncodingError` that encoding `value` in field 1 throws, or `nil`.
    func refusal(_ value: some Encodable) -> ProtobufEncodingError? {
        do {
            _ = try ProtobufEncoder().encode(Field(value: value))
            return nil
        } catch let EncodingError.invalidValue(_, context) {
            return context.underlyingError as? ProtobufEncodingError
        } catch {
            return nil
        }
    }

    /// What the README and the article list as having no proto3 form.
    @Test func whatProto3CannotExpress() {
        #expect(refusal(Int8(1)) == .unsupportedType("Int8"))
        #expect(refusal(Int16(1)) == .unsupportedType("Int16"))
        #expect(refusal(UInt8(1)) == .unsupportedType("UInt8"))
        #expect(refusal(UInt16(1)) == .unsupportedType("UInt16"))
        #expect(refusal(Int32??.some(1)) == .nilValuesNotSupported)
        #expect(refusal([Int32?]([1])) == .nilValuesNotSupported)
        #expect(refusal([Int32?]([nil])) == .nilValuesNotSupported)
        #expect(refusal(["a": Int32?.none]) == .nilValuesNotSupported)
        #expect(refusal(["a": Int32?.some(1)]) == .nilValuesNotSupported)
        #expect(refusal([[Int32(1)]]) == .unsupportedType("[Int32]"))
        #expect(refusal([Int32]?.some([1])) == .unsupportedType("optional repeated"))
        #expect(refusal([String: Int32]?.some(["a": 1])) == .unsupportedType("optional repeated"))
        #expect(refusal([Int32]?.none) == nil)
        #expect(refusal([Float(1): "x"]) == .unsupportedType("Float"))
        #expect(refusal([Double(1): "x"]) == .unsupportedType("Double"))
        #expect(refusal([Data([1]): "x"]) == .unsupportedType("Data"))
        #expect(refusal([MessageKey(a: 1): "x"]) == .unsupportedType("a message"))
        #expect(refusal(ReadmeTests.Message(sender: "", isRead: false, unreadCount: 0)) == .missingIntegerKey("sender"))
    }

    @Test func limits() {
        #expect(ProtobufDecoder().limits.maximumDepth == 100)
        #expect(ProtobufEncoder().maximumDepth == 100)
    }
}
