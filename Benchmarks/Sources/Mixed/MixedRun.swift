// The mixed run: every operation timed one call at a time, in the mix (all operations in a
// shuffled order, round after round, on one long-lived thread) and alone (one operation in a
// loop on a fresh thread, beside the same loop on the mix's thread), then the whole mix on 1...N
// threads at once.
import BenchSupport
import Foundation

enum MixedRun {
    static func run(quick: Bool, threadCounts: [Int]) {
        let rounds = quick ? 200 : 1_500
        var operations: [Operation] = []
        onBigStack {
            do {
                operations = try Workload.operations()
            } catch {
                fail("building the workload: \(error)")
            }
        }
        progress("\(operations.count) operations, \(rounds) rounds")

        // In the mix: one thread, every round in a new order (seeded), each call timed. Then, on
        // the same thread, each operation alone in a loop, and right beside it the same loop on a
        // fresh thread (which first alternates), three times: the ratio is what the thread's
        // history costs (caches and pools that grow with it), and a drift of the machine's speed
        // moves both loops of a pair alike.
        var inMix = [[Double]](repeating: [], count: operations.count)
        var afterMix = [Double](repeating: .nan, count: operations.count)
        var alone = [Double](repeating: .nan, count: operations.count)
        onBigStack {
            var rng = SplitMix64(seed: 1)
            var order = Array(operations.indices)
            do {
                for round in 0..<(rounds + 20) {
                    order.shuffle(using: &rng)
                    for i in order {
                        let start = now()
                        try operations[i].run()
                        // The first rounds warm up.
                        if round >= 20 { inMix[i].append(Double(now() - start)) }
                    }
                }
                for (i, operation) in operations.enumerated() {
                    // Three pairs; the one with the middle ratio is kept (a jump of the machine's
                    // speed during one loop moves one pair, not the median).
                    var pairs: [(after: Double, alone: Double)] = []
                    for pass in 0..<3 {
                        let afterFirst = (i &+ pass).isMultiple(of: 2)
                        var after = Double.nan
                        if afterFirst { after = try inALoop(operation, rounds) }
                        let fresh = onFreshThread(operation, rounds)
                        if !afterFirst { after = try inALoop(operation, rounds) }
                        pairs.append((after, fresh))
                    }
                    let middle = pairs.sorted { $0.after / $0.alone < $1.after / $1.alone }[1]
                    (afterMix[i], alone[i]) = (middle.after, middle.alone)
                }
            } catch {
                fail("mix: \(error)")
            }
        }
        let mixMedians = inMix.map(median)
        report(operations, mix: mixMedians, alone: alone, afterMix: afterMix)
        scaling(operations.filter { $0.coder == "TreeCodable" }, threadCounts: threadCounts, rounds: quick ? 30 : 200)
    }

    /// ``inALoop(_:_:)`` on a thread of its own.
    static func onFreshThread(_ operation: Operation, _ rounds: Int) -> Double {
        var time = Double.nan
        onBigStack {
            do {
                time = try inALoop(operation, rounds)
            } catch {
                fail("\(operation.name) alone: \(error)")
            }
        }
        return time
    }

    /// The median of `rounds` timed calls of `operation`, after 20 untimed ones.
    static func inALoop(_ operation: Operation, _ rounds: Int) throws -> Double {
        for _ in 0..<20 { try operation.run() }
        var times: [Double] = []
        times.reserveCapacity(rounds)
        for _ in 0..<rounds {
            let start = now()
            try operation.run()
            times.append(Double(now() - start))
        }
        return median(times)
    }

    static func report(_ operations: [Operation], mix: [Double], alone: [Double], afterMix: [Double]) {
        print("## Mixed workload: each operation in the mix and after it, against alone\n")
        print("| operation | alone | in the mix | mix ÷ alone | alone after the mix | ÷ alone |")
        print("|---|--:|--:|--:|--:|--:|")
        var ratios: [(String, Double)] = []
        var history: [(String, Double)] = []
        for (i, op) in operations.enumerated() where op.coder == "TreeCodable" {
            let ratio = mix[i] / alone[i]
            ratios.append((op.name, ratio))
            history.append((op.name, afterMix[i] / alone[i]))
            print(
                "| \(op.name) | \(formatTime(alone[i])) | \(formatTime(mix[i])) | \(String(format: "%.2f×", ratio)) | "
                    + "\(formatTime(afterMix[i])) | \(String(format: "%.2f×", afterMix[i] / alone[i])) |")
        }
        let historySorted = history.map(\.1).sorted()
        print(
            "\nThe thread's history (each operation in a loop after the mix ÷ on a fresh thread): median "
                + String(format: "%.2f×, worst %.2f× (%@); over 1.25×: %d", median(historySorted),
                    historySorted.last ?? .nan, history.max { $0.1 < $1.1 }?.0 ?? "",
                    history.filter { $0.1 > 1.25 }.count))
        for (name, ratio) in history.filter({ $0.1 > 1.25 }).sorted(by: { $0.1 > $1.1 }).prefix(15) {
            print("- \(name): \(String(format: "%.2f×", ratio))")
        }
        let sorted = ratios.map(\.1).sorted()
        let over = ratios.filter { $0.1 > 1.25 }
        print(
            "\nIn the mix (each call timed between calls of the other operations, shuffled): TreeCodable "
                + "operations: \(ratios.count); mix ÷ alone median "
                + String(format: "%.2f×, worst %.2f× (%@); over 1.25×: %d", median(sorted), sorted.last ?? .nan,
                    ratios.max { $0.1 < $1.1 }?.0 ?? "", over.count))
        for (name, ratio) in over.sorted(by: { $0.1 > $1.1 }).prefix(15) {
            print("- \(name): \(String(format: "%.2f×", ratio))")
        }
        // Any code slows down when the caches hold thirty types' worth of it: the other coders'
        // ratios, in the same mix, tell that part from ours.
        for coder in ["floor", "JSON"] {
            let theirs = operations.indices.filter { operations[$0].coder == coder }.map { mix[$0] / alone[$0] }
            print("\(coder) operations: \(theirs.count); mix ÷ alone median " + String(format: "%.2f×", median(theirs)))
        }

        // Against the floor and JSON, in the mix, summed over the types each can code.
        print("\n## The mix against other coders (v3, sums of in-mix medians over the types both code)\n")
        print("| against | types | direction | TreeCodable | other | TreeCodable ÷ other |")
        print("|---|--:|---|--:|--:|--:|")
        for other in ["floor", "JSON"] {
            for direction in ["encode", "decode"] {
                var ours = 0.0
                var theirs = 0.0
                var types: [String] = []
                for (i, op) in operations.enumerated() where op.coder == other && op.kind == direction {
                    guard let j = operations.firstIndex(where: {
                        $0.coder == "TreeCodable" && $0.type == op.type && $0.kind == "v3 \(direction)"
                    }) else { continue }
                    ours += mix[j]
                    theirs += mix[i]
                    types.append(op.type)
                }
                print(
                    "| \(other) | \(types.count) | \(direction) | \(formatTime(ours)) | \(formatTime(theirs)) | "
                        + String(format: "%.2f× |", ours / theirs))
                if other == "floor" && direction == "encode" {
                    progress("floor types: \(types.joined(separator: ", "))")
                }
            }
        }
    }

    /// The whole TreeCodable mix on `n` threads at once, `rounds` rounds each: operations per
    /// second against one thread's.
    static func scaling(_ operations: [Operation], threadCounts: [Int], rounds: Int) {
        print("\n## The mix on several threads (\(ProcessInfo.processInfo.activeProcessorCount) cores)\n")
        print("| threads | operations per second | × one thread | efficiency |")
        print("|--:|--:|--:|--:|")
        var single = 0.0
        for n in threadCounts {
            final class Box: @unchecked Sendable { var failed = false }
            let box = Box()
            let ops = operations
            let start = now()
            onThreads(n) { t in
                var rng = SplitMix64(seed: UInt64(t + 1))
                var order = Array(ops.indices)
                do {
                    for _ in 0..<rounds {
                        order.shuffle(using: &rng)
                        for i in order { try ops[i].run() }
                    }
                } catch {
                    box.failed = true
                }
            }
            if box.failed { fail("scaling: an operation failed") }
            let seconds = Double(now() - start) / 1e9
            let rate = Double(n * rounds * ops.count) / seconds
            if n == 1 { single = rate }
            print(
                "| \(n) | \(String(format: "%.0f", rate)) | \(String(format: "%.2f×", rate / single)) | "
                    + String(format: "%.0f%% |", 100 * rate / single / Double(n)))
        }
    }
}
