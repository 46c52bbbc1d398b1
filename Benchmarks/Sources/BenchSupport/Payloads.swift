// The benchmark payloads: deterministic values built from a seeded PRNG. They live in their own
// module, apart from the library and from the coders that time them, as a user's types would.

// MARK: - Seeded PRNG

/// SplitMix64: tiny, fast, and fully determined by its seed (no system randomness anywhere).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer of mixed magnitude: a random bit width 0...63, then a random value of that
    /// width and a random sign, so varints of every length 1...9 bytes appear.
    mutating func mixedInt() -> Int {
        let bits = Int(next() % 64)
        let magnitude = bits == 0 ? 0 : Int(truncatingIfNeeded: next() >> UInt64(64 - bits))
        return next() & 1 == 0 ? magnitude : -magnitude
    }

    /// A finite double of mixed magnitude (about 1e-12 ... 1e12, either sign).
    mutating func mixedDouble() -> Double {
        let mantissa = Double(next() >> 11) / Double(1 << 53)          // [0, 1)
        let exponent = Double(Int(next() % 25) - 12)
        let value = mantissa * pow10(exponent)
        return next() & 1 == 0 ? value : -value
    }

    /// A short ASCII string of `min...max` characters; one in 16 gets a non-ASCII character.
    mutating func shortString(min: Int, max: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-")
        let length = min + Int(next() % UInt64(max - min + 1))
        var s = String()
        s.reserveCapacity(length + 2)
        for _ in 0..<length { s.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
        if next() % 16 == 0 { s.append("é") }
        return s
    }
}

private func pow10(_ e: Double) -> Double {
    var result = 1.0
    let n = Int(e.magnitude)
    for _ in 0..<n { result *= 10 }
    return e < 0 ? 1 / result : result
}

// MARK: - P1: a small message

/// P1 with the synthesized String coding keys.
public struct MessageStringKeys: Codable, Equatable {
    public var sender: String
    public var isRead: Bool
    public var unreadCount: Int

    public init(sender: String, isRead: Bool, unreadCount: Int) {
        self.sender = sender
        self.isRead = isRead
        self.unreadCount = unreadCount
    }
}

/// P1 with integer coding keys.
public struct MessageIntKeys: Codable, Equatable {
    public var sender: String
    public var isRead: Bool
    public var unreadCount: Int

    public init(sender: String, isRead: Bool, unreadCount: Int) {
        self.sender = sender
        self.isRead = isRead
        self.unreadCount = unreadCount
    }

    enum CodingKeys: Int, CodingKey {
        case sender = 1
        case isRead = 2
        case unreadCount = 3
    }
}

// MARK: - P2: records of mixed fields

public struct Point: Codable, Equatable {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        self.x = x
        self.y = y
    }

    enum CodingKeys: Int, CodingKey {
        case x = 1
        case y = 2
    }
}

/// Ten fields of mixed types, integer keys.
public struct Record: Codable, Equatable {
    public var id: Int
    public var count: Int32
    public var flags: UInt8
    public var score: Double
    public var ratio: Float
    public var isActive: Bool
    public var name: String
    public var note: String?
    public var tags: [Int]
    public var position: Point

    public init(id: Int, count: Int32, flags: UInt8, score: Double, ratio: Float, isActive: Bool, name: String, note: String?, tags: [Int], position: Point) {
        self.id = id
        self.count = count
        self.flags = flags
        self.score = score
        self.ratio = ratio
        self.isActive = isActive
        self.name = name
        self.note = note
        self.tags = tags
        self.position = position
    }

    enum CodingKeys: Int, CodingKey {
        case id = 1
        case count = 2
        case flags = 3
        case score = 4
        case ratio = 5
        case isActive = 6
        case name = 7
        case note = 8
        case tags = 9
        case position = 10
    }
}

// MARK: - P5: a recursive value

/// A linked chain of nodes: `child` holds zero or one node, so a value of depth `d` nests
/// `2·d` containers (a keyed container per node, an unkeyed one per `child`).
public struct Node: Codable, Equatable {
    public var value: Int
    public var child: [Node]

    public init(value: Int, child: [Node]) {
        self.value = value
        self.child = child
    }
}

// MARK: - Generators

public enum Generate {
    public static func messageStringKeys() -> MessageStringKeys {
        MessageStringKeys(sender: "Alice Wonderland", isRead: false, unreadCount: 42)
    }

    public static func messageIntKeys() -> MessageIntKeys {
        MessageIntKeys(sender: "Alice Wonderland", isRead: false, unreadCount: 42)
    }

    public static func records(count: Int, seed: UInt64 = 2) -> [Record] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { i in
            Record(
                id: i * 7919 + 100_000,
                count: Int32(truncatingIfNeeded: rng.next() % 2_000_000) - 1_000_000,
                flags: UInt8(truncatingIfNeeded: rng.next()),
                score: rng.mixedDouble(),
                ratio: Float(rng.next() % 10_000) / 100,
                isActive: rng.next() & 1 == 0,
                name: rng.shortString(min: 6, max: 20),
                note: rng.next() % 3 == 0 ? nil : rng.shortString(min: 10, max: 40),
                tags: (0..<Int(rng.next() % 6)).map { _ in Int(rng.next() % 5_000) },
                position: Point(
                    x: Int32(truncatingIfNeeded: rng.next() % 20_000) - 10_000,
                    y: Int32(truncatingIfNeeded: rng.next() % 20_000) - 10_000))
        }
    }

    public static func ints(count: Int, seed: UInt64 = 3) -> [Int] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in rng.mixedInt() }
    }

    public static func doubles(count: Int, seed: UInt64 = 4) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in rng.mixedDouble() }
    }

    public static func bools(count: Int, seed: UInt64 = 5) -> [Bool] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in rng.next() & 1 == 0 }
    }

    public static func dictionary(count: Int, seed: UInt64 = 6) -> [String: Int] {
        var rng = SplitMix64(seed: seed)
        var result: [String: Int] = [:]
        result.reserveCapacity(count)
        var i = 0
        while result.count < count {
            result["key-\(i)-" + rng.shortString(min: 2, max: 8)] = rng.mixedInt()
            i += 1
        }
        return result
    }

    public static func strings(count: Int, seed: UInt64 = 7) -> [String] {
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in rng.shortString(min: 3, max: 12) }
    }

    /// A chain of `depth` nodes, built iteratively (innermost first).
    public static func chain(depth: Int) -> Node {
        var node = Node(value: depth - 1, child: [])
        if depth > 1 {
            for level in stride(from: depth - 2, through: 0, by: -1) {
                node = Node(value: level, child: [node])
            }
        }
        return node
    }
}
