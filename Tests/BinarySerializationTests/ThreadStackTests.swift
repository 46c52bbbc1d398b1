import Foundation
import Testing

@testable import BinarySerialization

/// Reading deep input on a thread whose stack holds fewer levels than the limits allow: an error
/// that names the stack, never a crash. Every reader that recurses per level of its input is
/// tried (decode, decodeTree, decodeRaw, explain in v3, v2 and protobuf) on small stacks, with
/// inputs far deeper than any stack here holds, and with BinaryCodable's own depth (512 levels,
/// the default limit) on 256 KiB. Not under AddressSanitizer's use-after-return detection (CI's
/// ASan step), whose heap frames for locals leave the stack's bounds unchecked.
@Suite(.enabled(if: threadStackBoundsAreChecked())) struct ThreadStackTests {
    indirect enum Deep: Codable, Equatable {
        case leaf
        case node(Deep)
    }

    /// A protobuf message that holds itself in field 1.
    struct Message: Codable, Equatable {
        var inner: [Message]
        enum CodingKeys: Int, CodingKey { case inner = 1 }
    }

    /// The bytes of `Deep` nested `levels` times in `format`, written without the encoder (whose
    /// own recursion is not under test): `node` is a keyed container holding the case's payload
    /// container `_0`, each a key and a length-prefixed element. v3: `09 "node" L1 05 "_0" L2`
    /// with lengths doubled; v2: `4a "node" L1 2a "_0" L2`.
    static func deep(_ levels: Int, _ format: BinaryFormat) -> [UInt8] {
        let leaf: [UInt8] = [format == .v3 ? 0x09 : 0x4a, 0x6c, 0x65, 0x61, 0x66, 0x00]
        let node: [UInt8] = [format == .v3 ? 0x09 : 0x4a, 0x6e, 0x6f, 0x64, 0x65]
        let payload: [UInt8] = [format == .v3 ? 0x05 : 0x2a, 0x5f, 0x30]
        let lengthField: (Int) -> Int = { format == .v3 ? $0 << 1 : $0 }
        // Lengths from the inside out, then the bytes from the outside in.
        var lengths: [(outer: Int, inner: Int)] = []
        var content = leaf.count
        for _ in 0..<levels {
            let inner = content
            let outer = payload.count + varint(lengthField(inner)).count + inner
            lengths.append((outer, inner))
            content = node.count + varint(lengthField(outer)).count + outer
        }
        var out: [UInt8] = []
        out.reserveCapacity(content)
        for (outer, inner) in lengths.reversed() {
            out += node + varint(lengthField(outer)) + payload + varint(lengthField(inner))
        }
        return out + leaf
    }

    /// `Message` nested `levels` times: field 1 (tag `0a`) holding the next message.
    static func nestedMessage(_ levels: Int) -> [UInt8] {
        var lengths: [Int] = []
        var content = 0
        for _ in 0..<levels {
            lengths.append(content)
            content += 1 + varint(content).count
        }
        var out: [UInt8] = []
        out.reserveCapacity(content)
        for length in lengths.reversed() { out += [0x0a] + varint(length) }
        return out
    }

    static func varint(_ value: Int) -> [UInt8] {
        var v = UInt(value)
        var out: [UInt8] = []
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        return out + [UInt8(v)]
    }

    /// "ok" if `body` returns, else its error's debug description.
    static func outcome(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "ok"
        } catch let DecodingError.dataCorrupted(context) {
            return context.debugDescription
        } catch {
            return "\(error)"
        }
    }

    /// What each reader gives for `bytes`.
    static func outcomes(_ bytes: [UInt8], _ format: BinaryFormat, maximumDepth: Int) -> [String: String] {
        let data = Data(bytes)
        var decoder = BinaryDecoder(format: format)
        decoder.limits.maximumDepth = maximumDepth
        return [
            "decode": outcome { _ = try decoder.decode(Deep.self, from: data) },
            "decodeTree": outcome { _ = try decoder.decodeTree(Deep.self, from: data) },
            "decodeRaw": outcome { _ = try decoder.decodeRaw(from: data) },
            "explain": outcome { _ = try decoder.explain(data) },
        ]
    }

    static func protobufOutcomes(_ bytes: [UInt8], maximumDepth: Int) -> [String: String] {
        let data = Data(bytes)
        var decoder = ProtobufDecoder()
        decoder.maximumDepth = maximumDepth
        return [
            "decode": outcome { _ = try decoder.decode(Message.self, from: data) },
            "decodeTree": outcome { _ = try decoder.decodeTree(Message.self, from: data) },
            "decodeRaw": outcome { _ = try decoder.decodeRaw(from: data) },
            "explain": outcome { _ = try decoder.explain(data) },
        ]
    }

    /// `body`'s result, run on a new thread with a stack of `bytes` (the system may give a
    /// cached stack up to a few times larger).
    static func onThread<R: Sendable>(stack bytes: Int, _ body: @escaping @Sendable () -> R) -> R? {
        let result = Locked<R?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.mutate { $0 = body() }
            done.signal()
        }
        thread.stackSize = bytes
        thread.start()
        done.wait()
        return result.value
    }

    static let stackError = "nested deeper than this thread's stack holds"

    /// 200,000 levels with the depth limit out of the way: no stack here holds them, so each
    /// reader must stop at the stack, on small threads and on the test's own.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func inputDeeperThanAnyStack(_ format: BinaryFormat) throws {
        let bytes = Self.deep(200_000, format)
        for stack in [256 << 10, 1 << 20] {
            let found = Self.onThread(stack: stack) { Self.outcomes(bytes, format, maximumDepth: Int.max) } ?? [:]
            #expect(found.count == 4)
            for (reader, text) in found { #expect(text.contains(Self.stackError), "\(reader) on \(stack): \(text)") }
        }
        for (reader, text) in Self.outcomes(bytes, format, maximumDepth: Int.max) {
            #expect(text.contains(Self.stackError), "\(reader): \(text)")
        }
    }

    @Test func protobufInputDeeperThanAnyStack() throws {
        let bytes = Self.nestedMessage(200_000)
        for stack in [256 << 10, 1 << 20] {
            let found = Self.onThread(stack: stack) { Self.protobufOutcomes(bytes, maximumDepth: Int.max) } ?? [:]
            #expect(found.count == 4)
            for (reader, text) in found { #expect(text.contains(Self.stackError), "\(reader) on \(stack): \(text)") }
        }
    }

    /// The default limit on 256 KiB: each reader gives the value or the stack's error, and a
    /// shallow input reads whole.
    @Test(arguments: [BinaryFormat.v3, .v2])
    func defaultDepthOnASmallStack(_ format: BinaryFormat) throws {
        let deep = Self.deep(512, format)
        let shallow = Self.deep(8, format)
        let found = Self.onThread(stack: 256 << 10) {
            (Self.outcomes(deep, format, maximumDepth: 512), Self.outcomes(shallow, format, maximumDepth: 512))
        }
        let (deepOutcomes, shallowOutcomes) = try #require(found)
        #expect(deepOutcomes.count == 4)
        for (reader, text) in deepOutcomes {
            #expect(text == "ok" || text.contains(Self.stackError), "\(reader): \(text)")
        }
        #expect(shallowOutcomes == ["decode": "ok", "decodeTree": "ok", "decodeRaw": "ok", "explain": "ok"])
        // What was read is BinaryCodable's value: the bytes written here are the encoder's.
        var value = Deep.leaf
        for _ in 0..<8 { value = .node(value) }
        #expect(try BinaryEncoder(format: format).encode(value) == Data(shallow))
    }

    /// The error names where it stopped: a coding path as deep as the levels read, and an offset.
    @Test func theErrorsText() throws {
        let bytes = Self.deep(200_000, .v3)
        let text = Self.onThread(stack: 256 << 10) { () -> String in
            var decoder = BinaryDecoder()
            decoder.limits.maximumDepth = Int.max
            do {
                _ = try decoder.decode(Deep.self, from: Data(bytes))
                return "decoded"
            } catch let DecodingError.dataCorrupted(context) {
                let path = context.codingPath.map(\.stringValue)
                let levels = path.count / 2
                let expectedPath = Array(repeating: ["node", "_0"], count: levels).flatMap { $0 }
                guard path == expectedPath, levels > 8 else { return "path: \(path.prefix(6))... (\(path.count))" }
                return context.debugDescription + " | \(context.underlyingError.map { "\($0)" } ?? "")"
            } catch {
                return "\(error)"
            }
        }
        let found = try #require(text)
        #expect(found.hasPrefix("the data is nested deeper than this thread's stack holds ("), "\(found)")
        #expect(
            found.hasSuffix(
                " levels in): read it on a thread with a larger stack, or with a lower maximumDepth"
                    + " | WireFormatError.limitExceeded at byte offset \(Self.offsetOf(found, bytes))"),
            "\(found)")
    }

    /// The byte offset of the level the error text says it stopped at (`(N levels in)`): the
    /// start of that level's `node` element, 16 bytes per level at this depth.
    static func offsetOf(_ text: String, _ bytes: [UInt8]) -> Int {
        guard let open = text.firstIndex(of: "("), let space = text[open...].firstIndex(of: " "),
            let levels = Int(text[text.index(after: open)..<space])
        else { return -1 }
        // Each level is `node`, a 4-byte length, `_0` and a 4-byte length: 16 bytes while more than
        // 65,536 levels are inside (a doubled length from 2^21 up takes 4 bytes), as here.
        return levels * 16
    }
}

/// Whether a new thread's stack bounds are known and a local lies within them.
func threadStackBoundsAreChecked() -> Bool {
    ThreadStackTests.onThread(stack: 1 << 20) { ThreadStack.current().isKnown } ?? false
}
