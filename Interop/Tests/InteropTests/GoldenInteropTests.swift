import BinarySerialization
import Foundation
import InteropMessages
import SwiftProtobuf
import Testing

// Golden bytes against swift-protobuf, both ways: for each scalar type (at zero, small, extreme and
// negative values) and each structural rule, our bytes equal swift-protobuf's for the same message,
// swift-protobuf parses ours to that message, and we decode its bytes to the value.
@Suite struct GoldenInteropTests {
    static func check(_ value: Everything, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = value.proto
        let ours = try ProtobufEncoder().encode(value)
        let theirs: Data = try expected.serializedBytes()
        #expect(hex(ours) == hex(theirs), sourceLocation: sourceLocation)
        #expect(try Interop_Everything(serializedBytes: ours) == expected, sourceLocation: sourceLocation)
        #expect(try ProtobufDecoder().decode(Everything.self, from: theirs) == value, sourceLocation: sourceLocation)
    }

    /// Every scalar type at one value, in one message.
    static func scalars(_ edit: (inout Scalars) -> Void) -> Everything {
        var e = Everything()
        edit(&e.scalars)
        return e
    }

    @Test func scalarTypes() throws {
        try Self.check(Everything())  // all defaults: only the three message fields, empty
        for v in [Int32(1), -1, .min, .max, 150] {
            try Self.check(
                Self.scalars {
                    $0.i32 = v
                    $0.s32 = v
                    $0.sf32 = v
                })
        }
        for v in [Int64(1), -1, .min, .max, 1 << 40] {
            try Self.check(
                Self.scalars {
                    $0.i64 = v
                    $0.s64 = v
                    $0.sf64 = v
                })
        }
        for v in [UInt32(1), .max, 300] {
            try Self.check(
                Self.scalars {
                    $0.u32 = v
                    $0.f32 = v
                })
        }
        for v in [UInt64(1), .max, 1 << 63] {
            try Self.check(
                Self.scalars {
                    $0.u64 = v
                    $0.f64 = v
                })
        }
        try Self.check(Self.scalars { $0.flag = true })
        for v in [Float(1), -0.0, .infinity, .leastNonzeroMagnitude] {
            try Self.check(Self.scalars { $0.fl = v })
        }
        for v in [Double(1), -0.0, -.infinity, .greatestFiniteMagnitude] {
            try Self.check(Self.scalars { $0.db = v })
        }
        try Self.check(Self.scalars { $0.text = "héllo 😀" })
        try Self.check(Self.scalars { $0.blob = Data([0, 1, 0xff]) })
        try Self.check(Self.scalars { $0.color = .blue })
    }

    @Test func structure() throws {
        var e = Everything()
        e.repeated.i32 = [1, -1, 0]
        e.repeated.s64 = [.init(wrappedValue: -1)]
        e.repeated.f32 = [.init(wrappedValue: 7)]
        e.repeated.fl = [1.5]
        e.repeated.flag = [true, false]
        e.repeated.text = ["", "a"]
        e.repeated.blob = [Data(), Data([1])]
        e.repeated.color = [.red, .unspecified]
        e.repeated.inner = [Inner(), Inner(a: 1, b: "x")]
        try Self.check(e)  // packed numbers and enums; strings, bytes and messages one per field

        e = Everything()
        e.maps.sI32 = ["": 0]  // a map entry writes its key and value even at their defaults
        e.maps.i32S = [-1: "x"]
        e.maps.u64Inner = [0: Inner()]
        e.maps.s32Db = [.init(wrappedValue: -2): 0.5]
        e.maps.flagBlob = [true: Data()]
        e.maps.f32S64 = [.init(wrappedValue: 1): .init(wrappedValue: -1)]
        e.maps.i64Color = [5: .blue]
        e.maps.sf64Fl = [.init(wrappedValue: -5): -0.0]
        try Self.check(e)

        e = Everything(inner: Inner(), optI32: 0, optText: "")  // presence: written at the default
        try Self.check(e)
        for choice in [
            Choice.choiceI64(0), .choiceText(""), .choiceInner(Inner()), .choiceS32(.init(wrappedValue: -1)),
        ] {
            try Self.check(Everything(choice: choice))  // a oneof member that is set is written
        }
        var parent = Everything(optI32: 1)
        parent.children = [Everything(), Everything(optText: "child")]
        try Self.check(parent)
    }

    @Test func unpackedAndSplitFormsAreRead() throws {
        var e = Everything()
        e.repeated.unpackedI32 = [1, -1]
        e.repeated.unpackedDb = [2]
        let theirs: Data = try e.proto.serializedBytes()
        #expect(try ProtobufDecoder().decode(Everything.self, from: theirs) == e)
        // Ours packs them; swift-protobuf reads either form.
        #expect(try Interop_Everything(serializedBytes: ProtobufEncoder().encode(e)) == e.proto)
    }

    @Test func unknownFieldsBothWays() throws {
        // swift-protobuf's fields unknown to a smaller type are kept by decodeTree and written back.
        var e = Everything(optI32: 3, optText: "kept", choice: .choiceText("also kept"))
        e.maps.sI32 = ["k": 1]
        let theirs: Data = try e.proto.serializedBytes()
        let tree = try ProtobufDecoder().decodeTree(EverythingLite.self, from: theirs)
        // (They follow the known fields, so the bytes are in another order: the message is the same.)
        let rewritten = try ProtobufEncoder().encode(tree: tree)
        #expect(try Interop_Everything(serializedBytes: rewritten) == e.proto)
        #expect(rewritten.count == theirs.count)
        // Our fields unknown to swift-protobuf's type are kept in its unknown fields and written back.
        struct Wider: Codable, Equatable {
            var optI32: Int32? = nil
            var extra: String = ""
            enum CodingKeys: Int, CodingKey { case optI32 = 5, extra = 99 }
        }
        let wider = Wider(optI32: 1, extra: "unknown to swift-protobuf")
        let parsed = try Interop_Everything(serializedBytes: ProtobufEncoder().encode(wider))
        #expect(parsed.optI32 == 1)
        #expect(!parsed.unknownFields.data.isEmpty)
        #expect(try ProtobufDecoder().decode(Wider.self, from: parsed.serializedBytes() as Data) == wider)
    }
}
