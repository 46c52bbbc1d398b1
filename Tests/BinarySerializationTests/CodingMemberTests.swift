import BinarySerialization
import Foundation
import Testing

// Every type's coding members give the bytes the library's own writer gives for that encoding
// (a wrapped value at the top level of v3 is the bare encoded value) and read them back.

@Suite struct CodingMemberTests {
    private static let encoder = BinaryEncoder()
    private static let decoder = BinaryDecoder()

    private func fixedSize<T: FixedSizeCodable & FixedWidthInteger & Sendable>(_: T.Type) throws {
        for value in [T.min, T.max, 0, 1, T(truncatingIfNeeded: 0x1234_5678_9abc)] {
            let bytes = value.fixedSizeEncoded
            #expect(try Self.encoder.encode(FixedSizeEncoded(unwrapped: value)) == bytes, "\(T.self) \(value)")
            #expect(try T(fromFixedSize: bytes) == value, "\(T.self) \(value)")
            #expect(try Self.decoder.decode(FixedSizeEncoded<T>.self, from: bytes).wrappedValue == value)
            #expect(throws: CorruptedDataError.self) { try T(fromFixedSize: bytes + [0]) }
        }
    }

    private func varint<T: VariableLengthCodable & Codable & Sendable>(_: T.Type) throws {
        for value in [T.min, T.max, 0, 1, 127, 128, T(truncatingIfNeeded: 0x1234_5678_9abc)] {
            let bytes = value.variableLengthEncoding
            #expect(try Self.encoder.encode(VariableLengthEncoded(unwrapped: value)) == bytes, "\(T.self) \(value)")
            #expect(try T(fromVarint: bytes) == value, "\(T.self) \(value)")
            #expect(try Self.decoder.decode(VariableLengthEncoded<T>.self, from: bytes).wrappedValue == value)
            #expect(throws: CorruptedDataError.self) { try T(fromVarint: bytes + [0]) }
        }
        // One past the type's width is out of range.
        if T.bitWidth < 64 {
            let tooWide = UInt64(1) << UInt64(T.bitWidth)
            #expect(throws: CorruptedDataError.self) { try T(fromVarint: tooWide.variableLengthEncoding) }
        }
    }

    private func zigZag<T: ZigZagCodable & FixedWidthInteger & Sendable>(_: T.Type) throws {
        for value in [T.min, T.max, 0, -1, 1, -64, 64] {
            let bytes = value.zigZagEncoded
            #expect(try Self.encoder.encode(ZigZagEncoded(unwrapped: value)) == bytes, "\(T.self) \(value)")
            #expect(try T(fromZigZag: bytes) == value, "\(T.self) \(value)")
            #expect(try Self.decoder.decode(ZigZagEncoded<T>.self, from: bytes).wrappedValue == value)
        }
        if T.bitWidth < 64 {
            let tooWide = UInt64(1) << UInt64(T.bitWidth)
            #expect(throws: CorruptedDataError.self) { try T(fromZigZag: tooWide.variableLengthEncoding) }
        }
    }

    @Test func fixedSizeMembersOfAllThirteenTypes() throws {
        try fixedSize(Int8.self)
        try fixedSize(UInt8.self)
        try fixedSize(Int16.self)
        try fixedSize(UInt16.self)
        try fixedSize(Int32.self)
        try fixedSize(UInt32.self)
        try fixedSize(Int64.self)
        try fixedSize(UInt64.self)
        try fixedSize(Int.self)
        try fixedSize(UInt.self)
        for value in [true, false] {
            #expect(try Self.encoder.encode(value) == value.fixedSizeEncoded)
            #expect(try Bool(fromFixedSize: value.fixedSizeEncoded) == value)
        }
        for value: Float in [0, -1.5, .infinity, .greatestFiniteMagnitude] {
            #expect(try Self.encoder.encode(value) == value.fixedSizeEncoded)
            #expect(try Float(fromFixedSize: value.fixedSizeEncoded) == value)
        }
        for value: Double in [0, -1.5, .infinity, .leastNonzeroMagnitude] {
            #expect(try Self.encoder.encode(value) == value.fixedSizeEncoded)
            #expect(try Double(fromFixedSize: value.fixedSizeEncoded) == value)
        }
    }

    @Test func varintMembersOfAllEightTypes() throws {
        try varint(Int16.self)
        try varint(UInt16.self)
        try varint(Int32.self)
        try varint(UInt32.self)
        try varint(Int64.self)
        try varint(UInt64.self)
        try varint(Int.self)
        try varint(UInt.self)
    }

    @Test func zigZagMembersOfAllFourTypes() throws {
        try zigZag(Int16.self)
        try zigZag(Int32.self)
        try zigZag(Int64.self)
        try zigZag(Int.self)
    }
}

// Wrapping without the deprecation of the combinations that change nothing (the bytes are the
// same either way; these tests compare every type).
extension FixedSizeEncoded where Value: FixedWidthInteger {
    fileprivate init(unwrapped value: Value) { self.init(truncatingIfNeeded: value) }
}
extension VariableLengthEncoded {
    fileprivate init(unwrapped value: Value) { self.init(truncatingIfNeeded: value) }
}
extension ZigZagEncoded where Value: FixedWidthInteger {
    fileprivate init(unwrapped value: Value) { self.init(truncatingIfNeeded: value) }
}
