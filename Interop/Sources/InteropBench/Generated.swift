import BinarySerialization
import Foundation

// The bench types again, with generated coding (`GeneratedBinaryCodable`): the code the
// `@TreeCodable` macro writes for them, written out here. Same keys, same bytes as the `Codable`
// types of main.swift; `generated` converts.

struct GMessage: Codable, Equatable, GeneratedBinaryCodable {
    var sender: String
    var isRead: Bool
    var unreadCount: Int
    enum CodingKeys: Int, CodingKey { case sender = 1, isRead, unreadCount }

    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.sender, CodingKeys.isRead, CodingKeys.unreadCount] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(sender, at: 0)
        try fields.encode(isRead, at: 1)
        try fields.encode(unreadCount, at: 2)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        sender = try fields.decode(String.self, at: 0)
        isRead = try fields.decode(Bool.self, at: 1)
        unreadCount = try fields.decode(Int.self, at: 2)
    }
    init(_ m: Message) { (sender, isRead, unreadCount) = (m.sender, m.isRead, m.unreadCount) }
}

struct GPoint: Codable, Equatable, GeneratedBinaryCodable {
    var x: Int32
    var y: Int32
    enum CodingKeys: Int, CodingKey { case x = 1, y }

    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.x, CodingKeys.y] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(x, at: 0)
        try fields.encode(y, at: 1)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        x = try fields.decode(Int32.self, at: 0)
        y = try fields.decode(Int32.self, at: 1)
    }
    init(_ p: Point) { (x, y) = (p.x, p.y) }
}

struct GRecord: Codable, Equatable, GeneratedBinaryCodable {
    var id: Int
    var count: Int32
    var flags: UInt32
    var score: Double
    var ratio: Float
    var isActive: Bool
    var name: String
    var note: String?
    var tags: [Int]
    var position: GPoint
    enum CodingKeys: Int, CodingKey { case id = 1, count, flags, score, ratio, isActive, name, note, tags, position }

    static var binaryCodingKeys: [any CodingKey] {
        [
            CodingKeys.id, CodingKeys.count, CodingKeys.flags, CodingKeys.score, CodingKeys.ratio,
            CodingKeys.isActive, CodingKeys.name, CodingKeys.note, CodingKeys.tags, CodingKeys.position,
        ]
    }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(id, at: 0)
        try fields.encode(count, at: 1)
        try fields.encode(flags, at: 2)
        try fields.encode(score, at: 3)
        try fields.encode(ratio, at: 4)
        try fields.encode(isActive, at: 5)
        try fields.encode(name, at: 6)
        try fields.encodeIfPresent(note, at: 7)
        try fields.encode(tags, at: 8)
        try fields.encode(position, at: 9)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        id = try fields.decode(Int.self, at: 0)
        count = try fields.decode(Int32.self, at: 1)
        flags = try fields.decode(UInt32.self, at: 2)
        score = try fields.decode(Double.self, at: 3)
        ratio = try fields.decode(Float.self, at: 4)
        isActive = try fields.decode(Bool.self, at: 5)
        name = try fields.decode(String.self, at: 6)
        note = try fields.decodeIfPresent(String.self, at: 7)
        tags = try fields.decode([Int].self, at: 8)
        position = try fields.decode(GPoint.self, at: 9)
    }
    init(_ r: Record) {
        (id, count, flags, score, ratio, isActive) = (r.id, r.count, r.flags, r.score, r.ratio, r.isActive)
        (name, note, tags, position) = (r.name, r.note, r.tags, GPoint(r.position))
    }
}

struct GRecords: Codable, Equatable, GeneratedBinaryCodable {
    var records: [GRecord]
    enum CodingKeys: Int, CodingKey { case records = 1 }

    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.records] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws { try fields.encode(records, at: 0) }
    init(binaryFields fields: inout BinaryFieldReader) throws { records = try fields.decode([GRecord].self, at: 0) }
    init(_ r: Records) { records = r.records.map(GRecord.init) }
}

struct GNode: Codable, Equatable, GeneratedBinaryCodable {
    var value: Int
    var child: [GNode]
    enum CodingKeys: Int, CodingKey { case value = 1, child }

    static var binaryCodingKeys: [any CodingKey] { [CodingKeys.value, CodingKeys.child] }
    func encodeBinaryFields(to fields: inout BinaryFieldWriter) throws {
        try fields.encode(value, at: 0)
        try fields.encode(child, at: 1)
    }
    init(binaryFields fields: inout BinaryFieldReader) throws {
        value = try fields.decode(Int.self, at: 0)
        child = try fields.decode([GNode].self, at: 1)
    }
    init(_ n: Node) { (value, child) = (n.value, n.child.map(GNode.init)) }
}
