import Foundation
import Testing

@testable import BinarySerialization

/// The streaming encoder hands the standard library's box of a finished keyed container out
/// again for the next container of its key type at the same depth, from the last box there or
/// from the spares kept for other key types, unless something still holds it.
@Suite struct EncoderContainerBoxTests {
    final class Log: @unchecked Sendable {
        struct Weak { weak var box: AnyObject? }
        var boxes: [String: [Weak]] = [:]
    }

    enum KeysA: String, CodingKey { case a }
    enum KeysB: String, CodingKey { case b }
    enum KeysC: String, CodingKey { case c }

    /// `{"a": n}`, `{"b": n}` or `{"c": n}` by `n % 3`, noting its container's box (weakly):
    /// three key types taking turns at one depth, as an enum's cases do.
    struct Turn: Encodable {
        let n: Int
        let log: Log

        func encode(to encoder: any Encoder) throws {
            func write<K: CodingKey>(_ type: K.Type, _ key: K) throws {
                var c = encoder.container(keyedBy: K.self)
                try c.encode(n, forKey: key)
                // The wrapper is one reference to its box (ContainerBoxesTests checks the layout).
                log.boxes["\(K.self)", default: []].append(Log.Weak(box: unsafeBitCast(c, to: AnyObject.self)))
            }
            switch n % 3 {
            case 0: try write(KeysA.self, .a)
            case 1: try write(KeysB.self, .b)
            default: try write(KeysC.self, .c)
            }
        }
    }

    /// Reads what ``Turn`` writes.
    struct TurnValue: Decodable, Equatable {
        let n: Int
        init(n: Int) { self.n = n }
        init(from decoder: any Decoder) throws {
            if let c = try? decoder.container(keyedBy: KeysA.self), let n = try? c.decode(Int.self, forKey: .a) {
                self.n = n
            } else if let c = try? decoder.container(keyedBy: KeysB.self), let n = try? c.decode(Int.self, forKey: .b) {
                self.n = n
            } else {
                self.n = try decoder.container(keyedBy: KeysC.self).decode(Int.self, forKey: .c)
            }
        }
    }

    @Test(.enabled(if: RetentionLimits.reuses, "boxes are reused"), arguments: [BinaryFormat.v3, .v2])
    func keyTypesTakingTurnsEachReuseTheirBox(_ format: BinaryFormat) throws {
        let log = Log()
        let data = try BinaryEncoder(format: format).encode((0..<30).map { Turn(n: $0, log: log) })
        #expect(try BinaryDecoder(format: format).decode([TurnValue].self, from: data) == (0..<30).map(TurnValue.init))
        #expect(log.boxes.count == 3)
        var firsts: [ObjectIdentifier] = []
        for (type, boxes) in log.boxes {
            // The thread keeps the encoder, and the encoder its boxes, after the call.
            let first = try #require(boxes.first?.box, "\(type)")
            #expect(boxes.count == 10 && boxes.allSatisfy { $0.box === first }, "\(type)")
            firsts.append(ObjectIdentifier(first))
        }
        #expect(Set(firsts).count == 3)
    }
}
