import BinarySerialization
import Foundation
import Testing

/// v2 elements carry no lengths, so an unkeyed container and the element being read share a
/// read position (a cursor), and a decoding run reuses cursors no one refers to any more. These
/// tests open containers in the patterns the reuse has to tell apart: one after the other, one
/// inside the other, several at once read in turns, and kept past their value.
@Suite struct UnkeyedCursorTests {
    /// Two lists read in turns, element by element, while both containers are open.
    struct Interleaved: Codable, Equatable {
        var a: [Int]
        var b: [Int]

        init(a: [Int], b: [Int]) {
            self.a = a
            self.b = b
        }

        enum CodingKeys: String, CodingKey { case a, b }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            var x = try c.nestedUnkeyedContainer(forKey: .a)
            var y = try c.nestedUnkeyedContainer(forKey: .b)
            a = []
            b = []
            while !x.isAtEnd || !y.isAtEnd {
                if !x.isAtEnd { a.append(try x.decode(Int.self)) }
                if !y.isAtEnd { b.append(try y.decode(Int.self)) }
            }
        }
    }

    /// Lists of lists, with a list inside each element's struct: siblings and nesting.
    struct Row: Codable, Equatable {
        var cells: [[Int]]
        var inner: Interleaved
        var tail: [String]
    }

    static func roundTrip<T: Codable & Equatable>(_ value: T) throws {
        let data = try BinaryEncoder(format: .v2).encode(value)
        // Twice: the second run reuses the first run's cursors.
        for _ in 0..<2 {
            #expect(try BinaryDecoder(format: .v2).decode(T.self, from: data) == value)
        }
    }

    @Test func containersReadInTurns() throws {
        try Self.roundTrip(Interleaved(a: [1, -2, 300, 4], b: [5, 60_000, -7]))
        try Self.roundTrip(Interleaved(a: [], b: [1]))
    }

    @Test func siblingsAndNestedContainers() throws {
        let rows = (0..<20).map { i in
            Row(
                cells: (0..<(i % 4)).map { j in Array(repeating: i * j - 3, count: j + 1) },
                inner: Interleaved(a: Array(0..<(i % 3)), b: [i, -i]),
                tail: (0..<(i % 5)).map { "t\($0)" })
        }
        try Self.roundTrip(rows)
        try Self.roundTrip([rows, [], Array(rows.prefix(3))])
    }

    /// More containers open at once than the pool once kept (64; now one per level).
    @Test func deeperThanSixtyFourLevels() throws {
        var nested: [[Int]] = [[1, 2]]
        var value = Deep(level: 0, children: [])
        for level in 1...100 {
            value = Deep(level: level, children: [value, Deep(level: -level, children: [])])
            nested.append([level])
        }
        try Self.roundTrip(value)
        try Self.roundTrip(nested)
    }

    struct Deep: Codable, Equatable {
        var level: Int
        var children: [Deep]
    }

    /// A container kept past its value still belongs to it: a later value's containers get
    /// other cursors, and the kept one reads its own elements.
    @Test func containerKeptPastItsValue() throws {
        final class Keeper: Decodable {
            var kept: (any UnkeyedDecodingContainer)?
            init(from decoder: any Decoder) throws {
                kept = try decoder.unkeyedContainer()
            }
        }
        struct Pair: Decodable {
            var first: Keeper
            var second: [Int]
            var late: [Int]
            enum CodingKeys: String, CodingKey { case first, second }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                first = try c.decode(Keeper.self, forKey: .first)
                second = try c.decode([Int].self, forKey: .second)
                // The first value's container, read after the second value's.
                var read: [Int] = []
                if var kept = first.kept {
                    while !kept.isAtEnd { read.append(try kept.decode(Int.self)) }
                }
                late = read
            }
        }
        struct Plain: Encodable {
            var first: [Int]
            var second: [Int]
        }
        let data = try BinaryEncoder(format: .v2).encode(Plain(first: [7, 8, 9], second: [1, 2]))
        let pair = try BinaryDecoder(format: .v2).decode(Pair.self, from: data)
        #expect(pair.second == [1, 2])
        #expect(pair.late == [7, 8, 9])
    }
    /// An element whose length is cut off (v2 bytes `85`: a varint that never ends), read twice
    /// through the same single-value container: the second attempt fails as the first did. (The
    /// length read moves the element's cursor out of the node it reads; each attempt reads a
    /// node of its own, so a failed one leaves nothing behind for the next.)
    @Test func elementWithACutOffLengthFailsTheSameWayTwice() throws {
        struct Twice: Decodable {
            var messages: [String] = []
            init(from decoder: any Decoder) throws {
                var c = try decoder.unkeyedContainer()
                let element = try c.superDecoder()
                let value = try element.singleValueContainer()
                for _ in 0..<2 {
                    do {
                        _ = try value.decode([Int].self)
                        messages.append("decoded")
                    } catch {
                        messages.append("\(error)")
                    }
                }
            }
        }
        let twice = try BinaryDecoder(format: .v2).decode(Twice.self, from: Data([0x85]))
        #expect(twice.messages.count == 2)
        #expect(twice.messages[0] == twice.messages[1])
        #expect(twice.messages[0].contains("truncated") || twice.messages[0].contains("ends"))
        #expect(!twice.messages[0].contains("internal error"))
    }
}
