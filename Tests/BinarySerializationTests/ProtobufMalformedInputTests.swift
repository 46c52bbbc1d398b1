import BinarySerialization
import Foundation
import Testing

// Malformed protobuf input: each is a DecodingError naming the path and the byte offset, never a
// crash or an allocation sized from the input.
@Suite struct ProtobufMalformedInputTests {
    @Test func truncatedVarint() {
        let error = protobufDecodingFailure(PB1<Int32>.self, "08 96")  // 96: continuation, then nothing
        #expect(error?.wireError?.code == .truncated)
        #expect(error?.wireError?.offset == 1)
    }

    @Test func truncatedTag() {
        let error = protobufDecodingFailure(PB1<Int32>.self, "08 01 80")  // a tag varint that does not end
        #expect(error?.wireError?.code == .truncated)
        #expect(error?.wireError?.offset == 2)
    }

    @Test func varintLongerThan64Bits() {
        // Ten bytes, the tenth holding more than the 64th bit.
        let error = protobufDecodingFailure(PB1<Int64>.self, "08 ff ff ff ff ff ff ff ff ff 7f")
        #expect(error?.wireError?.code == .invalidBytes)
        #expect(error?.wireError?.offset == 1)
        #expect(error?.path == "1")  // found framing the top-level message: field 1's value
        // Eleven bytes.
        let longer = protobufDecodingFailure(PB1<Int64>.self, "08 80 80 80 80 80 80 80 80 80 80 00")
        #expect(longer?.wireError?.code == .invalidBytes)
    }

    @Test func badWireTypes() {
        for (hex, offset) in [("0e 00", 0), ("08 01 0f 00", 2)] {  // wire types 6 and 7
            let error = protobufDecodingFailure(PB1<Int32>.self, hex)
            #expect(error?.wireError?.code == .invalidBytes, "\(hex)")
            #expect(error?.wireError?.offset == offset, "\(hex)")
        }
        // An end-group tag outside a group; a group without its end; a group ended by another field's end.
        for hex in ["0c", "0b 08 01", "0b 14"] {
            let error = protobufDecodingFailure(PB1<Int32>.self, hex)
            #expect(error?.wireError != nil, "\(hex)")
        }
    }

    @Test func lengthPastTheEnd() {
        let error = protobufDecodingFailure(PB1<String>.self, "0a 05 61")  // 5 bytes claimed, 1 there
        #expect(error?.wireError?.code == .truncated)
        #expect(error?.wireError?.offset == 1)
        #expect(error?.path == "1")  // the top-level message does not frame: field 1's value
        // A length near 2^64: rejected before anything is sized from it.
        let huge = protobufDecodingFailure(PB1<Data>.self, "0a ff ff ff ff ff ff ff ff ff 01")
        #expect(huge?.wireError?.code == .truncated)
        // In a nested message: the path names the message's field and the field inside it.
        let nested = protobufDecodingFailure(PBOuter.self, "1a 02 08 96")  // the inner varint is cut
        #expect(nested?.wireError?.code == .truncated)
        #expect(nested?.path == "3.1")
    }

    @Test func fixedValuesPastTheEnd() {
        #expect(protobufDecodingFailure(PB1<Float>.self, "0d 00 00 80")?.wireError?.code == .truncated)
        #expect(protobufDecodingFailure(PB1<Double>.self, "09 00 00")?.wireError?.code == .truncated)
        // A packed run of fixed32 whose length is not a multiple of 4.
        let packed = protobufDecodingFailure(PB1<[FixedSizeEncoded<UInt32>]>.self, "0a 03 01 02 03")
        #expect(packed?.wireError?.code == .truncated)
        #expect(packed?.path == "1.0")
    }

    @Test func fieldNumberZero() {
        let error = protobufDecodingFailure(PB1<Int32>.self, "00 01")  // tag 0: field 0, varint
        #expect(error?.wireError?.code == .invalidBytes)
        #expect(error?.wireError?.offset == 0)
        #expect(protobufDecodingFailure(PB1<Int32>.self, "02 00")?.wireError?.code == .invalidBytes)
    }

    @Test func fieldNumberAbove29Bits() {
        // Tag 2^32: field 2^29.
        let error = protobufDecodingFailure(PB1<Int32>.self, "80 80 80 80 10 01")
        #expect(error?.wireError?.code == .invalidBytes)
    }

    @Test func wrongWireTypeForTheType() {
        let error = protobufDecodingFailure(PB1<Int32>.self, "0a 01 61")  // a string where an int32 is
        guard case .typeMismatch? = error else {
            Issue.record("expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(error?.path == "1")
        #expect(error?.wireError?.offset == 0)
        #expect(protobufDecodingFailure(PBOuter.self, "18 01") != nil)  // a varint where a message is
    }

    @Test func invalidUTF8() {
        let error = protobufDecodingFailure(PB1<String>.self, "0a 01 ff")
        #expect(error?.wireError?.code == .invalidBytes)
        #expect(error?.wireError?.offset == 2)
        #expect(error?.path == "1")
        let nested = protobufDecodingFailure(PBOuter.self, "1a 05 08 01 12 01 ff")  // inner.b: wrong type
        #expect(nested?.path == "3.2")
    }

    @Test func deepNesting() {
        // 100,000 messages each holding the next in field 1: past the default depth limit of 100,
        // and a lower one. (A limit in the thousands is for a thread with the stack for it: under
        // AddressSanitizer, a test thread's stack holds fewer levels.)
        // Level k holds level k - 1: its bytes are a tag and the inner level's length, then the
        // inner level. Written outermost first, one header per level.
        var sizes = [0]
        for _ in 0..<100_000 {
            sizes.append(1 + base128Varint(UInt64(sizes[sizes.count - 1])).count + sizes[sizes.count - 1])
        }
        var data: [UInt8] = []
        data.reserveCapacity(sizes[sizes.count - 1])
        for level in stride(from: sizes.count - 1, to: 0, by: -1) {
            data.append(0x0a)
            data += base128Varint(UInt64(sizes[level - 1]))
        }
        for limit in [100, 10] {
            var decoder = ProtobufDecoder()
            decoder.limits.maximumDepth = limit
            do {
                _ = try decoder.decode(Recursive.self, from: Data(data))
                Issue.record("decoded 100,000 levels")
            } catch let error as DecodingError {
                #expect(error.wireError?.code == .limitExceeded)
                #expect(error.path.split(separator: ".").count >= limit - 1, "limit \(limit): \(error.path.prefix(40))")
            } catch {
                Issue.record("threw \(error)")
            }
        }
        // Groups nested 100,000 deep, in a field the type does not know.
        let groups = [UInt8](repeating: 0x13, count: 100_000)  // field 2, start group
        let error = protobufDecodingFailure(PB1<Int32>.self, spacedHex(groups))
        #expect(error?.wireError?.code == .limitExceeded)
    }

    @Test func topLevelMustBeAMessage() {
        #expect(protobufDecodingFailure(Int32.self, "08 01") != nil)
        #expect(protobufDecodingFailure([Int32].self, "08 01") != nil)
        #expect(protobufDecodingFailure(PBChoice.Pick.self, "10 01") != nil)
    }

    @Test func unsupportedTypes() {
        let error = protobufDecodingFailure(PB1<Int8>.self, "08 01")
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("expected typeMismatch")
            return
        }
        #expect(context.underlyingError as? ProtobufDecodingError == .unsupportedType("Int8"))
    }

    @Test func stringKeys() {
        struct Named: Codable { var name: String }
        let error = protobufDecodingFailure(Named.self, "0a 00")
        #expect(error?.path == "name")
    }

    @Test func dataSlicesAndByteArrays() throws {
        let data = Data([0xff, 0x08, 0x96, 0x01])
        #expect(try ProtobufDecoder().decode(PB1<Int32>.self, from: data.dropFirst()) == PB1(150))
        #expect(try ProtobufDecoder().decode(PB1<Int32>.self, from: [0x08, 0x96, 0x01]) == PB1(150))
    }
}

/// A message holding itself: for the depth limit.
struct Recursive: Codable, Equatable {
    var child: [Recursive] = []
    enum CodingKeys: Int, CodingKey { case child = 1 }
}

/// A message of every structural kind, for the random-input test.
struct PBComposite: Codable, Equatable {
    var id: Int64 = 0
    var name = ""
    var inner = PBInner()
    var list: [PBInner] = []
    var numbers: [SignedValue<Int32>] = []
    var fixed: [FixedSizeEncoded<UInt64>] = []
    var doubles: [Double] = []
    var map: [String: PBInner] = [:]
    var colors: [PBColor] = []
    var choice: PBChoice.Pick? = nil
    var maybe: Float? = nil
    var children: [PBComposite] = []
    enum CodingKeys: Int, CodingKey {
        case id = 1
        case name = 5, inner, list, numbers, fixed, doubles, map, colors  // the oneof's members are 2...4
        case choice = 99
        case maybe = 20, children = 21
    }
}

@Suite struct ProtobufRandomInputTests {
    /// Seeded mutations of valid bytes (flipped, inserted, deleted and truncated bytes) decode or
    /// throw a DecodingError: never a crash, never another error.
    @Test func mutatedInputNeverCrashes() throws {
        var child = PBComposite(id: -1, name: "child", doubles: [1, -0.0], maybe: 0)
        child.map = ["": PBInner()]
        var value = PBComposite(
            id: 1 << 40, name: "héllo", inner: PBInner(a: -5, b: 7), list: [PBInner(a: 1), PBInner()],
            numbers: [.init(wrappedValue: -3), .init(wrappedValue: 9)], fixed: [.init(wrappedValue: .max)],
            doubles: [.pi], map: ["a": PBInner(a: 2)], colors: [.red, .blue, .unspecified],
            choice: .text("pick"), maybe: 1.5)
        value.children = [child]
        let valid = [UInt8](try ProtobufEncoder().encode(value))
        #expect(try ProtobufDecoder().decode(PBComposite.self, from: valid) == value)
        var rng = SplitMix64(seed: 38)
        var decoded = 0
        var rejected = 0
        for _ in 0..<20_000 {
            var bytes = valid
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let at = Int(rng.next() % UInt64(bytes.count + 1))
                switch rng.next() % 4 {
                case 0 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                case 2 where at < bytes.count: bytes.remove(at: at)
                default: bytes = Array(bytes.prefix(at))
                }
            }
            do {
                _ = try ProtobufDecoder().decode(PBComposite.self, from: bytes)
                decoded += 1
            } catch is DecodingError {
                rejected += 1
            } catch {
                Issue.record("threw \(error) for \(spacedHex(bytes))")
                return
            }
        }
        // Both outcomes occur: the mutations reach past the framing into the values.
        #expect(decoded > 100)
        #expect(rejected > 100)
    }
}
