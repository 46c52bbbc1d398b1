// The mixed workload's types: the shapes real apps send and store, about thirty of them.
import BenchSupport
import BinarySerialization
import Foundation

// MARK: - Small messages

struct Ping: Codable, Equatable { var id: Int; var sentAt: Double }
struct Login: Codable, Equatable {
    var user: String
    var password: String
    var remember: Bool
}
struct ChatMessage: Codable, Equatable {
    var id: UInt64
    var room: Int32
    var author: String
    var text: String
    var edited: Bool
    enum CodingKeys: Int, CodingKey { case id = 1, room, author, text, edited }
}
struct Ack: Codable, Equatable {
    var sequence: UInt32
    var ok: Bool
    enum CodingKeys: Int, CodingKey { case sequence = 1, ok }
}
struct Coordinate: Codable, Equatable { var latitude: Double; var longitude: Double }
struct Size: Codable, Equatable { var width: Float; var height: Float }

// MARK: - Optionals and Foundation values

struct Profile: Codable, Equatable {
    var id: UUID
    var name: String
    var email: String?
    var phone: String?
    var age: Int?
    var homepage: URL?
    var joined: Date
}
struct Settings: Codable, Equatable {
    var theme: String?
    var fontSize: Int?
    var notifications: Bool?
    var volume: Double?
    var language: String
}
struct Event: Codable, Equatable {
    var id: UUID
    var at: Date
    var kind: Kind
    var payload: Data
    enum Kind: String, Codable { case created, updated, deleted }
}

// MARK: - Enums with payloads

enum Command: Codable, Equatable {
    case move(x: Int, y: Int)
    case say(String)
    case resize(Size)
    case quit
}
enum JSONish: Codable, Equatable {
    case number(Double)
    case text(String)
    case flag(Bool)
    case list([Int])
}
enum Status: Int, Codable { case idle, busy, away }
struct Presence: Codable, Equatable {
    var user: Int
    var status: Status
    var lastCommand: Command?
}

// MARK: - Nested structs and arrays of structs

struct Address: Codable, Equatable {
    var street: String
    var city: String
    var zip: String
    var location: Coordinate
}
struct Customer: Codable, Equatable {
    var id: Int
    var name: String
    var addresses: [Address]
    var tags: [String]
}
struct LineItem: Codable, Equatable {
    var sku: String
    var quantity: Int16
    var price: Double
    enum CodingKeys: Int, CodingKey { case sku = 1, quantity, price }
}
struct Order: Codable, Equatable {
    var id: Int
    var customer: Int
    var items: [LineItem]
    var note: String?
    var placed: Date
    enum CodingKeys: Int, CodingKey { case id = 1, customer, items, note, placed }
}
struct Page<T: Codable & Equatable>: Codable, Equatable {
    var items: [T]
    var next: String?
    var total: Int
}
struct Matrix: Codable, Equatable { var rows: [[Double]] }
struct Samples: Codable, Equatable {
    var values: [Int32]
    var flags: [Bool]
    var bytes: [UInt8]
}

// MARK: - Dictionaries and sets

struct Inventory: Codable, Equatable { var counts: [String: Int] }
struct Scores: Codable, Equatable { var byPlayer: [Int: Double] }
struct Tagged: Codable, Equatable {
    var tags: Set<String>
    var attributes: [String: String]
}

// MARK: - Deep values

/// A tree of structs: each node holds its children in an array.
struct TreeNode: Codable, Equatable {
    var label: String
    var children: [TreeNode]
}

/// An expression: an indirect enum nested as deep as its value is built.
indirect enum Expr: Codable, Equatable {
    case literal(Int)
    case add(Expr, Expr)
    case negate(Expr)
}

// MARK: - Values

enum Values {
    static func deepTree(depth: Int) -> TreeNode {
        var node = TreeNode(label: "leaf", children: [])
        for level in 0..<max(depth - 1, 0) { node = TreeNode(label: "n\(level)", children: [node]) }
        return node
    }

    static func deepExpr(depth: Int) -> Expr {
        var e = Expr.literal(1)
        for level in 0..<max(depth - 1, 0) { e = level % 2 == 0 ? .negate(e) : .add(e, .literal(level)) }
        return e
    }
}

// MARK: - Protobuf messages (integer keys, proto3 types)

struct ProtoChat: Codable, Equatable {
    var id: UInt64
    var room: UInt32
    var author: String
    var text: String
    var edited: Bool
    @SignedValue var delta: Int32
    enum CodingKeys: Int, CodingKey { case id = 1, room, author, text, edited, delta }
}

struct ProtoLine: Codable, Equatable {
    var sku: String
    var quantity: Int32
    var price: Double
    enum CodingKeys: Int, CodingKey { case sku = 1, quantity, price }
}

struct ProtoOrder: Codable, Equatable {
    var id: Int64
    var lines: [ProtoLine]
    var tags: [String]
    var stock: [String: Int32]
    var note: String?
    enum CodingKeys: Int, CodingKey { case id = 1, lines, tags, stock, note }
}

struct ProtoEvent: Codable, Equatable {
    var id: Int64
    var payload: Payload?
    enum Payload: Codable, Equatable, ProtobufOneOf {
        case chat(ProtoChat)
        case code(Int32)
        enum CodingKeys: Int, CodingKey { case chat = 2, code = 3 }
    }
    enum CodingKeys: Int, CodingKey { case id = 1, payload = 10 }
}
