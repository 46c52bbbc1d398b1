import BinarySerialization
import Foundation
import Testing

// encode(tree:) refuses what proto3 cannot write, with the rule's code, the path to the node and
// the rule said once.
@Suite struct ProtobufTreeWriteErrorTests {
    static func chain(_ n: Int) -> BinaryValue {
        var node: BinaryValue = .keyed(KeyedFields([(1, .int32(1, .varint))]))
        for _ in 0..<n { node = .keyed(KeyedFields([(BinaryKey(intValue: 2), node)])) }
        return node
    }

    static func message(_ fields: (BinaryKey, BinaryValue)...) -> BinaryValue { .keyed(KeyedFields(fields)) }

    static let cases: [(BinaryValue, ProtobufEncodingError, [String], String)] = [
        (["name": "x"], .missingIntegerKey("name"), ["name"], "the key has no integer value"),
        (message((0, .int32(1))), .integerKeyOutOfRange(0), ["0"], "the field number is outside 1...536870911"),
        (message((1, .nil)), .nilValuesNotSupported, ["1"], "a field cannot hold nil"),
        (message((1, .single(.nil))), .nilValuesNotSupported, ["1"], "a field cannot hold nil"),
        (message((1, .int8(1))), .unsupportedType("Int8"), ["1"], "proto3 has no scalar type for Int8"),
        (message((1, .optional(.optional(nil)))), .nilValuesNotSupported, ["1"], "an optional of an optional"),
        (
            message((1, .optional(.unkeyed([.int32(1)])))), .unsupportedType("optional repeated"), ["1"],
            "it cannot be optional"
        ),
        (
            message((1, .unkeyed([.int32(1), .string("a")]))), .multipleTypesInUnkeyedContainer, ["1", "Index 1"],
            "must have one protobuf type"
        ),
        (
            message((1, .unkeyed([.int32(1), .nil]))), .nilValuesNotSupported, ["1", "Index 1"],
            "a repeated field cannot be nil or optional"
        ),
        (
            message((1, .unkeyed([.unkeyed([.int32(1)])]))), .unsupportedType("unkeyed"), ["1", "Index 0"],
            "no arrays of arrays"
        ),
        (
            message((2, .unknown(Data([0x08, 0x01])))), .unsupportedType("unknown"), ["2"],
            "field 1 kept under key 2 at byte offset 0"
        ),
        (message((1, .packed(.uint8([1])))), .unsupportedType("[UInt8]"), ["1"], "8- and 16-bit integers"),
        (.int32(1), .rootIsNotKeyedContainer, [], "must be a message, found Int32"),
        (.optional(.emptyKeyed), .rootIsNotKeyedContainer, [], "must be a message, found optional"),
        (chain(101), .unsupportedType("nesting"), Array(repeating: "2", count: 101), "deeper than the limit of 100"),
        (
            message((3, .unkeyed([.emptyKeyed, message((4, .int8(1)))]))), .unsupportedType("Int8"),
            ["3", "Index 1", "4"], "no scalar type for Int8"
        ),
    ]

    @Test(arguments: cases.indices)
    func refusedWithRuleAndPath(_ index: Int) {
        let (tree, code, path, rule) = Self.cases[index]
        do {
            let data = try ProtobufEncoder().encode(tree: tree)
            Issue.record("wrote \(spacedHex(data)) for \(tree)")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.underlyingError as? ProtobufEncodingError == code)
            #expect(context.codingPath.map(\.stringValue) == path)
            #expect(context.debugDescription.hasPrefix("Protobuf: "))
            #expect(context.debugDescription.contains(rule), "\(context.debugDescription)")
        } catch {
            Issue.record("not an EncodingError: \(error)")
        }
    }

    @Test func theLimitItselfIsWritten() throws {
        #expect(try ProtobufEncoder().encode(tree: Self.chain(100)).count > 200)
    }
}
