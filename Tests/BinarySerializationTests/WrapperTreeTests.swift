import Foundation
import Testing

@testable import BinarySerialization

/// The integer wrappers in the tree: the leaf each makes and reads, through the public tree coders.
@Suite struct WrapperTreeTests {
    private func tree<T: Encodable>(_ value: T) throws -> BinaryValue { try TreeEncoder().encodeTree(value) }

    struct Wrapped: Codable, Equatable {
        @FixedSizeEncoded var a: Int32 = 5
        @FixedSizeEncoded var b: UInt64 = 7
        @VariableLengthEncoded var c: Int16 = -1
        @ZigZagEncoded var d: Int16 = -3
        @VariableLengthEncoded var e: Int = 1
        @FixedSizeEncoded var f: UInt = 2
    }

    @Test func wrappersProduceTaggedLeaves() throws {
        let expected: BinaryValue = [
            "a": .int32(5, .fixed), "b": .uint64(7, .fixed), "c": .int16(-1, .varint),
            "d": .int16(-3, .zigZag), "e": .int(1, .varint), "f": .uint(2, .fixed),
        ]
        #expect(try tree(Wrapped()) == expected)
        // At the top level a wrapper is a bare leaf, and arrays of wrappers are not packed.
        #expect(try tree(FixedSizeEncoded<Int>(wrappedValue: 3)) == .int(3, .fixed))
        #expect(try tree([noEffectWrapper(UInt32(4)) as VariableLengthEncoded<UInt32>]) == [.uint32(4, .varint)])
        #expect(try TreeDecoder().decode(Wrapped.self, fromTree: expected) == Wrapped())
    }

    struct JSONWrapped: Codable, Equatable {
        @FixedSizeEncoded var x: Int32 = 5
    }

    @Test func wrappersAreTransparentWithJSON() throws {
        let json = try JSONEncoder().encode(JSONWrapped())
        #expect(String(decoding: json, as: UTF8.self) == #"{"x":5}"#)
        #expect(try JSONDecoder().decode(JSONWrapped.self, from: Data(#"{"x":-9}"#.utf8)).x == -9)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let all = try encoder.encode(Wrapped())
        #expect(String(decoding: all, as: UTF8.self) == #"{"a":5,"b":7,"c":-1,"d":-3,"e":1,"f":2}"#)
        #expect(try JSONDecoder().decode(Wrapped.self, from: all) == Wrapped())
    }

    @Test func aWrapperReadsItsOwnLeafOnly() throws {
        #expect(try TreeDecoder().decode(FixedSizeEncoded<Int32>.self, fromTree: .int32(7, .fixed)).wrappedValue == 7)
        #expect(throws: DecodingError.self) {
            try TreeDecoder().decode(FixedSizeEncoded<Int32>.self, fromTree: .int(7))
        }
        do {
            _ = try TreeDecoder().decode(FixedSizeEncoded<Int32>.self, fromTree: .int(7))
        } catch DecodingError.typeMismatch {
        } catch {
            Issue.record("expected typeMismatch, got \(error)")
        }
    }
}
