// Record files: append throughput and the cost of opening a large file for append.
//
//     swift run -c release --package-path Benchmarks FileAppend [append|open|all]
//
// `append` writes 100-byte and 10 KB elements one `write` at a time, with BinaryFileEncoder and
// with what BinaryFileEncoder did before issue 31 (a stream-encoded element written through a
// FileHandle at the end it found when opened), and with BinaryFileEncoder in batches of 100
// (`write(contentsOf:)`), and prints elements per second (best of three).
// `open` builds 1 GB files (v3 of 100-byte and of 10 KB elements, v2 of 10 KB elements) and of
// 100 MB (v2 of 100-byte elements), and times opening each for append, file in the page cache.
import BinarySerialization
import Foundation

struct Entry: Codable {
    var id: Int
    var payload: [UInt8]
}

func now() -> Double { Date().timeIntervalSince1970 }

func scratchFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("treecodable-fileappend-\(name)-\(getpid()).bin")
}

/// An element whose framed encoding is about `size` bytes.
func entry(_ id: Int, size: Int) -> Entry {
    Entry(id: id, payload: [UInt8](repeating: UInt8(truncatingIfNeeded: id), count: max(0, size - 8)))
}

/// Seconds to append `count` elements with `write`, best of three runs on a fresh file.
func bestOfThree(_ count: Int, size: Int, _ run: (URL, [Entry]) throws -> Void) rethrows -> Double {
    let elements = (0..<count).map { entry($0, size: size) }
    var best = Double.infinity
    for _ in 0..<3 {
        let url = scratchFile("append")
        defer { try? FileManager.default.removeItem(at: url) }
        let start = now()
        try run(url, elements)
        best = min(best, now() - start)
    }
    return best
}

func appendBenchmark() throws {
    print(
        "| element | format | before (FileHandle) el/s | after (BinaryFileEncoder) el/s | after ÷ before | after, batches of 100 el/s |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for (size, count) in [(100, 200_000), (10_000, 10_000)] {
        for format in [BinaryFormat.v3, .v2] {
            let encoder = BinaryEncoder(format: format)
            let before = try bestOfThree(count, size: size) { url, elements in
                // BinaryFileEncoder before issue 31, step for step.
                let stream = BinaryStreamEncoder<Entry>(encoder: encoder)
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
                let handle = try FileHandle(forWritingTo: url)
                try handle.seekToEnd()
                for element in elements { try handle.write(contentsOf: stream.encode(element)) }
                try handle.close()
            }
            let after = try bestOfThree(count, size: size) { url, elements in
                let writer = try BinaryFileEncoder<Entry>(fileAt: url, encoder: encoder)
                for element in elements { try writer.write(element) }
                // Dropped without close(): neither variant syncs, so both measure the writes alone.
                _ = writer
            }
            let batched = try bestOfThree(count, size: size) { url, elements in
                let writer = try BinaryFileEncoder<Entry>(fileAt: url, encoder: encoder)
                var start = 0
                while start < elements.count {
                    try writer.write(contentsOf: elements[start..<min(start + 100, elements.count)])
                    start += 100
                }
                _ = writer
            }
            let b = Double(count) / before
            let a = Double(count) / after
            print(
                "| \(size == 100 ? "100 B" : "10 KB") | \(format == .v3 ? "v3" : "v2") | \(Int(b)) | \(Int(a)) | "
                    + String(format: "%.2f", a / b) + " | \(Int(Double(count) / batched)) |")
        }
    }
}

/// Writes `bytes` copies of the framed element until the file holds about `total` bytes.
func buildFile(_ url: URL, element: Data, total: Int) throws {
    var block = Data()
    while block.count < 4 << 20 { block.append(element) }
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    var written = 0
    while written < total {
        try handle.write(contentsOf: block)
        written += block.count
    }
    try handle.close()
}

func openBenchmark() throws {
    print("| file | elements | open for append (s) | MB/s |")
    print("|---|---:|---:|---:|")
    let cases: [(String, BinaryFormat, Int, Int)] = [
        ("1 GB v3, 100 B elements", .v3, 100, 1 << 30),
        ("1 GB v3, 10 KB elements", .v3, 10_000, 1 << 30),
        ("1 GB v2, 10 KB elements", .v2, 10_000, 1 << 30),
        ("100 MB v2, 100 B elements", .v2, 100, 100 << 20),
    ]
    for (name, format, size, total) in cases {
        let url = scratchFile("open")
        defer { try? FileManager.default.removeItem(at: url) }
        let element = try BinaryStreamEncoder<Entry>(encoder: BinaryEncoder(format: format)).encode(
            entry(1, size: size))
        try buildFile(url, element: element, total: total)
        let bytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        // Read once so that the file is in the page cache, as it is right after it was written.
        _ = try BinaryFileEncoder<Entry>(fileAt: url, encoder: BinaryEncoder(format: format))
        let start = now()
        let writer = try BinaryFileEncoder<Entry>(fileAt: url, encoder: BinaryEncoder(format: format))
        let seconds = now() - start
        _ = writer
        print(
            "| \(name) | \(bytes / element.count) | " + String(format: "%.3f", seconds) + " | "
                + String(format: "%.0f", Double(bytes) / seconds / 1e6) + " |")
    }
}

let mode = CommandLine.arguments.dropFirst().first ?? "all"
do {
    if mode == "append" || mode == "all" { try appendBenchmark() }
    if mode == "open" || mode == "all" { try openBenchmark() }
} catch {
    print("FileAppend: \(error)")
    exit(1)
}
