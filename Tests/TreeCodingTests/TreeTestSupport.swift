import Foundation
import TreeCoding

/// A coding key written as a literal: `"name"` is a string key, `3` an integer key.
struct AnyKey: CodingKey, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
    init(stringLiteral value: String) { self.init(stringValue: value) }
    init(integerLiteral value: Int) { self.init(intValue: value) }
}

/// Collects what `encode(to:)` / `init(from:)` implementations observe; handed to them through
/// `userInfo`, so parallel tests do not share state.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: [String]] = [:]

    static let key = CodingUserInfoKey(rawValue: "TreeCodingTests.Recorder")!

    func record(_ label: String, _ path: [any CodingKey]) {
        lock.locked { entries[label] = path.map(\.stringValue) }
    }

    subscript(label: String) -> [String]? { lock.locked { entries[label] } }

    static func from(_ userInfo: [CodingUserInfoKey: Any]) -> Recorder? { userInfo[key] as? Recorder }
}

/// A small struct shared by the encoder and decoder tests.
struct Message: Codable, Equatable {
    var sender: String
    var isRead: Bool
    var unreadCount: Int
}

/// Keyed and unkeyed containers nested by hand, in both directions.
struct NestedManual: Codable, Equatable {
    var x: Int
    var flag: Bool
    var y: String
    var small: Int8
    var after: Int

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        var k = c.nestedContainer(keyedBy: AnyKey.self, forKey: "k")
        try k.encode(x, forKey: "x")
        var u = c.nestedUnkeyedContainer(forKey: "u")
        try u.encode(flag)
        var uk = u.nestedContainer(keyedBy: AnyKey.self)
        try uk.encode(y, forKey: "y")
        var uu = u.nestedUnkeyedContainer()
        try uu.encode(small)
        try c.encode(after, forKey: "after")
    }

    init(x: Int, flag: Bool, y: String, small: Int8, after: Int) {
        self.x = x
        self.flag = flag
        self.y = y
        self.small = small
        self.after = after
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        x = try c.nestedContainer(keyedBy: AnyKey.self, forKey: "k").decode(Int.self, forKey: "x")
        var u = try c.nestedUnkeyedContainer(forKey: "u")
        flag = try u.decode(Bool.self)
        y = try u.nestedContainer(keyedBy: AnyKey.self).decode(String.self, forKey: "y")
        var uu = try u.nestedUnkeyedContainer()
        small = try uu.decode(Int8.self)
        after = try c.decode(Int.self, forKey: "after")
    }

    /// The tree `encode(to:)` writes.
    static func tree(x: Int, flag: Bool, y: String, small: Int8, after: Int) -> BinaryValue {
        ["k": ["x": .int(x)], "u": [.bool(flag), ["y": .string(y)], [.int8(small)]], "after": .int(after)]
    }
}

/// A class hierarchy that codes its superclass through `superEncoder()` / `superDecoder()`.
class Base: Codable {
    var a: Int
    init(a: Int) { self.a = a }
}

final class Derived: Base, Equatable {
    var b: String
    init(a: Int, b: String) {
        self.b = b
        super.init(a: a)
    }
    enum CodingKeys: String, CodingKey { case b }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        b = try c.decode(String.self, forKey: .b)
        let sup = try c.superDecoder()
        Recorder.from(decoder.userInfo)?.record("superDecoder", sup.codingPath)
        try super.init(from: sup)
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(b, forKey: .b)
        let sup = c.superEncoder()
        Recorder.from(encoder.userInfo)?.record("superEncoder", sup.codingPath)
        try super.encode(to: sup)
    }
    static func == (l: Derived, r: Derived) -> Bool { l.a == r.a && l.b == r.b }
}

enum Level: Int, Codable { case low = 1, high = 2 }
enum Color: String, Codable { case red, green }

extension NSLock {
    /// `withLock` for every platform the package supports (`NSLocking.withLock` needs macOS 14).
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
