// Allocations and wall-time percentiles per operation, under ordo-one/benchmark.
//
//   swift package --package-path Benchmarks benchmark [--filter REGEX]
//
// One benchmark per (payload, coder, operation): TreeCodable v3 and v2, the floor coder and
// Foundation's JSON. The timed ratios between coders come from `Bench`, which interleaves them;
// this target is for the malloc counts (`Malloc (total)` per iteration) and the spread of times.
import Benchmark
import BenchSupport
import BinarySerialization
import Foundation

private func register<T: Codable & Equatable>(_ payload: String, _ value: T, scale: Int) {
    let configuration = Benchmark.Configuration(
        metrics: [.mallocCountTotal, .wallClock, .throughput],
        timeUnits: .nanoseconds,
        units: [.mallocCountTotal: .count],
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: scale)

    let v3Encoder = BinaryEncoder(format: .v3)
    let v3Decoder = BinaryDecoder(format: .v3)
    let v2Encoder = BinaryEncoder(format: .v2)
    let v2Decoder = BinaryDecoder(format: .v2)
    let jsonEncoder = JSONEncoder()
    let jsonDecoder = JSONDecoder()
    // Round trips are checked by Bench at start-up; here a failure simply crashes the benchmark.
    let v3Data = try! v3Encoder.encode(value)
    let v2Data = try! v2Encoder.encode(value)
    let floorBytes = try! Floor.encode(value)
    let jsonData = try! jsonEncoder.encode(value)
    precondition(try! v3Decoder.decode(T.self, from: v3Data) == value)
    precondition(try! v2Decoder.decode(T.self, from: v2Data) == value)
    precondition(try! Floor.decode(T.self, from: floorBytes) == value)

    Benchmark("\(payload) v3 encode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try v3Encoder.encode(value)) }
    }
    Benchmark("\(payload) v3 decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try v3Decoder.decode(T.self, from: v3Data)) }
    }
    Benchmark("\(payload) v2 encode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try v2Encoder.encode(value)) }
    }
    Benchmark("\(payload) v2 decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try v2Decoder.decode(T.self, from: v2Data)) }
    }
    Benchmark("\(payload) floor encode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Floor.encode(value)) }
    }
    Benchmark("\(payload) floor decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try Floor.decode(T.self, from: floorBytes)) }
    }
    Benchmark("\(payload) JSON encode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try jsonEncoder.encode(value)) }
    }
    Benchmark("\(payload) JSON decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try jsonDecoder.decode(T.self, from: jsonData)) }
    }
}

let benchmarks: @Sendable () -> Void = {
    register("P1-message-stringkeys", Generate.messageStringKeys(), scale: 100_000)
    register("P1-message-intkeys", Generate.messageIntKeys(), scale: 100_000)
    register("P2-records-1000", Generate.records(count: 1_000), scale: 1_000)
    register("P4-strings-10k", Generate.strings(count: 10_000), scale: 1_000)
    register("P4-dictionary-1000", Generate.dictionary(count: 1_000), scale: 1_000)
}
