import BinarySerialization
import Foundation
import Testing

// The integer wrappers used as numbers, and `@Packed`.

@Suite struct IntegerWrapperArithmeticTests {
    @Test func literalsOperatorsAndComparison() {
        var x: ZigZagEncoded<Int16> = 3
        x += 4
        #expect(x == 7 && x.wrappedValue == 7)
        #expect(x * 2 == 14 && x - 10 == -3 && x / 2 == 3 && x % 4 == 3)
        x *= 3
        x -= 1
        x /= 4
        x %= 3
        #expect(x == 2)
        #expect(-x == -2 && x.magnitude == 2)
        #expect(x < 3 && x > ZigZagEncoded.zero && [5, 1, 3].sorted() == [1, 3, 5] as [ZigZagEncoded<Int16>])

        let id: FixedSizeEncoded<UInt64> = 0xffff
        #expect(id + 1 == 0x1_0000 && FixedSizeEncoded<UInt64>.zero == 0)
        let small: VariableLengthEncoded<UInt16> = 300
        #expect(small.description == "300" && "\(small)" == "300" && "\(ZigZagEncoded<Int16>(-5))" == "-5")
    }

    @Test func conversionsAndBounds() {
        #expect(FixedSizeEncoded<Int32>.min.wrappedValue == Int32.min)
        #expect(FixedSizeEncoded<Int32>.max.wrappedValue == Int32.max)
        #expect(VariableLengthEncoded<UInt16>.max == 65535)
        #expect(ZigZagEncoded<Int16>(Int64(-9)).wrappedValue == -9)
        #expect(ZigZagEncoded<Int16>(exactly: 70_000) == nil)
        #expect(ZigZagEncoded<Int16>(exactly: UInt8(12)) == 12)
        #expect(FixedSizeEncoded<UInt32>(truncatingIfNeeded: 0x1_0000_0005) == 5)
        #expect(VariableLengthEncoded<Int16>(clamping: 70_000) == .max)
        #expect(VariableLengthEncoded<Int16>(clamping: -70_000) == .min)
    }

    /// Generic numeric code accepts the wrappers.
    @Test func genericNumericCodeAcceptsTheWrappers() {
        func total<N: Numeric>(_ values: [N]) -> N { values.reduce(0, +) }
        #expect(total([1, 2, 3] as [FixedSizeEncoded<Int64>]) == 6)
        #expect(total([1, 2, 3] as [VariableLengthEncoded<UInt32>]) == 6)
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func aLiteralEncodesLikeTheWrappedValue(_ format: BinaryFormat) throws {
        struct Literal: Codable, Equatable {
            var a: FixedSizeEncoded<Int32> = 5
            var b: ZigZagEncoded<Int16> = -3
            var c: VariableLengthEncoded<Int32> = 300
        }
        let viaInit = Literal(a: .init(wrappedValue: 5), b: .init(wrappedValue: -3), c: .init(wrappedValue: 300))
        let data = try BinaryEncoder(format: format).encode(Literal())
        #expect(data == (try BinaryEncoder(format: format).encode(viaInit)))
        #expect(try BinaryDecoder(format: format).decode(Literal.self, from: data) == Literal())
        #expect(String(decoding: try JSONEncoder().encode(Literal()), as: UTF8.self).contains("300"))
    }

    /// Combinations that change nothing are deprecated, and still encode like the plain integer.
    @available(*, deprecated, message: "uses the deprecated combinations on purpose")
    @Test(arguments: [BinaryFormat.v3, .v2])
    func combinationsWithoutEffectEncodeLikeThePlainInteger(_ format: BinaryFormat) throws {
        let encoder = BinaryEncoder(format: format)
        #expect(try encoder.encode(ZigZagEncoded<Int>(wrappedValue: -64)) == encoder.encode(-64 as Int))
        #expect(try encoder.encode(ZigZagEncoded<Int32>(wrappedValue: 9)) == encoder.encode(9 as Int32))
        #expect(try encoder.encode(ZigZagEncoded<Int64>(wrappedValue: -1)) == encoder.encode(-1 as Int64))
        #expect(try encoder.encode(VariableLengthEncoded<UInt32>(wrappedValue: 300)) == encoder.encode(300 as UInt32))
        #expect(try encoder.encode(VariableLengthEncoded<UInt64>(wrappedValue: 300)) == encoder.encode(300 as UInt64))
        #expect(try encoder.encode(VariableLengthEncoded<UInt>(wrappedValue: 300)) == encoder.encode(300 as UInt))
        #expect(try encoder.encode(FixedSizeEncoded<Int16>(wrappedValue: -2)) == encoder.encode(-2 as Int16))
        #expect(try encoder.encode(FixedSizeEncoded<UInt16>(wrappedValue: 2)) == encoder.encode(2 as UInt16))
        let data = try encoder.encode(FixedSizeEncoded<Int16>(wrappedValue: -2))
        #expect(try BinaryDecoder(format: format).decode(FixedSizeEncoded<Int16>.self, from: data).wrappedValue == -2)
    }
}

@Suite struct PackedTests {
    struct Wrapped: Codable, Equatable {
        @Packed var bools: [Bool]
        @Packed var bytes: [Int8]
        @Packed var small: [UInt16]
        @Packed var ints: [Int]
        @Packed var unsigned: [UInt]
        @Packed var longs: [Int64]
        @Packed var floats: [Float]
        @Packed var doubles: [Double]
        @Packed var set: Set<UInt32>
    }

    struct Plain: Codable, Equatable {
        var bools: [Bool]
        var bytes: [Int8]
        var small: [UInt16]
        var ints: [Int]
        var unsigned: [UInt]
        var longs: [Int64]
        var floats: [Float]
        var doubles: [Double]
        var set: Set<UInt32>
    }

    static let plain = Plain(
        bools: [true, false], bytes: [-1, 2], small: [1, 1000], ints: [-3, 300], unsigned: [7], longs: [],
        floats: [1.5], doubles: [-0.25, 8], set: [9])
    static let wrapped = Wrapped(
        bools: plain.bools, bytes: plain.bytes, small: plain.small, ints: plain.ints, unsigned: plain.unsigned,
        longs: plain.longs, floats: plain.floats, doubles: plain.doubles, set: plain.set)

    @Test(arguments: [BinaryFormat.v3, .v2])
    func bytesEqualThePlainArrays(_ format: BinaryFormat) throws {
        var encoder = BinaryEncoder(format: format)
        encoder.sortKeysDuringEncoding = true
        let data = try encoder.encode(Self.wrapped)
        #expect(data == (try encoder.encode(Self.plain)))
        #expect(try BinaryDecoder(format: format).decode(Wrapped.self, from: data) == Self.wrapped)
        #expect(try BinaryDecoder(format: format).decode(Plain.self, from: data) == Self.plain)
        // At the top level and as a tree, too.
        let top = Packed(wrappedValue: [1, -2, 3])
        #expect(try encoder.encode(top) == encoder.encode([1, -2, 3]))
        #expect(try encoder.encodeTree(top) == encoder.encodeTree([1, -2, 3]))
        #expect(try BinaryDecoder(format: format).decode(Packed<[Int]>.self, from: encoder.encode(top)) == top)
    }

    @Test func transparentWithJSON() throws {
        let json = JSONEncoder()
        json.outputFormatting = .sortedKeys
        let data = try json.encode(Self.wrapped)
        #expect(data == (try json.encode(Self.plain)))
        #expect(try JSONDecoder().decode(Wrapped.self, from: data) == Self.wrapped)
        #expect(try json.encode(Packed(wrappedValue: [1.5, 2])) == json.encode([1.5, 2]))
    }
}
