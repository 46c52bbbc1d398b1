// Mixed: the workload of a server, not a loop. About thirty Codable types are encoded and decoded
// round-robin on the same long-lived threads, with tree operations and stream decoding in the mix,
// in both formats, and compared with each operation measured alone, the Codable floor and JSON.
//
//   swift run -c release --package-path Benchmarks Mixed [--quick] [--threads N]
//   Mixed --deep-check [--max-ratio R]   P1 decode on a thread after deep values, against before;
//                                        exit 1 if a ratio is over R (default 2): the CI guard
//   Mixed --deep-loop N                  a deep value, then N P1 decodes (for a profiler)
//   Mixed --retained                     memory a thread keeps after a deep and a 100 MB value
//   Mixed --stack-check                  a tree at the node limit written on a 512 KiB stack, values
//                                        at the default depth decoded and encoded on 1 MiB
//   Mixed --stack-depth                  the most levels decoded and encoded on 512 KiB and 2 MiB
//                                        stacks, and the bytes per level (StackCheck.swift)
//
// Prints Markdown on stdout; progress on stderr.
import BenchSupport
import BinarySerialization
import Foundation

#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Mixed: \(message)\n".utf8))
    exit(1)
}

func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Runs `body(i)` for `i` in `0..<count`, each on its own thread, all at once; waits for all.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        Thread.detachNewThread {
            body(i)
            group.leave()
        }
    }
    group.wait()
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

// MARK: - Arguments

var quick = false
var deepCheck = false
var retained = false
var maxRatio = 2.0
var threadCounts: [Int]?
do {
    var args = Array(CommandLine.arguments.dropFirst())
    while !args.isEmpty {
        switch args.removeFirst() {
        case "--quick": quick = true
        case "--deep-check": deepCheck = true
        case "--retained": retained = true
        case "--stack-check":
            for (format, count) in StackCheck.run() {
                guard count > 0 else { fail("\(format): the tree at the node limit was not written") }
                print("\(format): a tree of \(4 * BinaryEncoder().maximumDepth) nested nodes written on a 512 KiB stack (\(count) bytes)")
            }
            let failures = StackCheck.runValues()
            guard failures.isEmpty else { fail(failures.joined(separator: "\n")) }
            exit(0)
        case "--stack-depth":
            StackCheck.measure()
            exit(0)
        case "--stack-run":
            StackCheck.runChild(args)
        case "--deep-loop":
            guard let n = args.first.flatMap(Int.init) else { fail("--deep-loop needs a count") }
            onBigStack { DeepCheck.loopAfterDeep(n) }
            exit(0)
        case "--max-ratio":
            guard let r = args.first.flatMap(Double.init), r > 0 else { fail("--max-ratio needs a positive number") }
            maxRatio = r
            args.removeFirst()
        case "--threads":
            guard let n = args.first.flatMap(Int.init), n > 0 else { fail("--threads needs a positive number") }
            threadCounts = Array(1...n)
            args.removeFirst()
        case let other: fail("unexpected argument \(other)")
        }
    }
}

if deepCheck {
    exit(DeepCheck.run(maxRatio: maxRatio) ? 0 : 1)
}
if retained {
    RetainedMemory.run()
    exit(0)
}
MixedRun.run(quick: quick, threadCounts: threadCounts ?? Array(1...ProcessInfo.processInfo.activeProcessorCount))
