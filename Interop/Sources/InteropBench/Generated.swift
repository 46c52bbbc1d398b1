import Foundation
import TreeCodableMacros

// The bench types again, with generated coding (`@TreeCodable`). Same keys, same bytes as the
// `Codable` types of main.swift; each has an initializer from its `Codable` twin.

@TreeCodable
struct GMessage: Codable, Equatable {
    var sender: String
    var isRead: Bool
    var unreadCount: Int
    enum CodingKeys: Int, CodingKey { case sender = 1, isRead, unreadCount }

    init(_ m: Message) { (sender, isRead, unreadCount) = (m.sender, m.isRead, m.unreadCount) }
}

@TreeCodable
struct GPoint: Codable, Equatable {
    var x: Int32
    var y: Int32
    enum CodingKeys: Int, CodingKey { case x = 1, y }

    init(_ p: Point) { (x, y) = (p.x, p.y) }
}

@TreeCodable
struct GRecord: Codable, Equatable {
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

    init(_ r: Record) {
        (id, count, flags, score, ratio, isActive) = (r.id, r.count, r.flags, r.score, r.ratio, r.isActive)
        (name, note, tags, position) = (r.name, r.note, r.tags, GPoint(r.position))
    }
}

@TreeCodable
struct GRecords: Codable, Equatable {
    var records: [GRecord]
    enum CodingKeys: Int, CodingKey { case records = 1 }

    init(_ r: Records) { records = r.records.map(GRecord.init) }
}

@TreeCodable
struct GNode: Codable, Equatable {
    var value: Int
    var child: [GNode]
    enum CodingKeys: Int, CodingKey { case value = 1, child }

    init(_ n: Node) { (value, child) = (n.value, n.child.map(GNode.init)) }
}
