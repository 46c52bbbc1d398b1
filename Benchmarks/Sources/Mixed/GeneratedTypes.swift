// Types of the mix with generated coding (`GeneratedBinaryCodable`). The conformances are the code
// `@TreeCodable` writes for these declarations (Macros/README.md shows an expansion), written out
// here so that the benchmarks do not build swift-syntax; the Macros package's differential holds
// that code to the `Codable` path's bytes.
import BinarySerialization
import Foundation

struct GenChatMessage: Codable, Equatable {
    var id: UInt64
    var room: Int32
    var author: String
    var text: String
    var edited: Bool
    enum CodingKeys: Int, CodingKey { case id = 1, room, author, text, edited }
}

extension GenChatMessage: GeneratedBinaryCodable {
    static var binaryCodingKeys: [any CodingKey] {
        [CodingKeys.id, CodingKeys.room, CodingKeys.author, CodingKeys.text, CodingKeys.edited]
    }

    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(self.id, at: 0)
        try fields.encode(self.room, at: 1)
        try fields.encode(self.author, at: 2)
        try fields.encode(self.text, at: 3)
        try fields.encode(self.edited, at: 4)
    }

    init(binaryFields fields: inout BinaryFieldReader) throws {
        self.id = try fields.decode(UInt64.self, at: 0)
        self.room = try fields.decode(Int32.self, at: 1)
        self.author = try fields.decode(String.self, at: 2)
        self.text = try fields.decode(String.self, at: 3)
        self.edited = try fields.decode(Bool.self, at: 4)
    }
}

struct GenLineItem: Codable, Equatable {
    var sku: String
    var quantity: Int32
    var price: Double
    enum CodingKeys: Int, CodingKey { case sku = 1, quantity, price }
}

extension GenLineItem: GeneratedBinaryCodable {
    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.sku, CodingKeys.quantity, CodingKeys.price] }

    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(self.sku, at: 0)
        try fields.encode(self.quantity, at: 1)
        try fields.encode(self.price, at: 2)
    }

    init(binaryFields fields: inout BinaryFieldReader) throws {
        self.sku = try fields.decode(String.self, at: 0)
        self.quantity = try fields.decode(Int32.self, at: 1)
        self.price = try fields.decode(Double.self, at: 2)
    }
}

/// Nested generated messages, a repeated field, an optional and a type without generated code
/// (`Date`, through `Codable`).
struct GenOrder: Codable, Equatable {
    var id: Int64
    var items: [GenLineItem]
    var note: String?
    var placed: Date
    enum CodingKeys: Int, CodingKey { case id = 1, items, note, placed }
}

extension GenOrder: GeneratedBinaryCodable {
    static var binaryCodingKeys: [any CodingKey] {
        [CodingKeys.id, CodingKeys.items, CodingKeys.note, CodingKeys.placed]
    }

    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(self.id, at: 0)
        try fields.encode(self.items, at: 1)
        try fields.encodeIfPresent(self.note, at: 2)
        try fields.encode(self.placed, at: 3)
    }

    init(binaryFields fields: inout BinaryFieldReader) throws {
        self.id = try fields.decode(Int64.self, at: 0)
        self.items = try fields.decode([GenLineItem].self, at: 1)
        self.note = try fields.decodeIfPresent(String.self, at: 2)
        self.placed = try fields.decode(Date.self, at: 3)
    }
}
