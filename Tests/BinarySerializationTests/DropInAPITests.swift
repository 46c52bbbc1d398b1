import BinarySerialization
import Foundation
import Testing

// BinaryCodable 4.0.0's and 2.0.3's public API used as their README and tests use it, with the
// values and bytes checked.
//
// 4.0.0's public symbols, enumerated from its source (175, types counted), and where each is used:
// - the coders (13: `BinaryEncoder` with `init`, `userInfoSortKey`, `sortKeysDuringEncoding`, `userInfo`,
//   `encode`, static `encode`; `BinaryDecoder` with `init`, `userInfo`, `decode(_:from:)`, `decode(from:)`,
//   static `decode`): CompatibilityAPITests, fourZeroZeroCallsAsWritten;
// - streams and files (23: the four types; `BinaryStreamEncoder` `encode`, `encode(contentsOf:)`;
//   `BinaryStreamDecoder` `add`, `discardBytes`, `decodeElement`, `decodeElements`,
//   `decodeElementsUntilError`; `BinaryFileEncoder` `write`, `write(contentsOf:)`, `close`;
//   `BinaryFileDecoder` `read`, `readAll`, `readAllUntilError`, `readElement`, `close`; the
//   initializers with their default coders): StreamDecoderAPITests, FileDecoderAPITests,
//   streamEncoderWorksFromALet, fourZeroZeroCallsAsWritten;
// - `CorruptedDataError` and its `description` (2): fourZeroZeroCallsAsWritten, outOfRangeValuesThrow;
// - the protocols (9: `FixedSize…`, `VariableLength…`, `ZigZag…` `Codable`/`Encodable`/`Decodable`),
//   with user conformances: userConformancesAndPackedStringsRoundTrip, CodingMemberTests;
// - the per-type members (62: `fixedSizeEncoded`/`init(fromFixedSize:)` on 13 types,
//   `variableLengthEncoding`/`init(fromVarint:)` from bytes and from a value on 8,
//   `zigZagEncoded`/`init(fromZigZag:)` likewise on 4): CodingMemberTests, the tests below;
// - the wrappers (66: each of the three, its `wrappedValue`, `init(wrappedValue:)` and 13
//   conformances; `Packed` and its 4; 13 deprecated no-effect initializers): WrapperAPITests and the tests below.
// Not provided, each a difference in Docs/Migration.md: non-`Sendable` `userInfo` values, the
// `init(data:)`/`init(data:index:)` 4.0.0 leaks on standard types, the `@_spi(Internals)` nodes.

/// A user's own fixed-size type, as BinaryCodable lets one conform.
private struct Celsius: FixedSizeCodable, Comparable {
    var tenths: Int32
    static func < (lhs: Celsius, rhs: Celsius) -> Bool { lhs.tenths < rhs.tenths }
    var fixedSizeEncoded: Data { tenths.fixedSizeEncoded }
    init(tenths: Int32) { self.tenths = tenths }
    init(fromFixedSize data: Data) throws { tenths = try Int32(fromFixedSize: data) }
}

/// A user's own zig-zag type.
private struct Offset: ZigZagCodable, Equatable {
    var value: Int64
    var zigZagEncoded: Data { value.zigZagEncoded }
    init(value: Int64) { self.value = value }
    init(fromZigZag data: Data) throws { value = try Int64(fromZigZag: data) }
}

/// A record as BinaryCodable's README writes one.
private struct Note: Codable, Equatable {
    var b: Int
    var a: String
}

private struct Reading: Codable, Equatable {
    @FixedSizeEncoded var sensor: Celsius
    @ZigZagEncoded var drift: Offset
    @Packed var labels: [String]
}

@Suite struct DropInAPITests {
    @Test func wrappersAreFullIntegers() throws {
        let x: FixedSizeEncoded<UInt32> = 0x0102
        #expect(x << 8 == 0x010200 && x & 0xff == 2 && x | 1 == 0x0103 && x ^ x == 0 && ~x == 0xffff_fefd)
        #expect(x >> 8 == 1 && FixedSizeEncoded<UInt32>.bitWidth == 32 && x.bitWidth == 32)
        #expect(Int(x) == 258 && UInt8(truncatingIfNeeded: x) == 2)
        #expect(FixedSizeEncoded<UInt32>.max.addingReportingOverflow(1) == (0, true))
        #expect(x.multipliedReportingOverflow(by: 2) == (0x0204, false))
        let range: ClosedRange<ZigZagEncoded<Int16>> = -2...2
        #expect(range.map(\.wrappedValue) == [-2, -1, 0, 1, 2])
        #expect(Array(VariableLengthEncoded<Int32>(1)..<VariableLengthEncoded<Int32>(4)).map { Int($0) } == [1, 2, 3])
        #expect(ZigZagEncoded<Int16>("-42") == -42 && ZigZagEncoded<Int16>("x") == nil)
        #expect(VariableLengthEncoded<Int64>("99999999999")?.wrappedValue == 99_999_999_999)
        #expect(FixedSizeEncoded<Int64>(-5).magnitude == 5 && -FixedSizeEncoded<Int64>(3) == -3)
        #expect(FixedSizeEncoded<Int32>(exactly: 2.0) == 2 && FixedSizeEncoded<Int32>(exactly: 2.5) == nil)
        #expect(FixedSizeEncoded<Int32>(clamping: Int64.max) == .max && x.description == "258")
        #expect(x.leadingZeroBitCount == 23 && x.trailingZeroBitCount == 1 && x.nonzeroBitCount == 2)
        #expect(x.byteSwapped == 0x0201_0000 && x.advanced(by: 2) == 260 && x.distance(to: 250) == -8)
    }

    @Test func fixedSizeMembersGiveTheWireBytes() throws {
        #expect(Int32(-2).fixedSizeEncoded == Data([0xfe, 0xff, 0xff, 0xff]))
        #expect(UInt64(1).fixedSizeEncoded == Data([1, 0, 0, 0, 0, 0, 0, 0]))
        #expect(Int(1).fixedSizeEncoded.count == 8 && UInt(1).fixedSizeEncoded.count == 8)
        #expect(Int16(0x0102).fixedSizeEncoded == Data([2, 1]) && UInt16(1).fixedSizeEncoded == Data([1, 0]))
        #expect(Int8(-1).fixedSizeEncoded == Data([0xff]) && UInt8(7).fixedSizeEncoded == Data([7]))
        #expect(true.fixedSizeEncoded == Data([1]) && Float(1).fixedSizeEncoded == Data([0x3f, 0x80, 0, 0]))
        #expect(Double(1).fixedSizeEncoded == Data([0x3f, 0xf0, 0, 0, 0, 0, 0, 0]))
        // The bytes a wrapped field holds in v3 (after its key and length).
        struct Field: Codable { @FixedSizeEncoded var v: Int32 }
        #expect(try BinaryEncoder.encode(Field(v: -2)).suffix(4) == Int32(-2).fixedSizeEncoded)
        #expect(try Int32(fromFixedSize: Data([0xfe, 0xff, 0xff, 0xff])) == -2)
        #expect(try Double(fromFixedSize: Double(2.5).fixedSizeEncoded) == 2.5)
        #expect(try Bool(fromFixedSize: Data([1])))
        #expect(try !Bool(fromFixedSize: Data([0])))
        #expect(throws: CorruptedDataError.self) { try Bool(fromFixedSize: Data([2])) }
        #expect(throws: CorruptedDataError.self) { try UInt32(fromFixedSize: Data([1, 2, 3])) }
    }

    @Test func varintAndZigZagMembersGiveTheWireBytes() throws {
        #expect(UInt32(300).variableLengthEncoding == Data([0xac, 0x02]))
        #expect(Int16(-1).variableLengthEncoding == Data([0xff, 0xff, 0x03]))
        #expect(UInt64.max.variableLengthEncoding == Data(repeating: 0xff, count: 9))
        #expect(Int32(-1).zigZagEncoded == Data([1]) && Int64(1).zigZagEncoded == Data([2]))
        #expect(Int(-64).zigZagEncoded == Data([0x7f]) && Int16(64).zigZagEncoded == Data([0x80, 0x01]))
        // Plain Int and UInt32 are written exactly so at the top level of v3.
        #expect(try BinaryEncoder.encode(-64 as Int) == Int(-64).zigZagEncoded)
        #expect(try BinaryEncoder.encode(300 as UInt32) == UInt32(300).variableLengthEncoding)
        #expect(try UInt16(fromVarint: Data([0xac, 0x02])) == 300)
        #expect(try Int16(fromVarint: Data([0xff, 0xff, 0x03])) == -1)
        #expect(try Int(fromZigZag: Data([0x7f])) == -64)
        #expect(try Int16(fromZigZag: Data([0x80, 0x01])) == 64)
        #expect(throws: CorruptedDataError.self) { try UInt8(fromFixedSize: Data()) }
        #expect(throws: CorruptedDataError.self) { try UInt16(fromVarint: Data([0x80, 0x00])) }  // over-long
        #expect(throws: CorruptedDataError.self) { try UInt16(fromVarint: Data([0x01, 0x01])) }  // trailing byte
        #expect(throws: CorruptedDataError.self) { try Int64(fromZigZag: Data([0x80])) }  // truncated
    }

    /// BinaryCodable 4.0.0's DecodingErrorTests.testUInt32OutOfRange and testInt32OutOfRange.
    @Test func outOfRangeValuesThrow() throws {
        let tooLarge = try BinaryEncoder.encode(UInt64(UInt32.max) + 1)
        #expect(throws: DecodingError.self) { try BinaryDecoder.decode(UInt32.self, from: tooLarge) }
        #expect(throws: CorruptedDataError.self) { try UInt32(fromVarint: tooLarge) }
        #expect(try UInt64(fromVarint: tooLarge) == UInt64(UInt32.max) + 1)
        let tooSmall = try BinaryEncoder.encode(Int64(Int32.min) - 1)
        #expect(throws: DecodingError.self) { try BinaryDecoder.decode(Int32.self, from: tooSmall) }
        #expect(throws: CorruptedDataError.self) { try Int32(fromZigZag: tooSmall) }
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func userConformancesAndPackedStringsRoundTrip(_ format: BinaryFormat) throws {
        let value = Reading(sensor: Celsius(tenths: -15), drift: Offset(value: -3), labels: ["a", "bc"])
        let data = try BinaryEncoder(format: format).encode(value)
        #expect(try BinaryDecoder(format: format).decode(Reading.self, from: data) == value)
        // A user's type is encoded with its own encode(to:); @Packed changes nothing.
        struct Plain: Codable {
            var sensor: Celsius
            var drift: Offset
            var labels: [String]
        }
        let plain = Plain(sensor: value.sensor, drift: value.drift, labels: value.labels)
        #expect(data == (try BinaryEncoder(format: format).encode(plain)))
    }

    /// `@FixedSizeEncoded` on types that are fixed-size already compiles, deprecated, and changes nothing.
    @available(*, deprecated, message: "uses the deprecated combinations on purpose")
    @Test(arguments: [BinaryFormat.v3, .v2])
    func fixedSizeOnFixedSizeTypesChangesNothing(_ format: BinaryFormat) throws {
        struct Wrapped: Codable, Equatable {
            @FixedSizeEncoded var flag: Bool
            @FixedSizeEncoded var ratio: Double
            @FixedSizeEncoded var level: Float
            @FixedSizeEncoded var small: Int8
            @FixedSizeEncoded var byte: UInt8
        }
        struct Plain: Codable {
            var flag: Bool
            var ratio: Double
            var level: Float
            var small: Int8
            var byte: UInt8
        }
        let value = Wrapped(flag: true, ratio: 0.5, level: -2, small: -1, byte: 200)
        let encoder = BinaryEncoder(format: format)
        let data = try encoder.encode(value)
        #expect(data == (try encoder.encode(Plain(flag: true, ratio: 0.5, level: -2, small: -1, byte: 200))))
        #expect(try BinaryDecoder(format: format).decode(Wrapped.self, from: data) == value)
    }

    @Test func streamEncoderWorksFromALet() throws {
        let encoder = BinaryStreamEncoder<Int>()
        let bytes = try encoder.encode(contentsOf: [1, -1])
        #expect(bytes == Data([2, 2, 2, 1]))  // each element: its length doubled (not nil), then the bytes
        let decoder = BinaryStreamDecoder<Int>()
        decoder.add(bytes)
        #expect(try decoder.decodeElements() == [1, -1])
    }

    /// BinaryCodable 2.0.3's stream call, fixed-size protocol and data types.
    @available(*, deprecated, message: "uses BinaryCodable 2.x calls on purpose")
    @Test func legacyTwoZeroThreeAPI() throws {
        let decoder = BinaryStreamDecoder<Int>()
        #expect(try decoder.decode(Data([2, 2, 2])) == [1])
        #expect(try decoder.decode(Data([1])) == [-1])
        let bad = BinaryStreamDecoder<Bool>()
        #expect(try bad.decode(Data([2, 1, 2, 7]), returnElementsBeforeError: true) == [true])
        let bad2 = BinaryStreamDecoder<Bool>()
        #expect(throws: DecodingError.self) { try bad2.decode(Data([2, 7])) }

        func describe<T: FixedSizeCompatible>(_ value: T) -> (DataType, String, Data) {
            (T.fixedSizeDataType, value.fixedProtoType, value.fixedSizeEncoded)
        }
        #expect(describe(Int32(1)) == (.fourBytes, "sfixed32", Data([1, 0, 0, 0])))
        #expect(describe(UInt64(1)) == (.eightBytes, "fixed64", Data([1, 0, 0, 0, 0, 0, 0, 0])))
        #expect(describe(Int(-1)) == (.eightBytes, "sfixed64", Data(repeating: 0xff, count: 8)))
        #expect(try UInt32(fromFixedSize: Data([1, 0, 0, 0])) == 1)
        #expect(try Int64(fromFixedSize: Data(repeating: 0xff, count: 8), path: []) == -1)
        struct Key: CodingKey {
            var stringValue: String { "id" }
            var intValue: Int? { nil }
            init() {}
            init?(stringValue: String) { nil }
            init?(intValue: Int) { nil }
        }
        #expect {
            try UInt32(fromFixedSize: Data([1, 0]), path: [Key()])
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["id"] && context.underlyingError is CorruptedDataError
        }
        func proto<T: SignedValueCompatible>(_ value: T) -> String { value.positiveProtoType }
        #expect(proto(Int32(1)) == "int32" && proto(Int64(1)) == "int64" && proto(1) == "int64")
        #expect(DataType(rawValue: 5) == .fourBytes && DataType.variableLength.rawValue == 2)
        #expect([DataType.variableLengthInteger, .byte, .twoBytes, .eightBytes].map(\.rawValue) == [0, 6, 7, 1])
        @FixedSize var id: UInt64 = 7
        #expect(id == 7)
    }

    /// BinaryCodable 2.0.3's `SignedValue` conveniences: literals, order, zero and bounds.
    @Test func signedValueConveniences() throws {
        let minusTwo: SignedValue<Int32> = -2
        #expect(minusTwo.wrappedValue == -2)
        #expect(minusTwo < 3 && !(SignedValue<Int64>(5) < 5) && minusTwo == -2)
        #expect([SignedValue<Int>(3), -1, 2].sorted() == [-1, 2, 3])
        #expect(SignedValue<Int32>.zero.wrappedValue == 0)
        #expect(SignedValue<Int32>.max.wrappedValue == Int32.max && SignedValue<Int64>.min.wrappedValue == Int64.min)
        #expect(SignedValue<Int>.min < .zero && SignedValue<Int>.zero < .max)
        // A literal-initialized field writes the zig-zag varint of its value (sint32 -2 -> 3).
        #expect(try ProtobufEncoder().encode(SignedField(value: -2)) == Data([0x08, 0x03]))
    }

    struct SignedField: Codable {
        @SignedValue var value: Int32
        enum CodingKeys: Int, CodingKey { case value = 1 }
    }

    /// 4.0.0's initializers from a varint's value already read: range checked, the 64-bit ones total.
    @Test func rawVarintInitializersCheckTheRange() throws {
        #expect(UInt64(fromVarint: UInt64.max) == .max && Int64(fromVarint: UInt64.max) == -1)
        #expect(try UInt32(fromVarint: 300) == 300 && Int32(fromVarint: 0xffff_ffff) == -1)
        #expect(try UInt16(fromVarint: 0xffff) == .max && Int16(fromVarint: 0x8000) == .min)
        #expect(try UInt(fromVarint: 7) == 7 && Int(fromVarint: UInt64.max) == -1)
        #expect(throws: CorruptedDataError.self) { try UInt32(fromVarint: 1 << 32) }
        #expect(throws: CorruptedDataError.self) { try Int32(fromVarint: 1 << 32) }
        #expect(throws: CorruptedDataError.self) { try UInt16(fromVarint: 1 << 16) }
        #expect(throws: CorruptedDataError.self) { try Int16(fromVarint: 1 << 16) }
        #expect(Int64(fromZigZag: 3) == -2 && Int64(fromZigZag: UInt64.max) == .min)
        #expect(try Int32(fromZigZag: 4) == 2 && Int16(fromZigZag: 65535) == .min && Int(fromZigZag: 1) == -1)
        #expect(throws: CorruptedDataError.self) { try Int32(fromZigZag: 1 << 32) }
        #expect(throws: CorruptedDataError.self) { try Int16(fromZigZag: 65536) }
        // The same values as the byte forms give for the varint of each.
        for raw: UInt64 in [0, 1, 2, 300, 0xffff, 1 << 20, 0xffff_ffff, 1 << 40, .max] {
            let bytes = raw.variableLengthEncoding
            #expect(UInt64(fromVarint: raw) == (try UInt64(fromVarint: bytes)))
            #expect(Int64(fromVarint: raw) == (try Int64(fromVarint: bytes)))
            #expect(Int64(fromZigZag: raw) == (try Int64(fromZigZag: bytes)))
            #expect((try? UInt32(fromVarint: raw)) == (try? UInt32(fromVarint: bytes)))
            #expect((try? Int16(fromZigZag: raw)) == (try? Int16(fromZigZag: bytes)))
        }
    }

    /// 4.0.0's `FixedSizeEncoded` is a number, comparable, printable and parsable as its value is,
    /// not only for integers.
    @Test func fixedSizeWrapperIsWhatItsValueIs() throws {
        let half = noEffectWrapper(0.5)
        let two = noEffectWrapper(2.0)
        #expect(half < two && [two, half].sorted() == [half, two] && half.description == "0.5")
        #expect(half + two == noEffectWrapper(2.5) && two - half == noEffectWrapper(1.5))
        #expect(half * two == noEffectWrapper(1.0) && FixedSizeEncoded<Double>.zero.wrappedValue == 0)
        #expect(FixedSizeEncoded<Double>("1.25")?.wrappedValue == 1.25 && FixedSizeEncoded<Double>("x") == nil)
        #expect(FixedSizeEncoded<Double>(exactly: 3)?.wrappedValue == 3 && two.magnitude == 2)
        #expect(half.distance(to: two) == 1.5 && half.advanced(by: 1).wrappedValue == 1.5)
        let literal: FixedSizeEncoded<Float> = 4
        #expect(literal.wrappedValue == 4 && "\(noEffectWrapper(Float(-1.5)))" == "-1.5")
        let flag = noEffectWrapper(true)
        #expect(flag.description == "true" && FixedSizeEncoded<Bool>("false")?.wrappedValue == false)
        func total<N: Numeric>(_ values: [N]) -> N { values.reduce(0, +) }
        #expect(total([half, two, two]).wrappedValue == 4.5)
        // A user's own fixed-size type: comparable because it is.
        let low = FixedSizeEncoded(wrappedValue: Celsius(tenths: 1))
        let high = FixedSizeEncoded(wrappedValue: Celsius(tenths: 9))
        #expect(low < high && !(high < low))
    }

    /// 4.0.0's `@Packed` wraps a sequence whatever its elements; coding follows the sequence.
    @Test func packedWrapsAnySequence() throws {
        struct Tag: Encodable { var name: String }
        struct Outgoing: Encodable { @Packed var tags: [Tag] }
        struct PlainOutgoing: Encodable { var tags: [Tag] }
        let tags = [Tag(name: "a"), Tag(name: "bc")]
        #expect(try BinaryEncoder().encode(Outgoing(tags: tags)) == BinaryEncoder().encode(PlainOutgoing(tags: tags)))
        struct Incoming: Decodable { @Packed var values: [Int16] }
        let data = try BinaryEncoder().encode(["values": [Int16(-1), 300]])
        #expect(try BinaryDecoder().decode(Incoming.self, from: data).values == [-1, 300])
        let lazy = Packed(wrappedValue: (1...3).lazy.map { $0 * 2 })
        #expect(Array(lazy.wrappedValue) == [2, 4, 6])
    }

    /// Calls as BinaryCodable 4.0.0's README and tests write them, with its default arguments.
    @Test func fourZeroZeroCallsAsWritten() throws {
        let anyValue: any Encodable = Note(b: 1, a: "x")
        let viaExistential = try BinaryEncoder.encode(anyValue)
        #expect(try BinaryEncoder().encode(anyValue) == viaExistential)
        let decoded: Note = try BinaryDecoder.decode(from: viaExistential)
        #expect(decoded == Note(b: 1, a: "x"))

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dropin-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try BinaryFileEncoder<Note>(fileAt: url)
        try writer.write(Note(b: 1, a: "x"))
        try writer.write(contentsOf: [Note(b: 2, a: "y"), Note(b: 3, a: "z")])
        try writer.close()
        let reader = try BinaryFileDecoder<Note>(fileAt: url)
        var seen: [Int] = []
        try reader.read { seen.append($0.b) }  // a throwing closure is accepted too
        #expect(seen == [1, 2, 3])
        try reader.close()
        let again = try BinaryFileDecoder<Note>(fileAt: url)
        #expect(try again.readElement()?.b == 1)
        #expect(try again.readAll().map(\.b) == [2, 3])
        #expect(try again.readElement() == nil)

        let stream = BinaryStreamDecoder<Note>()
        stream.add(try BinaryStreamEncoder<Note>().encode(contentsOf: [Note(b: 4, a: "w")]) + Data([0x80]))
        let (elements, error) = stream.decodeElementsUntilError()
        #expect(elements.map(\.b) == [4] && error == nil)  // 80: a length still arriving
        stream.discardBytes(1)
        #expect(try stream.decodeElements().isEmpty)

        let description: String = CorruptedDataError(.invalidBytes, "x").description
        #expect(!description.isEmpty)
    }

    /// Migration.md's 2.x hazards, as they behave.
    @Test func twoXMigrationHazards() throws {
        struct Record: Codable, Equatable { var name: String }
        let record = Record(name: "x")
        let legacy = try BinaryEncoder(format: .v2).encode(record)
        // The static coders are v3: 2.x data does not read back through them.
        #expect(try BinaryEncoder.encode(record) == BinaryEncoder(format: .v3).encode(record))
        #expect(try BinaryEncoder.encode(record) != legacy)
        #expect((try? BinaryDecoder.decode(Record.self, from: legacy)) != record)
        #expect(try BinaryDecoder(format: .v2).decode(Record.self, from: legacy) == record)

        // A single-value container with nothing written throws in v2 (2.0.3 writes no bytes).
        struct WritesNothing: Encodable {
            func encode(to encoder: any Encoder) throws { _ = encoder.singleValueContainer() }
        }
        #expect(throws: EncodingError.self) { try BinaryEncoder(format: .v2).encode(WritesNothing()) }
    }
}
