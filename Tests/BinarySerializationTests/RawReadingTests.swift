import BinarySerialization
import Foundation
import Testing

/// Reading bytes without a type: every vector and every mutation of one reads back to exactly
/// its bytes, detection names the format a vector was written in, and hostile input throws a
/// `DecodingError` or gives a tree, never traps or hangs.
@Suite struct RawReadingTests {
    static func vectors(_ format: BinaryFormat) -> [Vector] { format == .v3 ? Fixtures.v3 : Fixtures.v2 }

    /// Reads `input` raw: the tree must serialize to exactly `input`, or the read must throw a
    /// `DecodingError`. Returns the tree.
    @discardableResult
    static func expectLossless(
        _ input: [UInt8], _ format: BinaryFormat, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> RawNode? {
        do {
            let raw = try BinaryDecoder(format: format).decodeRaw(from: input)
            if Array(raw.serialized()) != input {
                Issue.record(
                    "\(format) \(label): raw tree does not serialize back to \(spacedHex(input.prefix(64)))",
                    sourceLocation: sourceLocation)
            }
            #expect(
                raw.offset == 0 && raw.byteCount == input.count, "\(format) \(label)", sourceLocation: sourceLocation)
            return raw
        } catch is DecodingError {
            return nil
        } catch {
            Issue.record("\(format) \(label): threw \(error), not a DecodingError", sourceLocation: sourceLocation)
            return nil
        }
    }

    // MARK: - Lossless

    @Test(arguments: [BinaryFormat.v3, .v2])
    func everyVectorReadsBackLosslessly(_ format: BinaryFormat) throws {
        let vectors = Self.vectors(format)
        #expect(vectors.count > 150)
        for v in vectors {
            let raw = try BinaryDecoder(format: format).decodeRaw(from: Data(v.bytes))
            #expect(Array(raw.serialized()) == v.bytes, "\(format) \(v.name)")
            // The dump covers the input too, and never throws where the raw read did not.
            #expect(!(try BinaryDecoder(format: format).explain(Data(v.bytes))).isEmpty)
        }
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func mutatedVectorsReadBackLosslessly(_ format: BinaryFormat) {
        var rng = SplitMix64(seed: 0x5EED_0000_0000_0003 &+ (format == .v3 ? 0 : 1))
        for v in Self.vectors(format) where !v.bytes.isEmpty {
            for round in 0..<12 {
                var b = v.bytes
                switch round % 4 {
                case 0: b[Int.random(in: 0..<b.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                case 1: b.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...b.count, using: &rng))
                case 2: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
                default: b = Array(b.prefix(Int.random(in: 0..<b.count, using: &rng)))
                }
                Self.expectLossless(b, format, "\(v.name) mutation \(round)")
            }
        }
    }

    /// A hand-built tree serializes with each format's framing.
    @Test func handBuiltTreesSerialize() {
        let leaf = { (bytes: [UInt8]) in
            RawNode(offset: 0, byteCount: bytes.count, content: .bytes(bytes, readings: []))
        }
        let v3 = RawNode(
            offset: 0, byteCount: 0,
            content: .keyed([
                RawField(keyOffset: 0, key: .string("a"), value: leaf([0x02])),
                RawField(keyOffset: 0, key: .int(3), value: nil),
            ]))
        #expect(Array(v3.serialized()) == bytes("03 61 02 02  06 01"))
        let v2 = RawNode(
            offset: 0, byteCount: 0,
            content: .keyed([
                RawField(keyOffset: 0, key: .string("a"), wireType: 0, value: leaf([0x02])),
                RawField(keyOffset: 0, key: .int(1), wireType: 2, value: leaf([0x62])),
            ]))
        #expect(Array(v2.serialized()) == bytes("18 61 02  12 01 62"))
        let list = RawNode(offset: 0, byteCount: 0, content: .unkeyed([leaf([]), nil, leaf([0x41, 0x42])]))
        #expect(Array(list.serialized()) == bytes("00 01 04 41 42"))
    }

    // MARK: - Shapes

    @Test func v3ShapesAndReadings() throws {
        let decoder = BinaryDecoder(format: .v3)
        // SMessage: three readable string keys.
        let message = try decoder.decodeRaw(
            from: bytes("0d 69735265616402 01  0d 73656e646572 0a 416c696365  17 756e72656164436f756e74 02 54"))
        guard case .keyed(let fields) = message.content else {
            Issue.record("not keyed: \(message)")
            return
        }
        #expect(fields.map(\.key) == [.string("isRead"), .string("sender"), .string("unreadCount")])
        #expect(fields.map(\.keyOffset) == [0, 9, 0x16])
        #expect(fields[1].value?.offset == 0x11)
        if case .bytes(let b, let readings) = fields[1].value?.content {
            #expect(b == Array("Alice".utf8))
            #expect(readings.first == .text("Alice"))
        } else {
            Issue.record("sender is not bytes")
        }
        if case .bytes(_, let readings) = fields[2].value?.content {
            #expect(readings.first == .varint(84))
            #expect(RawReading.zigZagged(84) == 42)
        }
        // [[Int]]: int keys out of order, so the unkeyed framing wins and the keyed one is kept.
        let matrix = try decoder.decodeRaw(from: bytes("04 0204  00  02 05"))
        #expect(matrix.shape == .unkeyed(elementCount: 3))
        #expect(matrix.alternatives == [.keyed(fieldCount: 2)])
        // Floats are big-endian.
        let one = try decoder.decodeRaw(from: bytes("3f f0 00 00 00 00 00 00"))
        if case .bytes(_, let readings) = one.content { #expect(readings.first == .double(1.0)) }
        // A nil element in an unkeyed container.
        let mix = try decoder.decodeRaw(from: bytes("02 00  01  0a 48656c6c6f  00"))
        if case .unkeyed(let elements) = mix.content {
            #expect(elements.count == 4)
            #expect(elements[1] == nil)
        } else {
            Issue.record("UnkeyedMix is not unkeyed")
        }
    }

    @Test func v2ShapesFollowWireTypes() throws {
        let raw = try BinaryDecoder(format: .v2).decodeRaw(
            from: bytes(
                """
                1a 62  04 66697665   // "b", length-delimited: "five"
                02  03  18 61 0a     // key 0 (super), length 3: { "a": 5 }
                """))
        guard case .keyed(let fields) = raw.content else {
            Issue.record("not keyed")
            return
        }
        #expect(fields.map(\.wireType) == [2, 2])
        #expect(fields[1].value?.shape == .keyed(fieldCount: 1))
        if case .keyed(let inner) = fields[1].value?.content, case .bytes(_, let readings) = inner.first?.value?.content
        {
            #expect(inner.first?.wireType == 0)
            #expect(readings == [.varint(10)])
        } else {
            Issue.record("super is not keyed")
        }
    }

    // MARK: - Detection

    @Test(arguments: [BinaryFormat.v3, .v2])
    func detectionNamesTheWritingFormat(_ format: BinaryFormat) throws {
        var firstWhereStructured = 0
        for v in Self.vectors(format) {
            let answer = BinaryFormat.plausibleFormats(for: Data(v.bytes))
            #expect(answer.contains(format), "\(format) \(v.name): \(answer)")
            // Unambiguous: a keyed container with readable string keys in this format.
            let raw = try BinaryDecoder(format: format).decodeRaw(from: v.bytes)
            if case .keyed(let fields) = raw.content,
                fields.contains(where: { if case .string = $0.key { true } else { false } })
            {
                #expect(answer.first == format, "\(format) \(v.name): \(answer)")
                firstWhereStructured += 1
            }
        }
        #expect(firstWhereStructured >= 15)
    }

    @Test func detectionExamples() {
        // SMessage in v3 and in v2.
        #expect(
            BinaryFormat.plausibleFormats(for: Data(bytes("0d 69735265616402 01  0d 73656e646572 0a 416c696365"))) == [
                .v3, .v2,
            ])
        #expect(
            BinaryFormat.plausibleFormats(for: Data(bytes("68 697352656164 01  6a 73656e646572 05 416c696365"))) == [
                .v2, .v3,
            ])
        // A lone primitive reads the same in both.
        #expect(BinaryFormat.plausibleFormats(for: Data([0x54])) == [.v3, .v2])
        #expect(BinaryFormat.plausibleFormats(for: Data()) == [.v3, .v2])
    }

    // MARK: - Hostile input

    @Test(arguments: [BinaryFormat.v3, .v2])
    func hugeLengthPrefixesGiveBytes(_ format: BinaryFormat) throws {
        for input in [
            bytes("ff ff ff ff ff ff ff ff ff 01"),  // a 9-byte varint, then one byte
            bytes("0d 73656e646572  ff ff ff ff ff ff ff ff ff"),  // key, then a length of 2^63 - 1
            bytes("0a 41"),  // length 5, one byte left (truncated)
            bytes("ff"), bytes("80 80"),  // varints that never end
            bytes("82 00"),  // an over-long varint
        ] {
            let raw = Self.expectLossless(input, format, spacedHex(input))
            #expect(raw?.shape == .bytes, "\(format) \(spacedHex(input))")
            _ = try BinaryDecoder(format: format).explain(Data(input))
        }
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func everyTruncationReadsBackLosslessly(_ format: BinaryFormat) {
        for v in Self.vectors(format) where v.bytes.count < 200 {
            for n in 0..<v.bytes.count {
                Self.expectLossless(Array(v.bytes.prefix(n)), format, "\(v.name) cut at \(n)")
            }
        }
    }

    /// On a 64 MiB stack: the reader may frame 2,048 nested containers (4 × the default depth),
    /// which a debug build under AddressSanitizer, where the stack guard is off, does not fit in
    /// a test thread's 8 MiB.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func deepNestingThrowsOrStaysFlat(_ format: BinaryFormat) {
        DepthRuleTests.onLargeStack {
            let inputs: [(String, [UInt8])] = [
                ("Deep × 100,000", HostileInputTests.deepBytes(depth: 100_000, format)),
                ("Nest × 100,000", HostileInputTests.nestBytes(depth: 100_000, format)),
                ("02 × 100,000", [UInt8](repeating: 0x02, count: 100_000)),
                ("01 × 100,001", [UInt8](repeating: 0x01, count: 100_001)),
            ]
            var failures: [String] = []
            for (label, input) in inputs {
                let decoder = BinaryDecoder(format: format)
                do {
                    let raw = try decoder.decodeRaw(from: input)
                    if Array(raw.serialized()) != input { failures.append("\(format) \(label): other bytes back") }
                } catch let DecodingError.dataCorrupted(context) {
                    if (context.underlyingError as? WireFormatError)?.code != .limitExceeded {
                        failures.append("\(format) \(label): \(context)")
                    }
                } catch {
                    failures.append("\(format) \(label): threw \(error)")
                }
                _ = BinaryFormat.plausibleFormats(for: Data(input))
                _ = try? decoder.explain(Data(input))
            }
            return failures
        }
    }

    /// The raw read takes the decoder's depth limit by the rule for bytes without a type: four
    /// nested containers per level. The input frames as `containers` nested containers (the
    /// innermost runs are read as bytes), which a limit of `containers / 4` rounded up reads and
    /// one level less refuses, in `decodeRaw` and `explain` alike.
    @Test func depthLimitIsTheDecoders() throws {
        func containers(_ node: RawNode?) -> Int {
            switch node?.content {
            case .keyed(let fields)?: return 1 + (fields.map { containers($0.value) }.max() ?? 0)
            case .unkeyed(let elements)?: return 1 + (elements.map { containers($0) }.max() ?? 0)
            case .bytes?, nil: return 0
            }
        }
        let input = HostileInputTests.nestBytes(depth: 40, .v3)
        var decoder = BinaryDecoder(format: .v3)
        let framed = containers(try decoder.decodeRaw(from: input))
        #expect(framed > 8)
        decoder.limits.maximumDepth = (framed + 3) / 4
        let raw = try decoder.decodeRaw(from: input)
        #expect(Array(raw.serialized()) == input)
        _ = try decoder.explain(Data(input))
        decoder.limits.maximumDepth -= 1
        #expect(throws: DecodingError.self) { try decoder.decodeRaw(from: input) }
        #expect(throws: DecodingError.self) { try decoder.explain(Data(input)) }
    }
}

/// The raw reader against the typed tree of every conformance vector: for each keyed value, the
/// raw tree finds the same top-level keys, and the share of leaves whose guessed reading matches
/// the typed leaf is reported.
@Suite struct RawAgainstTypedTests {
    static func key(_ k: RawKey) -> String {
        switch k {
        case .int(let i): return "\(i)"
        case .string(let s): return s
        }
    }

    static func typedKey(_ k: BinaryKey) -> String { k.intValue.map { "\($0)" } ?? k.stringValue }

    /// Whether one of `readings` is the typed leaf's value.
    static func matches(_ typed: BinaryValue, _ readings: [RawReading]) -> Bool {
        readings.contains { reading in
            switch (typed, reading) {
            case (.string(let s), .text(let t)): return s == t
            case (.bool(let b), .bool(let r)): return b == r
            case (.int(let v, .zigZag), .varint(let r)): return Int64(v) == RawReading.zigZagged(r)
            case (.int64(let v, .zigZag), .varint(let r)): return v == RawReading.zigZagged(r)
            case (.int32(let v, .zigZag), .varint(let r)): return Int64(v) == RawReading.zigZagged(r)
            case (.uint(let v, .varint), .varint(let r)): return UInt64(v) == r
            case (.uint64(let v, .varint), .varint(let r)): return v == r
            case (.double(let d), .double(let r)): return d.bitPattern == r.bitPattern
            case (.float(let f), .float(let r)): return f.bitPattern == r.bitPattern
            default: return false
            }
        }
    }

    @Test(arguments: [BinaryFormat.v3, .v2])
    func topLevelKeysMatchTheTypedTree(_ format: BinaryFormat) throws {
        let decoder = BinaryDecoder(format: format)
        var keyed = 0
        var leaves = 0
        var matched = 0
        for vector in (format == .v3 ? Fixtures.v3 : Fixtures.v2) where vector.roundtrip {
            guard let c = Fixtures.casesByName[vector.name],
                case .keyed(let typedFields)? = try? c.storedTree(decoder, vector.bytes),
                !typedFields.isEmpty
            else { continue }
            let raw = try decoder.decodeRaw(from: vector.bytes)
            guard case .keyed(let rawFields) = raw.content else {
                Issue.record("\(format) \(vector.name): raw reading is not keyed: \(raw.shape)")
                continue
            }
            keyed += 1
            #expect(
                Set(rawFields.map { Self.key($0.key) }) == Set(typedFields.keys.map(Self.typedKey)),
                "\(format) \(vector.name)")
            for field in typedFields {
                guard TypedLeaf.isLeaf(field.value),
                    let rawField = rawFields.first(where: { Self.key($0.key) == Self.typedKey(field.key) })
                else { continue }
                leaves += 1
                if case .bytes(_, let readings)? = rawField.value?.content, Self.matches(field.value, readings) {
                    matched += 1
                }
            }
        }
        #expect(keyed >= 30)
        print("\(format): \(keyed) keyed vectors, top-level keys equal; \(matched) of \(leaves) leaves guessed right")
    }
}

/// Leaves the comparison looks at.
enum TypedLeaf {
    static func isLeaf(_ v: BinaryValue) -> Bool {
        switch v {
        case .string, .bool, .int, .int64, .int32, .uint, .uint64, .double, .float: return true
        default: return false
        }
    }
}
