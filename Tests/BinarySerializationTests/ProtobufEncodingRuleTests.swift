import BinarySerialization
import Foundation
import Testing

// What proto3 cannot express is an EncodingError naming the coding path and the rule, with
// BinaryCodable 2.0.3's ProtobufEncodingError case underneath.
@Suite struct ProtobufEncodingRuleTests {
    @Test func keysMustBeFieldNumbers() {
        struct Named: Codable { var name = "x" }
        #expect(protobufEncodingFailure(Named())?.0 == .missingIntegerKey("name"))
        struct Zero: Codable {
            var a = true
            enum CodingKeys: Int, CodingKey { case a = 0 }
        }
        #expect(protobufEncodingFailure(Zero())?.0 == .integerKeyOutOfRange(0))
        struct High: Codable {
            var a = true
            enum CodingKeys: Int, CodingKey { case a = 536_870_912 }
        }
        #expect(protobufEncodingFailure(High())?.0 == .integerKeyOutOfRange(536_870_912))
    }

    @Test func unsupportedScalars() {
        let failure = protobufEncodingFailure(PB1(Int8(1)))
        #expect(failure?.0 == .unsupportedType("Int8"))
        #expect(failure?.1 == "1")
        #expect(protobufEncodingFailure(PB1(UInt16(1)))?.0 == .unsupportedType("UInt16"))
        #expect(protobufEncodingFailure(PB1([Float(1): "x"]))?.0 == .unsupportedType("Float"))
    }

    @Test func nilsAndNesting() {
        let nilElement = protobufEncodingFailure(PB1<[Int32?]>([1, nil]))
        #expect(nilElement?.0 == .nilValuesNotSupported)
        #expect(nilElement?.1 == "1.0")  // an optional element, even a present one
        #expect(protobufEncodingFailure(PB1<[[Int32]]>([[1]]))?.0 == .unsupportedType("[Int32]"))
        #expect(protobufEncodingFailure(PBOptional<Int32?>(value: .some(nil)))?.0 == .nilValuesNotSupported)
        #expect(
            protobufEncodingFailure(PBOptional<[Int32]>(value: [1]))?.0 == .unsupportedType("optional repeated"))
        #expect(protobufEncodingFailure(PB1(["a": Int32?.none]))?.0 == .nilValuesNotSupported)
    }

    @Test func topLevelMustBeAMessage() {
        #expect(protobufEncodingFailure(Int32(1))?.0 == .rootIsNotKeyedContainer)
        #expect(protobufEncodingFailure([Int32(1)])?.0 == .rootIsNotKeyedContainer)
        #expect(protobufEncodingFailure(PBColor.red)?.0 == .rootIsNotKeyedContainer)
        #expect(protobufEncodingFailure(PBChoice.Pick.number(1))?.0 == .rootIsNotKeyedContainer)
    }

    @Test func superIsUnsupported() {
        struct Child: Encodable {
            enum CodingKeys: Int, CodingKey { case a = 1 }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                _ = container.superEncoder()
            }
        }
        #expect(protobufEncodingFailure(Child())?.0 == .superNotSupported)
    }

    @Test func misusedContainers() {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(protobufEncodingFailure(PB1Wrapper(Nothing()))?.0 == .noContainersAccessed)
        struct Mixed: Encodable {
            func encode(to encoder: any Encoder) throws {
                _ = encoder.unkeyedContainer()
                _ = encoder.singleValueContainer()
            }
        }
        #expect(protobufEncodingFailure(PB1Wrapper(Mixed()))?.0 == .multipleContainersAccessed)
        struct MixedElements: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(Int32(1))
                try container.encode("x")
            }
        }
        #expect(protobufEncodingFailure(PB1Wrapper(MixedElements()))?.0 == .multipleTypesInUnkeyedContainer)
    }

    @Test func oneOfRules() throws {
        struct Clash: Codable {
            var id: Int32 = 1
            var pick: PBChoice.Pick = .number(1)
            enum CodingKeys: Int, CodingKey { case id = 2, pick = 100 }  // member 2 is also `id`
        }
        let before = protobufEncodingFailure(Clash())
        #expect(before?.0 == .unsupportedType("oneof"))
        #expect(before?.1 == "100.2")  // the member's case, under the oneof's property
        struct ClashAfter: Codable {
            var pick: PBChoice.Pick = .number(1)
            var id: Int32 = 1
            enum CodingKeys: Int, CodingKey { case pick = 100, id = 2 }  // the field after the member
        }
        #expect(protobufEncodingFailure(ClashAfter())?.0 == .unsupportedType("oneof"))
        // Field numbers from 64 up are checked exactly too: 100 and member 101 are distinct fields.
        struct Large: Codable, Equatable {
            var id: Int32 = 1
            var pick: Pick = .number(2)
            enum Pick: Codable, Equatable, ProtobufOneOf {
                case number(Int32)
                enum CodingKeys: Int, CodingKey { case number = 101 }
            }
            enum CodingKeys: Int, CodingKey { case id = 100, pick = 7 }
        }
        #expect(throws: Never.self) { try ProtobufEncoder().encode(Large()) }
        #expect(try ProtobufDecoder().decode(Large.self, from: ProtobufEncoder().encode(Large())) == Large())
        struct LargeClash: Codable {
            var id: Int32 = 1
            var pick: Large.Pick = .number(2)
            enum CodingKeys: Int, CodingKey { case id = 101, pick = 7 }
        }
        #expect(protobufEncodingFailure(LargeClash())?.0 == .unsupportedType("oneof"))
        // A oneof must set one case; here the "oneof" writes a message of its own.
        #expect(protobufEncodingFailure(PB1Wrapper(PBTwoCases()))?.0 == .unsupportedType("oneof"))
    }

    @Test func depthLimit() {
        var value = Recursive()
        for _ in 0..<200 { value = Recursive(child: [value]) }
        #expect(protobufEncodingFailure(value)?.0 == .unsupportedType("nesting"))
    }

    @Test func handMadeTreesFollowTheRules() throws {
        let encoder = ProtobufEncoder()
        #expect(throws: EncodingError.self) { try encoder.encode(tree: ["name": "x"]) }
        #expect(throws: EncodingError.self) { try encoder.encode(tree: .keyed(KeyedFields([(1, .nil)]))) }
        #expect(throws: EncodingError.self) { try encoder.encode(tree: .keyed(KeyedFields([(1, .int8(1))]))) }
        #expect(throws: EncodingError.self) { try encoder.encode(tree: .int32(1)) }
        #expect(throws: EncodingError.self) {
            try encoder.encode(tree: .keyed(KeyedFields([(1, .packed(.uint8([1])))])))
        }
        #expect(
            try encoder.encode(tree: .keyed(KeyedFields([(1, .packed(.int([-1, 2])))])))
                == Data(bytes("0a 0b ff ff ff ff ff ff ff ff ff 01 02")))
        #expect(try encoder.encode(tree: .keyed(KeyedFields([(1, .packed(.double([])))]))) == Data())
        // An unknown field must be whole fields numbered as its key.
        #expect(throws: EncodingError.self) {
            try encoder.encode(tree: .keyed(KeyedFields([(2, .unknown(Data([0x08, 0x01])))])))
        }
        #expect(throws: EncodingError.self) {
            try encoder.encode(tree: .keyed(KeyedFields([(1, .unknown(Data([0x08])))])))
        }
        #expect(throws: Never.self) {
            try encoder.encode(tree: .keyed(KeyedFields([(1, .unknown(Data([0x08, 0x01])))])))
        }
    }
}

/// A "oneof" that sets two cases: not a oneof proto3 can hold.
struct PBTwoCases: Encodable, ProtobufOneOf {
    enum CodingKeys: Int, CodingKey { case a = 1, b = 2 }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Int32(1), forKey: .a)
        try container.encode(Int32(2), forKey: .b)
    }
}

/// A message whose field 1 holds a value with a hand-written `encode(to:)`.
struct PB1Wrapper<T: Encodable>: Encodable {
    var value: T
    init(_ value: T) { self.value = value }
    enum CodingKeys: Int, CodingKey { case value = 1 }
}
