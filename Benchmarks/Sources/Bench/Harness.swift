// Timing: calibrated samples, median time per operation.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchSupport
import Foundation

struct RunConfig {
    /// Each timed sample runs enough iterations to last at least this long.
    var sampleNanoseconds: UInt64
    /// Timed samples per measurement (at most).
    var samples: Int
    /// Fewer samples when one measurement would otherwise take longer than this...
    var budgetNanoseconds: UInt64
    /// ...but never fewer than this.
    var minimumSamples: Int

    static let full = RunConfig(
        sampleNanoseconds: 10_000_000, samples: 41, budgetNanoseconds: 1_200_000_000, minimumSamples: 9)
    static let quick = RunConfig(
        sampleNanoseconds: 1_000_000, samples: 3, budgetNanoseconds: 20_000_000, minimumSamples: 3)
}

struct Timing {
    /// Median nanoseconds per operation over the samples.
    var median: Double
    /// Half the interquartile range, relative to the median (a noise indicator).
    var spread: Double
    var samples: Int
    var iterationsPerSample: Int
}

/// One case being measured: calibrated once, then sampled in rounds with the other cases of
/// its payload, so that a burst of load from another process hits all of them alike (the
/// ratios between coders stay fair even when the absolute times move).
final class Sampler {
    let body: () throws -> Void
    /// Iterations per timed sample: enough for `config.sampleNanoseconds`.
    private(set) var iterations = 1
    /// Timed samples to take.
    private(set) var sampleCount = 0
    private(set) var perOp: [Double] = []

    init(_ body: @escaping () throws -> Void) { self.body = body }

    private func run(_ n: Int) throws -> UInt64 {
        let start = now()
        for _ in 0..<n { try body() }
        return now() - start
    }

    /// Warm-up and calibration: grow the iteration count until one sample is long enough.
    func calibrate(_ config: RunConfig) throws {
        var elapsed = try run(1)
        iterations = 1
        while elapsed < config.sampleNanoseconds {
            let scale = Double(config.sampleNanoseconds) / Double(max(elapsed, 1)) * 1.2
            iterations = max(iterations + 1, Int((Double(iterations) * min(scale, 100)).rounded(.up)))
            elapsed = try run(iterations)
        }
        // One more untimed sample at the final size.
        elapsed = try run(iterations)
        sampleCount = max(config.minimumSamples, min(config.samples, Int(config.budgetNanoseconds / max(elapsed, 1))))
        perOp.reserveCapacity(sampleCount)
    }

    var done: Bool { perOp.count >= sampleCount }

    /// One timed sample, after one untimed iteration: a sample does not start with the caches
    /// (and memory) of the case before it. Until 0aef84f only operations under 5 ms were warmed
    /// so: a P5 depth-10,000 sample (one or two iterations) then started cold, and its time
    /// depended on which case ran before it (v3 encode 9-11 ms cold, 6.2 ms warm).
    func sample() throws {
        _ = try run(1)
        perOp.append(Double(try run(iterations)) / Double(iterations))
    }

    var timing: Timing {
        let sorted = perOp.sorted()
        let median = quantile(sorted, 0.5)
        let iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25)
        return Timing(median: median, spread: iqr / 2 / median, samples: sorted.count, iterationsPerSample: iterations)
    }
}

/// Measures the cases together: calibrates each, then takes their samples in rounds.
func measureTogether(_ config: RunConfig, _ bodies: [() throws -> Void]) throws -> [Timing] {
    let samplers = bodies.map(Sampler.init)
    for s in samplers { try s.calibrate(config) }
    while samplers.contains(where: { !$0.done }) {
        for s in samplers where !s.done { try s.sample() }
    }
    return samplers.map(\.timing)
}

/// Linear-interpolated quantile of sorted values.
func quantile(_ sorted: [Double], _ q: Double) -> Double {
    if sorted.count == 1 { return sorted[0] }
    let position = q * Double(sorted.count - 1)
    let lower = Int(position.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    let fraction = position - Double(lower)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
}

// MARK: - Formatting

func formatRate(_ perSecond: Double) -> String {
    if perSecond >= 1_000_000 { return String(format: "%.2fM", perSecond / 1_000_000) }
    if perSecond >= 10_000 { return String(format: "%.0fk", perSecond / 1_000) }
    if perSecond >= 1_000 { return String(format: "%.1fk", perSecond / 1_000) }
    if perSecond >= 10 { return String(format: "%.0f", perSecond) }
    return String(format: "%.1f", perSecond)
}

func formatMBps(_ bytesPerSecond: Double) -> String {
    let mb = bytesPerSecond / 1_000_000
    if mb >= 100 { return String(format: "%.0f", mb) }
    if mb >= 10 { return String(format: "%.1f", mb) }
    return String(format: "%.2f", mb)
}

func formatRatio(_ r: Double) -> String {
    if r >= 100 { return String(format: "%.0f×", r) }
    if r >= 10 { return String(format: "%.1f×", r) }
    return String(format: "%.2f×", r)
}
