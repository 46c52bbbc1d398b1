import BinarySerialization
import Foundation
import Testing

/// `decodeTree` keeps the v3 fields a type does not read, so an older version of a type can
/// carry newer data through a tree without losing bytes.
@Suite struct UnknownFieldsTests {
    struct Inner: Codable, Equatable {
        var x: Int
        var note: String?
    }
    struct NewMessage: Codable, Equatable {
        var id: Int
        var added: String
        var inner: Inner
        var extra: [Int?]
        var gone: Int?
        var flag: Bool
    }
    /// The same type before `added`, `extra`, `gone` and `Inner.note` existed.
    struct OldInner: Codable, Equatable { var x: Int }
    struct OldMessage: Codable, Equatable {
        var id: Int
        var inner: OldInner
        var flag: Bool
    }

    static let value = NewMessage(
        id: 7, added: "new", inner: Inner(x: 1, note: "n"), extra: [1, nil, 3], gone: nil, flag: true)

    @Test(arguments: [false, true])
    func olderTypeKeepsEveryByteThroughATree(_ sorted: Bool) throws {
        var encoder = BinaryEncoder()
        encoder.sortKeysDuringEncoding = sorted
        var written = try encoder.encode(Self.value)
        // A nil field written explicitly, as BinaryCodable 4 writes `encode(nil, forKey:)`.
        written += Data([0x0b] + Array("other".utf8) + [0x01])
        let tree = try BinaryDecoder().decodeTree(OldMessage.self, from: written)
        #expect(try BinaryEncoder().encode(tree: tree) == written)
        // A transcode gives the bytes of the decoded value, which has no such fields; a type
        // that only decodes is written as it read, with them.
        var transcoder = BinaryTranscoder(from: .v3, to: .v3)
        transcoder.encoder.sortKeysDuringEncoding = sorted
        let old = try BinaryDecoder().decode(OldMessage.self, from: written)
        #expect(try transcoder.transcode(OldMessage.self, from: written) == transcoder.encoder.encode(old))
        #expect(try transcoder.transcode(DecodeOnly<OldMessage>.self, from: written) == written)
        guard case .keyed(let fields) = tree else {
            Issue.record("not keyed: \(tree)")
            return
        }
        if case .unknown(let bytes)? = fields["added"] {
            #expect(bytes == Data("new".utf8))
        } else {
            Issue.record("\(tree)")
        }
        #expect(fields["other"] == .nil)
        #expect(tree["inner"]?["note"] != nil)
        #expect(tree.description.contains("unknown(3 bytes: 6e 65 77)"))
        // The known fields decode as before.
        #expect(
            try BinaryDecoder().decode(OldMessage.self, fromTree: tree)
                == OldMessage(id: 7, inner: OldInner(x: 1), flag: true))
    }

    /// A primitive whose bytes do not read as the type asked (a Bool stored as `05`), which the
    /// type catches and goes on: the field is kept as stored (its bytes, under its stored key,
    /// as a field the type did not read), and the fields after it are recorded as read.
    @Test func primitiveTheTypeFailsToReadKeepsItsBytesAndItsName() throws {
        struct Lenient: Decodable {
            enum CodingKeys: Int, CodingKey { case flag = 1, name = 2 }
            var flag: Bool?
            var name: String
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                flag = try? c.decode(Bool.self, forKey: .flag)
                name = try c.decode(String.self, forKey: .name)
            }
        }
        // key 1: element of 1 byte, 05; key 2: element "ab".
        let written = Data([0x02, 0x02, 0x05, 0x04, 0x04, 0x61, 0x62])
        let tree = try BinaryDecoder().decodeTree(Lenient.self, from: written)
        guard case .keyed(let fields) = tree else {
            Issue.record("not keyed: \(tree)")
            return
        }
        #expect(fields.keys.map(\.stringValue) == ["1", "name"])
        #expect(fields[BinaryKey(intValue: 1)] == .unknown(Data([0x05])))
        #expect(fields[BinaryKey(intValue: 2)] == .string("ab"))
        #expect(try BinaryEncoder().encode(tree: tree) == written)
        let transcoder = BinaryTranscoder(from: .v3, to: .v3)
        #expect(try transcoder.transcode(Lenient.self, from: written) == written)

        // A nil where the type asked for a Bool: the type asked for the field and found nil,
        // which the tree says under the key as asked (as for a nil the type only tests).
        let withNil = Data([0x02, 0x01, 0x04, 0x04, 0x61, 0x62])
        let nilTree = try BinaryDecoder().decodeTree(Lenient.self, from: withNil)
        guard case .keyed(let nilFields) = nilTree else {
            Issue.record("not keyed: \(nilTree)")
            return
        }
        #expect(nilFields.keys.map(\.stringValue) == ["flag", "name"])
        #expect(nilFields[BinaryKey(intValue: 1)] == .nil)
        #expect(try BinaryEncoder().encode(tree: nilTree) == withNil)
        #expect(try transcoder.transcode(Lenient.self, from: withNil) == withNil)
    }

    /// A field stored as an explicit nil (BinaryCodable 4 writes `encode(nil, forKey:)` so) that
    /// the type only tests, through `decodeIfPresent`, stays in the tree and in the transcode of
    /// a type that only decodes; the transcode of a `Codable` type gives the bytes of the decoded
    /// value, whose nil optional has no field.
    @Test func explicitNilFieldTheTypeOnlyTestsIsKept() throws {
        struct Note: Codable, Equatable { var note: String? }
        let written = Data([0x09] + Array("note".utf8) + [0x01])
        let tree = try BinaryDecoder().decodeTree(Note.self, from: written)
        #expect(tree["note"] == .nil)
        #expect(try BinaryEncoder().encode(tree: tree) == written)
        let transcoder = BinaryTranscoder(from: .v3, to: .v3)
        #expect(try transcoder.transcode(Note.self, from: written).isEmpty)
        #expect(try transcoder.transcode(DecodeOnly<Note>.self, from: written) == written)
    }

    @Test func unknownFieldsCannotBeWrittenInV2() throws {
        let data = try BinaryEncoder().encode(Self.value)
        let tree = try BinaryDecoder().decodeTree(OldMessage.self, from: data)
        let error = #expect(throws: EncodingError.self) { try BinaryEncoder(format: .v2).encode(tree: tree) }
        if case .invalidValue(_, let context) = error {
            #expect(context.codingPath.map(\.stringValue) == ["added"])
        }
        // A transcode writes the decoded value, which has no such field.
        let old = try BinaryTranscoder(from: .v3, to: .v2).transcode(OldMessage.self, from: data)
        #expect(try old == BinaryEncoder(format: .v2).encode(BinaryDecoder().decode(OldMessage.self, from: data)))
        // A type that reads every field transcodes as before.
        let v2 = try BinaryTranscoder(from: .v3, to: .v2).transcode(NewMessage.self, from: data)
        #expect(try BinaryDecoder(format: .v2).decode(NewMessage.self, from: v2) == Self.value)
    }

    @Test func v2InputDropsFieldsTheTypeDoesNotRead() throws {
        let data = try BinaryEncoder(format: .v2).encode(Self.value)
        let tree = try BinaryDecoder(format: .v2).decodeTree(OldMessage.self, from: data)
        guard case .keyed(let fields) = tree else {
            Issue.record("not keyed")
            return
        }
        #expect(fields.keys.map(\.stringValue) == ["id", "inner", "flag"])
    }
}
