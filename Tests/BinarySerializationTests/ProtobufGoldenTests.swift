import BinarySerialization
import Foundation
import Testing

// Golden bytes of every proto3 scalar type and each structural rule, both directions.
@Suite struct ProtobufGoldenTests {
    @Test func varintScalars() {
        expectProtobuf(PB1(Int32(150)), "08 96 01")  // int32: tag 08 (field 1, varint), 150 = 96 01
        expectProtobuf(PB1(Int32(-1)), "08 ff ff ff ff ff ff ff ff ff 01")  // negative int32: 10 bytes
        expectProtobuf(PB1(Int32.min), "08 80 80 80 80 f8 ff ff ff ff 01")
        expectProtobuf(PB1(Int64(-2)), "08 fe ff ff ff ff ff ff ff ff 01")
        expectProtobuf(PB1(Int64.max), "08 ff ff ff ff ff ff ff ff 7f")
        expectProtobuf(PB1(UInt32.max), "08 ff ff ff ff 0f")
        expectProtobuf(PB1(UInt64.max), "08 ff ff ff ff ff ff ff ff ff 01")
        expectProtobuf(PB1(-1), "08 ff ff ff ff ff ff ff ff ff 01")  // Int is int64
        expectProtobuf(PB1(UInt(300)), "08 ac 02")  // UInt is uint64
        expectProtobuf(PB1(true), "08 01")
        expectProtobuf(PB1(VariableLengthEncoded(wrappedValue: Int32(-1))), "08 ff ff ff ff ff ff ff ff ff 01")
    }

    @Test func zigZagScalars() {
        expectProtobuf(PB1(SignedValue(wrappedValue: Int32(-1))), "08 01")  // sint32: -1 -> 1
        expectProtobuf(PB1(SignedValue(wrappedValue: Int32(1))), "08 02")
        expectProtobuf(PB1(SignedValue(wrappedValue: Int32.min)), "08 ff ff ff ff 0f")
        expectProtobuf(PB1(SignedValue(wrappedValue: Int64(-2))), "08 03")  // sint64
        expectProtobuf(PB1(SignedValue(wrappedValue: Int64.min)), "08 ff ff ff ff ff ff ff ff ff 01")
        expectProtobuf(PB1(SignedValue(wrappedValue: -3)), "08 05")  // SignedValue<Int> is sint64
    }

    @Test func fixedScalars() {
        expectProtobuf(PB1(FixedSizeEncoded(wrappedValue: UInt32(1))), "0d 01 00 00 00")  // fixed32: wire type 5
        expectProtobuf(PB1(FixedSizeEncoded(wrappedValue: Int32(-2))), "0d fe ff ff ff")  // sfixed32
        expectProtobuf(PB1(FixedSizeEncoded(wrappedValue: UInt64(1))), "09 01 00 00 00 00 00 00 00")  // fixed64
        expectProtobuf(PB1(FixedSizeEncoded(wrappedValue: Int64(-1))), "09 ff ff ff ff ff ff ff ff")  // sfixed64
        expectProtobuf(PB1(Float(1)), "0d 00 00 80 3f")  // float: little-endian IEEE 754
        expectProtobuf(PB1(Double(1)), "09 00 00 00 00 00 00 f0 3f")
        expectProtobuf(PB1(Float(-0.0)), "0d 00 00 00 80")  // -0.0 is not the default: written
    }

    @Test func lengthDelimitedScalars() {
        expectProtobuf(PB1("testing"), "0a 07 74 65 73 74 69 6e 67")
        expectProtobuf(PB1("é"), "0a 02 c3 a9")  // length in UTF-8 bytes
        expectProtobuf(PB1(Data([1, 2, 3])), "0a 03 01 02 03")
    }

    @Test func defaultsAreOmittedAndSupplied() {
        expectProtobuf(PB1(Int32(0)), "")
        expectProtobuf(PB1(false), "")
        expectProtobuf(PB1(Double(0)), "")
        expectProtobuf(PB1(""), "")
        expectProtobuf(PB1(Data()), "")
        expectProtobuf(PB1([Int32]()), "")
        expectProtobuf(PB1([String: Int32]()), "")
        expectProtobuf(PB1(PBColor.unspecified), "")
        expectProtobuf(PBOuter(), "1a 00")  // a message field is always written, even empty
        expectProtobufDecodes("", as: PBOuter())
    }

    @Test func fieldNumbers() {
        struct Bounds: Codable, Equatable {
            var low: Bool
            var sixteen: Bool
            var high: Bool
            enum CodingKeys: Int, CodingKey { case low = 1, sixteen = 16, high = 536_870_911 }
        }
        // Field 16: tag 128 = 80 01. Field 2^29 - 1: tag 0xfffffff8 = f8 ff ff ff 0f.
        expectProtobuf(Bounds(low: true, sixteen: true, high: true), "08 01 80 01 01 f8 ff ff ff 0f 01")
    }

    @Test func enums() {
        expectProtobuf(PB1(PBColor.blue), "08 02")
        expectProtobufDecodes("08 01", as: PB1(PBColor.red))
    }

    @Test func nestedMessages() {
        expectProtobuf(PBOuter(name: "n", inner: PBInner(a: 150)), "0a 01 6e 1a 03 08 96 01")
        expectProtobuf(PBOuter(more: PBInner()), "1a 00 22 00")  // an optional message that is set: present
    }

    @Test func optionalScalarsHavePresence() {
        expectProtobuf(PBOptional<Int32>(value: 0), "08 00")
        expectProtobuf(PBOptional<Int32>(value: nil), "")
        expectProtobuf(PBOptional<String>(value: ""), "0a 00")
    }

    @Test func repeatedFields() {
        // The protobuf documentation's packed example: [3, 270, 86942] in field 4.
        struct Packed: Codable, Equatable {
            var values: [Int32]
            enum CodingKeys: Int, CodingKey { case values = 4 }
        }
        expectProtobuf(Packed(values: [3, 270, 86942]), "22 06 03 8e 02 9e a7 05")
        expectProtobuf(PB1([true, false]), "0a 02 01 00")
        expectProtobuf(PB1([Double(1)]), "0a 08 00 00 00 00 00 00 f0 3f")
        expectProtobuf(PB1([SignedValue(wrappedValue: Int32(-1))]), "0a 01 01")
        expectProtobuf(PB1([FixedSizeEncoded(wrappedValue: UInt32(2))]), "0a 04 02 00 00 00")
        expectProtobuf(PB1([Int32(0)]), "0a 01 00")  // a default element is still an element
        expectProtobuf(PB1(["a", ""]), "0a 01 61 0a 00")  // strings are never packed
        expectProtobuf(PB1([Data([7])]), "0a 01 07")
        expectProtobuf(PB1([PBInner(a: 1), PBInner()]), "0a 02 08 01 0a 00")
        expectProtobuf(PB1(Set([Int32(2), 1])), "0a 02 01 02")  // a set is sorted: equal sets, equal bytes
    }

    @Test func repeatedNumbersAreReadPackedOrNot() {
        expectProtobufDecodes("08 03 08 8e 02", as: PB1<[Int32]>([3, 270]))
        expectProtobufDecodes("08 03 0a 02 8e 02 08 01", as: PB1<[Int32]>([3, 270, 1]))
        expectProtobufDecodes(
            "0d 01 00 00 00 0a 04 02 00 00 00",
            as: PB1([FixedSizeEncoded(wrappedValue: UInt32(1)), .init(wrappedValue: 2)]))
        expectProtobufDecodes("0a 00", as: PB1<[Int32]>([]))  // an empty packed run
    }

    @Test func maps() {
        // An entry is a message: key in field 1, value in field 2, both written.
        expectProtobuf(PB1(["a": Int32(1)]), "0a 05 0a 01 61 10 01")
        expectProtobuf(PB1(["": Int32(0)]), "0a 04 0a 00 10 00")
        // Entries sorted by key, whatever the dictionary's order.
        expectProtobuf(PB1([Int32(2): "x", 1: "y"]), "0a 05 08 01 12 01 79 0a 05 08 02 12 01 78")
        expectProtobuf(PB1([UInt32(7): PBInner(a: 1)]), "0a 06 08 07 12 02 08 01")
        expectProtobuf(PB1([true: SignedValue(wrappedValue: Int64(-1))]), "0a 04 08 01 10 01")
        // Absent key or value: the default; a repeated key keeps its last value.
        expectProtobufDecodes("0a 02 10 05", as: PB1(["": Int32(5)]))
        expectProtobufDecodes("0a 00", as: PB1(["": Int32(0)]))
        expectProtobufDecodes("0a 05 0a 01 61 10 01 0a 05 0a 01 61 10 02", as: PB1(["a": Int32(2)]))
    }

    @Test func oneOf() {
        expectProtobuf(PBChoice(id: 1, pick: .number(123)), "08 01 10 7b")
        expectProtobuf(PBChoice(pick: .number(0)), "10 00")  // a member that is set is written, even at 0
        expectProtobuf(PBChoice(pick: .text("")), "1a 00")
        expectProtobuf(PBChoice(pick: .inner(PBInner(b: 1))), "22 02 10 01")
        expectProtobuf(PBChoice(id: 5, pick: nil), "08 05")
        // The last member on the wire wins.
        expectProtobufDecodes("10 01 1a 01 61", as: PBChoice(pick: .text("a")))
    }

    @Test func lastValueWinsAndMessagesMerge() {
        expectProtobufDecodes("08 01 08 02", as: PB1(Int32(2)))
        expectProtobufDecodes("1a 02 08 01 1a 02 10 05", as: PBOuter(inner: PBInner(a: 1, b: 5)))
    }

    @Test func unknownFieldsAreSkipped() {
        // Field 1 known; 2 varint, 3 fixed64, 4 length-delimited, 5 fixed32, 6 a group holding a
        // varint, then 1 again.
        let hex = """
            10 96 01                   // 2: varint
            19 01 02 03 04 05 06 07 08 // 3: fixed64
            22 02 61 62                // 4: length-delimited
            2d 01 02 03 04             // 5: fixed32
            33 08 01 34                // 6: start group, field 1 varint, end group
            08 07                      // 1: varint 7
            """
        expectProtobufDecodes(hex, as: PB1(Int32(7)))
    }

    @Test func parsersAcceptedForms() {
        expectProtobufDecodes("08 81 80 00", as: PB1(Int32(1)))  // a non-minimal varint
        expectProtobufDecodes("08 ff ff ff ff 0f", as: PB1(Int32(-1)))  // int32 in 5 bytes: truncated to 32 bits
        expectProtobufDecodes("08 02", as: PB1(true))  // any non-zero bool is true
    }

    @Test func signedValueWritesPlainBytesInBinaryFormats() throws {
        struct Plain: Codable, Equatable {
            var v: Int32
            enum CodingKeys: Int, CodingKey { case v = 1 }
        }
        for format in [BinaryFormat.v3, .v2] {
            let wrapped = try BinaryEncoder(format: format).encode(PB1(SignedValue(wrappedValue: Int32(-5))))
            let plain = try BinaryEncoder(format: format).encode(Plain(v: -5))
            #expect(wrapped == plain, "\(format)")
            let back = try BinaryDecoder(format: format).decode(PB1<SignedValue<Int32>>.self, from: plain)
            #expect(back.value.wrappedValue == -5)
        }
    }
}
