// Memory a thread keeps after coding a big or deep value: heap in use (glibc's mallinfo2) on the
// thread after the value, its bytes and its results are gone, against before.
import BenchSupport
import BinarySerialization
import Foundation
import HeapInUse

#if canImport(Glibc)
import Glibc
#endif

enum RetainedMemory {
    static func heapInUse() -> Int { Int(heap_in_use()) }

    /// A value to encode, then decode, on one thread.
    struct Case {
        var name: String
        var run: (BinaryEncoder, BinaryDecoder) throws -> (size: Int, encoding: Int, decoding: Int)

        init<T: Codable>(_ name: String, _ make: @escaping () -> T, tree: Bool = false) {
            self.name = name
            run = { encoder, decoder in
                let value = make()
                let beforeEncoding = heapInUse()
                let data = try encoder.encode(value)
                // The bytes themselves are the caller's; what else stays is the encoder's.
                let encoding = heapInUse() - beforeEncoding - data.count
                let beforeDecoding = heapInUse()
                if tree {
                    blackHole(try decoder.decodeTree(T.self, from: data))
                } else {
                    blackHole(try decoder.decode(T.self, from: data))
                }
                return (data.count, encoding, heapInUse() - beforeDecoding)
            }
        }
    }

    static func run() {
        print("| format | value | bytes | kept after encoding | kept after decoding |")
        print("|---|---|--:|--:|--:|")
        let cases = [
            Case("depth 10,000", { Generate.chain(depth: 10_000) }),
            Case("depth 500, decodeTree", { Values.deepExpr(depth: 500) }, tree: true),
            Case("1.5M records", { Generate.records(count: 1_500_000) }),
            Case("[String: Int], 4M entries", { Inventory(counts: Generate.dictionary(count: 4_000_000)) }),
        ]
        for format in [BinaryFormat.v3, .v2] {
            var encoder = BinaryEncoder(format: format)
            encoder.maximumDepth = 100_000
            var decoder = BinaryDecoder(format: format)
            decoder.limits.maximumDepth = 100_000
            for c in cases {
                onBigStack {
                    do {
                        let small = try encoder.encode(Generate.messageIntKeys())
                        blackHole(try decoder.decode(MessageIntKeys.self, from: small))
                        let (size, encoding, decoding) = try c.run(encoder, decoder)
                        print(
                            "| \(format) | \(c.name) | \(String(format: "%.1f MB", Double(size) / 1e6)) | "
                                + "\(kilobytes(encoding)) | \(kilobytes(decoding)) |")
                    } catch {
                        fail("\(c.name): \(error)")
                    }
                }
            }
        }
    }

    static func kilobytes(_ bytes: Int) -> String { String(format: "%.1f KB", Double(bytes) / 1e3) }
}
