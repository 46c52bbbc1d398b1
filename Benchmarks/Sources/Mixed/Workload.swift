// The values of the mixed workload and the operations run on them.
import BenchSupport
import BinarySerialization
import Foundation

/// One timed operation of the mix.
struct Operation {
    /// "Type format operation", e.g. "ChatMessage v3 decode".
    var name: String
    /// The coder family: "TreeCodable", "floor" or "JSON".
    var coder: String
    var type: String
    var kind: String
    var run: () throws -> Void
}

/// Builds the operations for one value of every type.
enum Workload {
    static func operations() throws -> [Operation] {
        var rng = SplitMix64(seed: 35)
        var ops: [Operation] = []
        func add<T: Codable & Equatable>(_ name: String, _ value: T) throws {
            try ops += operations(name, value)
        }
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
        try add("Ping", Ping(id: 7, sentAt: 1_700_000_000.5))
        try add("Login", Login(user: "alice@example.com", password: "correct horse", remember: true))
        try add(
            "ChatMessage", ChatMessage(id: 9_000_000_001, room: 12, author: "bob", text: "See you at 5?", edited: false))
        try add("Ack", Ack(sequence: 4_000_000_000, ok: true))
        try add("Coordinate", Coordinate(latitude: 52.52, longitude: 13.405))
        try add("Size", Size(width: 320, height: 480.5))
        try add("MessageIntKeys", Generate.messageIntKeys())
        try add("MessageStringKeys", Generate.messageStringKeys())
        try add(
            "Profile",
            Profile(
                id: uuid, name: "Alice", email: "alice@example.com", phone: nil, age: 34,
                homepage: URL(string: "https://example.com/alice"), joined: date))
        try add("Settings", Settings(theme: "dark", fontSize: nil, notifications: true, volume: nil, language: "en"))
        try add("Event", Event(id: uuid, at: date, kind: .updated, payload: Data((0..<48).map { UInt8($0) })))
        try add("Command", Command.move(x: 10, y: -4))
        try add("Command.resize", Command.resize(Size(width: 1, height: 2)))
        try add("JSONish", [JSONish.number(1.5), .text("two"), .flag(true), .list([1, 2, 3])])
        try add("Presence", Presence(user: 42, status: .busy, lastCommand: .say("brb")))
        let address = Address(
            street: "1 Infinite Loop", city: "Cupertino", zip: "95014", location: Coordinate(latitude: 37.3, longitude: -122))
        try add("Customer", Customer(id: 1, name: "ACME", addresses: [address, address], tags: ["gold", "b2b"]))
        let items = (0..<8).map { LineItem(sku: "SKU-\($0)", quantity: Int16($0 + 1), price: Double($0) * 2.5) }
        try add("Order", Order(id: 77, customer: 1, items: items, note: "leave at door", placed: date))
        try add("Page<Ping>", Page(items: (0..<20).map { Ping(id: $0, sentAt: Double($0)) }, next: "abc", total: 400))
        try add("Records(50)", Generate.records(count: 50))
        try add("Matrix", Matrix(rows: (0..<8).map { r in (0..<8).map { Double(r * 8 + $0) } }))
        try add(
            "Samples",
            Samples(
                values: (0..<200).map { _ in Int32(truncatingIfNeeded: rng.next()) },
                flags: (0..<64).map { _ in rng.next() & 1 == 0 }, bytes: (0..<256).map { UInt8($0) }))
        try add("Inventory", Inventory(counts: Generate.dictionary(count: 40)))
        try add("Scores", Scores(byPlayer: Dictionary(uniqueKeysWithValues: (0..<30).map { ($0, Double($0) / 3) })))
        try add("Tagged", Tagged(tags: ["a", "b", "c"], attributes: ["color": "red", "size": "L"]))
        try add("[String]", Generate.strings(count: 30))
        try add("[Int]", Generate.ints(count: 100))
        try add("Status", Status.away)
        try add("TreeNode(50)", Values.deepTree(depth: 50))
        try add("Expr(50)", Values.deepExpr(depth: 50))
        try ops += streamOperations()
        let chat = ProtoChat(id: 9_000_000_001, room: 12, author: "bob", text: "See you at 5?", edited: false, delta: -3)
        try ops += protobufOperations("MessageIntKeys", Generate.messageIntKeys())
        try ops += protobufOperations("ProtoChat", chat)
        let lines = (0..<8).map { ProtoLine(sku: "SKU-\($0)", quantity: Int32($0 + 1), price: Double($0) * 2.5) }
        try ops += protobufOperations(
            "ProtoOrder",
            ProtoOrder(id: 77, lines: lines, tags: ["gift", "express"], stock: ["a": 1, "b": 0, "c": 9], note: "door"))
        try ops += protobufOperations("ProtoEvent", ProtoEvent(id: 5, payload: .chat(chat)))
        // Generated coding, in every format.
        let genChat = GenChatMessage(id: 9_000_000_001, room: 12, author: "bob", text: "See you at 5?", edited: false)
        let genItems = (0..<8).map { GenLineItem(sku: "SKU-\($0)", quantity: Int32($0 + 1), price: Double($0) * 2.5) }
        let genOrder = GenOrder(id: 77, items: genItems, note: "leave at door", placed: date)
        try add("GenChatMessage", genChat)
        try add("GenOrder", genOrder)
        try ops += protobufOperations("GenChatMessage", genChat)
        try ops += protobufOperations("GenOrder", genOrder)
        return ops
    }

    /// Protobuf's encode, decode and tree operations, where the value is a proto3 message.
    static func protobufOperations<T: Codable & Equatable>(_ type: String, _ value: T) throws -> [Operation] {
        let encoder = ProtobufEncoder()
        let decoder = ProtobufDecoder()
        let data = try encoder.encode(value)
        let tree = try encoder.encodeTree(value)
        guard try decoder.decode(T.self, from: data) == value, try encoder.encode(tree: tree) == data else {
            fail("\(type) protobuf: round trip differs")
        }
        func op(_ kind: String, _ run: @escaping () throws -> Void) -> Operation {
            Operation(name: "\(type) protobuf \(kind)", coder: "TreeCodable", type: type, kind: "protobuf \(kind)", run: run)
        }
        return [
            op("encode") { blackHole(try encoder.encode(value)) },
            op("decode") { blackHole(try decoder.decode(T.self, from: data)) },
            op("encodeTree") { blackHole(try encoder.encodeTree(value)) },
            op("decodeTree") { blackHole(try decoder.decodeTree(T.self, from: data)) },
            op("encode(tree:)") { blackHole(try encoder.encode(tree: tree)) },
        ]
    }

    /// TreeCodable's six operations in both formats, and the floor's and JSON's encode and decode
    /// where they round-trip the value.
    static func operations<T: Codable & Equatable>(_ type: String, _ value: T) throws -> [Operation] {
        var ops: [Operation] = []
        for format in [BinaryFormat.v3, .v2] {
            let encoder = BinaryEncoder(format: format)
            let decoder = BinaryDecoder(format: format)
            let data = try encoder.encode(value)
            let tree = try encoder.encodeTree(value)
            guard try decoder.decode(T.self, from: data) == value, try encoder.encode(tree: tree) == data,
                try decoder.decode(T.self, fromTree: tree) == value
            else { fail("\(type) \(format): round trip differs") }
            func op(_ kind: String, _ run: @escaping () throws -> Void) {
                ops.append(
                    Operation(name: "\(type) \(format) \(kind)", coder: "TreeCodable", type: type, kind: "\(format) \(kind)",
                        run: run))
            }
            op("encode") { blackHole(try encoder.encode(value)) }
            op("decode") { blackHole(try decoder.decode(T.self, from: data)) }
            op("encodeTree") { blackHole(try encoder.encodeTree(value)) }
            op("decodeTree") { blackHole(try decoder.decodeTree(T.self, from: data)) }
            op("encode(tree:)") { blackHole(try encoder.encode(tree: tree)) }
            op("decode(fromTree:)") { blackHole(try decoder.decode(T.self, fromTree: tree)) }
        }
        if let bytes = try? Floor.encode(value), (try? Floor.decode(T.self, from: bytes)) == value {
            ops.append(Operation(name: "\(type) floor encode", coder: "floor", type: type, kind: "encode") {
                blackHole(try Floor.encode(value))
            })
            ops.append(Operation(name: "\(type) floor decode", coder: "floor", type: type, kind: "decode") {
                blackHole(try Floor.decode(T.self, from: bytes))
            })
        }
        let json = try JSONEncoder().encode(value)
        if (try? JSONDecoder().decode(T.self, from: json)) == value {
            ops.append(Operation(name: "\(type) JSON encode", coder: "JSON", type: type, kind: "encode") {
                blackHole(try JSONEncoder().encode(value))
            })
            ops.append(Operation(name: "\(type) JSON decode", coder: "JSON", type: type, kind: "decode") {
                blackHole(try JSONDecoder().decode(T.self, from: json))
            })
        }
        return ops
    }

    /// A stream of 20 chat messages, decoded element by element, in both formats.
    static func streamOperations() throws -> [Operation] {
        let messages = (0..<20).map {
            ChatMessage(id: UInt64($0), room: 3, author: "user\($0)", text: "message number \($0)", edited: $0 % 3 == 0)
        }
        return try [BinaryFormat.v3, .v2].map { format in
            let data = try BinaryStreamEncoder<ChatMessage>(encoder: BinaryEncoder(format: format))
                .encode(contentsOf: messages)
            let decoder = BinaryDecoder(format: format)
            return Operation(
                name: "ChatMessage×20 \(format) stream decode", coder: "TreeCodable", type: "ChatMessage×20",
                kind: "\(format) stream decode"
            ) {
                let stream = BinaryStreamDecoder<ChatMessage>(decoder: decoder)
                stream.add(data)
                blackHole(try stream.decodeElements())
            }
        }
    }
}
