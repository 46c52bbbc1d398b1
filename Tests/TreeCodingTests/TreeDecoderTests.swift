import Foundation
import Testing
import TreeCoding

/// `TreeDecoder`: container behaviour, lenient conversions, and errors with coding paths.
@Suite struct TreeDecoderTests {
    func decode<T: Decodable>(_ type: T.Type, _ tree: BinaryValue, recorder: Recorder? = nil) throws -> T {
        var decoder = TreeDecoder()
        if let recorder { decoder.userInfo[Recorder.key] = recorder }
        return try decoder.decode(type, fromTree: tree)
    }

    /// The error thrown decoding `tree` as `type`, which must be a `DecodingError`.
    func failure<T: Decodable>(
        _ type: T.Type, _ tree: BinaryValue, sourceLocation: SourceLocation = #_sourceLocation
    ) -> DecodingError? {
        #expect(throws: DecodingError.self, sourceLocation: sourceLocation) { try decode(type, tree) }
    }

    // MARK: Keyed containers

    enum Known: String, CodingKey { case a, b }

    struct KeyedProbe: Decodable {
        var allKeys: [String]
        var knownKeys: [Known]
        var containsA, containsZ, containsInt7: Bool
        var aIsNil, bIsNil, cIsNil: Bool
        var missingIsNil: Bool

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            allKeys = c.allKeys.map(\.stringValue)
            knownKeys = try decoder.container(keyedBy: Known.self).allKeys
            containsA = c.contains("a")
            containsZ = c.contains("z")
            containsInt7 = c.contains(7)
            aIsNil = try c.decodeNil(forKey: "a")
            bIsNil = try c.decodeNil(forKey: "b")
            cIsNil = try c.decodeNil(forKey: "c")
            missingIsNil = try c.decodeNil(forKey: "z")
        }
    }

    @Test func keyedContainerQueries() throws {
        let probe = try decode(KeyedProbe.self, ["a": .nil, "b": 1, 7: "seven", "c": .optional(nil)])
        #expect(probe.allKeys == ["a", "b", "7", "c"])
        #expect(probe.knownKeys == [.a, .b])
        #expect(probe.containsA && !probe.containsZ && probe.containsInt7)
        #expect(probe.aIsNil && !probe.bIsNil && probe.cIsNil)
        // An absent key is nil: that is how `encodeNil(forKey:)`, which writes nothing, reads back.
        #expect(probe.missingIsNil)
    }

    struct IntKeyed: Codable, Equatable {
        var first: Bool
        var second: String
        enum CodingKeys: Int, CodingKey { case first = 1, second = 2 }
    }

    @Test func integerKeys() throws {
        #expect(try decode(IntKeyed.self, [1: true, 2: "x"]) == IntKeyed(first: true, second: "x"))
        // A hand-built tree may name integer keys by their string.
        #expect(try decode(IntKeyed.self, ["first": true, "second": "x"]) == IntKeyed(first: true, second: "x"))
        #expect(try decode([Int: String].self, [300: "x", 1: "y"]) == [300: "x", 1: "y"])
    }

    // MARK: Unkeyed containers

    struct UnkeyedProbe: Decodable {
        var steps: [String] = []
        var endError: DecodingError?

        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            func note(_ s: String) { steps.append("\(s) @\(c.currentIndex) end=\(c.isAtEnd)") }
            note("count=\(c.count.map(String.init) ?? "nil")")
            note("int \(try c.decode(Int.self))")
            note("nil \(try c.decodeNil())")
            note("nil \(try c.decodeNil())")
            note("string \(try c.decode(String.self))")
            do {
                _ = try c.decode(Int.self)
            } catch let error as DecodingError {
                endError = error
            }
        }
    }

    @Test func unkeyedContainerCounters() throws {
        let probe = try decode(UnkeyedProbe.self, [1, .nil, "x"])
        #expect(
            probe.steps == [
                "count=3 @0 end=false",
                "int 1 @1 end=false",
                "nil true @2 end=false",
                "nil false @2 end=false",
                "string x @3 end=true",
            ])
        guard case .valueNotFound(_, let context) = probe.endError else {
            Issue.record("decoding past the end: \(String(describing: probe.endError))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 3"])
    }

    struct Counted: Decodable {
        var count: Int?
        var values: [Int64] = []
        init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            count = c.count
            while !c.isAtEnd { values.append(try c.decode(Int64.self)) }
        }
    }

    @Test func packedArrayReadAsUnkeyedContainer() throws {
        let counted = try decode(Counted.self, .packed(.int32([1, -2])))
        #expect(counted.count == 2)
        #expect(counted.values == [1, -2])
    }

    @Test func nestedContainers() throws {
        let tree = NestedManual.tree(x: 1, flag: true, y: "v", small: 2, after: 3)
        #expect(try decode(NestedManual.self, tree) == NestedManual(x: 1, flag: true, y: "v", small: 2, after: 3))
    }

    // MARK: Super decoders

    struct SuperForKey: Decodable {
        var parent: Int
        var own: String
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            own = try c.decode(String.self, forKey: "own")
            let sup = try c.superDecoder(forKey: "parent")
            parent = try sup.singleValueContainer().decode(Int.self)
            Recorder.from(decoder.userInfo)?.record("superForKey", sup.codingPath)
        }
    }

    @Test func superDecoders() throws {
        let recorder = Recorder()
        let derived = try decode(Derived.self, ["b": "x", .super: ["a": 1]], recorder: recorder)
        #expect(derived == Derived(a: 1, b: "x"))
        #expect(recorder["superDecoder"] == ["super"])
        let forKey = try decode(SuperForKey.self, ["own": "o", "parent": .single(.int(9))], recorder: recorder)
        #expect(forKey.parent == 9 && forKey.own == "o")
        #expect(recorder["superForKey"] == ["parent"])
        // The super key is integer 0: a tree written with key 0 decodes too.
        #expect(try decode(Derived.self, ["b": "y", 0: ["a": 2]]) == Derived(a: 2, b: "y"))
    }

    // MARK: Dictionaries and structs

    struct ABC: Codable, Equatable {
        var a: Int
        var b: Int
        var c: Int
    }

    @Test func dictionaryTreeDecodesAsStructAndBack() throws {
        let dictionaryTree = try TreeEncoder().encodeTree(["a": 123, "b": 0, "c": -123456])
        #expect(try decode(ABC.self, dictionaryTree) == ABC(a: 123, b: 0, c: -123456))
        let structTree = try TreeEncoder().encodeTree(ABC(a: 1, b: 2, c: 3))
        #expect(try decode([String: Int].self, structTree) == ["a": 1, "b": 2, "c": 3])
        // Decimal string keys are integer keys in the tree and strings again when decoded.
        let numeric = try TreeEncoder().encodeTree(["1": 5, "x": 6])
        #expect(try decode([String: Int].self, numeric) == ["1": 5, "x": 6])
        #expect(try decode([Bool: Int].self, [true, 1, false, 0]) == [true: 1, false: 0])
    }

    // MARK: Conversions as strict as the bytes

    struct Int32Field: Decodable, Equatable { var v: Int32 }

    /// A leaf reads as another type only where both formats would read its bytes as the same
    /// value: a tree that decodes then serializes to bytes that decode to the same value.
    @Test func conversionsThatTheBytesAgreeWith() throws {
        #expect(try decode(Int32Field.self, ["v": 42]).v == 42)  // zig-zag varints both
        #expect(try decode(Int32.self, .int(-7)) == -7)
        #expect(try decode(Int.self, .int32(-7)) == -7)
        #expect(try decode(UInt64.self, .uint32(5)) == 5)
        #expect(try decode(UInt16.self, .int16(5)) == 5)  // the same two bytes
        #expect(try decode(Data.self, .packed(.uint8([1, 2]))) == Data([1, 2]))
        #expect(try decode([Int32].self, .packed(.int([1, 2]))) == [1, 2])
        #expect(try decode(Level.self, .single(.int(1))) == .low)
        #expect(try decode([Level].self, [.single(.int(1)), 2]) == [.low, .high])  // inside a container
    }

    @Test(arguments: [
        ("UInt32 from a zig-zag Int", BinaryValue.int(5)),
        ("Int from a UInt8 byte", .uint8(200)),
        ("UInt16 from eight fixed bytes", .int64(5, .fixed)),
        ("Int16 from -1 as a UInt16", .uint16(.max)),
        ("Float from a Double", .double(1.5)),
        ("Double from a Float", .float(0.25)),
        ("Double from an Int", .int(3)),
        ("[Int32] from an unkeyed container", [1, 2] as BinaryValue),
        ("[UInt8] from packed Ints", .packed(.int([1, 255]))),
        ("Int in a single-value mark", .single(.int(5))),
        ("Int in an optional mark", .optional(.int(5))),
        ("Int? without its optional mark", .int(5)),
        ("an enum at the top level without its mark", .int(2)),
    ])
    func conversionsTheBytesDisagreeWithAreRefused(_ name: String, _ tree: BinaryValue) {
        let error: DecodingError?
        switch name {
        case "UInt32 from a zig-zag Int": error = failure(UInt32.self, tree)
        case "UInt16 from eight fixed bytes": error = failure(UInt16.self, tree)
        case "Int16 from -1 as a UInt16": error = failure(Int16.self, tree)
        case "Float from a Double": error = failure(Float.self, tree)
        case "Double from a Float", "Double from an Int": error = failure(Double.self, tree)
        case "[Int32] from an unkeyed container": error = failure([Int32].self, tree)
        case "[UInt8] from packed Ints": error = failure([UInt8].self, tree)
        case "Int? without its optional mark": error = failure(Int?.self, tree)
        case "an enum at the top level without its mark": error = failure(Level.self, tree)
        default: error = failure(Int.self, tree)
        }
        guard case .typeMismatch = error else {
            Issue.record("\(name): expected typeMismatch, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [
        ("Int8 from 300", BinaryValue.int(300)),
        ("UInt from -1", .int(-1)),
        ("Int32 from Int.max", .int(.max)),
        ("Float from 0.1", .double(0.1)),
        ("Int from a String", .string("1")),
        ("Int from a Bool", .bool(true)),
        ("[UInt8] from [300]", .packed(.int([1, 300]))),
        ("struct from an Int", .int(1)),
        ("[Int] from a keyed container", ["a": 1] as BinaryValue),
    ])
    func conversionsThatDoNotFitAreTypeMismatches(_ name: String, _ tree: BinaryValue) throws {
        let error: DecodingError?
        switch name {
        case "Int8 from 300": error = failure(Int8.self, tree)
        case "UInt from -1": error = failure(UInt.self, tree)
        case "Int32 from Int.max": error = failure(Int32.self, tree)
        case "Float from 0.1": error = failure(Float.self, tree)
        case "[UInt8] from [300]": error = failure([UInt8].self, tree)
        case "struct from an Int": error = failure(ABC.self, tree)
        case "[Int] from a keyed container": error = failure([Int].self, tree)
        default: error = failure(Int.self, tree)
        }
        guard case .typeMismatch = error else {
            Issue.record("\(name): expected typeMismatch, got \(String(describing: error))")
            return
        }
    }

    @Test func optionals() throws {
        #expect(try decode(Int?.self, .nil) == nil)
        #expect(try decode(Int?.self, .optional(nil)) == nil)
        #expect(try decode(Int?.self, .optional(.int(5))) == 5)
        #expect(try decode(Int??.self, .optional(.optional(nil))) == .some(nil))
        #expect(try decode(Int??.self, .optional(nil)) == .none)
        #expect(try decode([Int?].self, [.optional(1), .nil, .optional(nil)]) == [1, nil, nil])
        guard case .valueNotFound = failure(Int.self, .nil) else {
            Issue.record("nil for an Int is valueNotFound")
            return
        }
    }

    // MARK: Errors and paths

    struct V: Decodable { var v: Int }
    struct Holder: Decodable { var list: [V] }

    @Test func errorsCarryCodingPathsWithIndices() throws {
        let mismatch = failure(Holder.self, ["list": [["v": 1], ["v": "bad"]]])
        guard case .typeMismatch(_, let context) = mismatch else {
            Issue.record("expected typeMismatch, got \(String(describing: mismatch))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1", "v"])
        #expect(context.codingPath[1].intValue == 1)
        #expect(context.underlyingError == nil)

        let notFound = failure(Holder.self, ["list": [["v": 1], .nil]])
        guard case .valueNotFound(_, let nilContext) = notFound else {
            Issue.record("expected valueNotFound, got \(String(describing: notFound))")
            return
        }
        #expect(nilContext.codingPath.map(\.stringValue) == ["list", "Index 1"])

        let missing = failure(Holder.self, ["list": [[:]]])
        guard case .keyNotFound(let key, let keyContext) = missing else {
            Issue.record("expected keyNotFound, got \(String(describing: missing))")
            return
        }
        #expect(key.stringValue == "v")
        #expect(keyContext.codingPath.map(\.stringValue) == ["list", "Index 0"])
    }

    struct PathProbe: Decodable {
        init(from decoder: any Decoder) throws {
            Recorder.from(decoder.userInfo)?.record("probe", decoder.codingPath)
            _ = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    struct PathOuter: Decodable {
        var items: [PathProbe]
        var nested: [String: [PathProbe]]
    }

    @Test func userInfoAndCodingPathReachNestedInitFrom() throws {
        let recorder = Recorder()
        _ = try decode(PathOuter.self, ["items": [], "nested": ["k": [1, 2]]], recorder: recorder)
        #expect(recorder["probe"] == ["nested", "k", "Index 1"])
    }

    final class Chain: Decodable { let next: Chain? }

    @Test func maximumDepth() throws {
        var tree: BinaryValue = .emptyKeyed
        for _ in 0..<20 { tree = ["next": tree] }
        var decoder = TreeDecoder()
        decoder.maximumDepth = 10
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Chain.self, fromTree: tree) }
        guard case .dataCorrupted = error else {
            Issue.record("expected dataCorrupted, got \(String(describing: error))")
            return
        }
        decoder.maximumDepth = 30
        #expect(throws: Never.self) { try decoder.decode(Chain.self, fromTree: tree) }
    }

    // MARK: Round trips through the tree

    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case rect(Int, Int)
        case empty
    }

    struct Everything: Codable, Equatable {
        var message: Message
        var shapes: [Shape]
        var level: Level?
        var color: Color
        var date: Date
        var id: UUID
        var dict: [String: [Int]]
        var byInt: [Int: Bool]
        var set: Set<String>
        var nested: [[UInt16]]
        var maybe: Int??
        var bytes: Data
    }

    @Test func encoderAndDecoderRoundTrip() throws {
        let value = Everything(
            message: Message(sender: "s", isRead: true, unreadCount: -3),
            shapes: [.circle(radius: 1), .rect(2, -3), .empty], level: .high, color: .green,
            date: Date(timeIntervalSinceReferenceDate: 12.5), id: UUID(), dict: ["a": [1], "b": []],
            byInt: [1: true, -5: false], set: ["x", "y"], nested: [[1, 2], []], maybe: .some(.some(4)),
            bytes: Data([0, 255]))
        for sorted in [false, true] {
            var encoder = TreeEncoder()
            encoder.sortKeysDuringEncoding = sorted
            let tree = try encoder.encodeTree(value)
            #expect(try TreeDecoder().decode(Everything.self, fromTree: tree) == value)
        }
        let derived = Derived(a: 4, b: "four")
        #expect(try TreeDecoder().decode(Derived.self, fromTree: TreeEncoder().encodeTree(derived)) == derived)
    }
}
