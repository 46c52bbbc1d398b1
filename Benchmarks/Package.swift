// swift-tools-version: 6.1
// Benchmarks for TreeCodable: a separate package so that the library itself stays free of
// benchmark code.
//
// - `Bench`: our own runner. Times TreeCodable, the Codable floor, JSON and hand-written code
//   interleaved in one run and prints the ratios (see Docs/Performance.md).
//     swift run -c release --package-path Benchmarks Bench [--quick] [FILTER]
//     swift run -c release --package-path Benchmarks Bench --smoke     (CI guard, Benchmarks/smoke.sh)
// - `TreeCodableBenchmarks`: the same payloads under ordo-one/benchmark, for allocation counts
//   (malloc interposer) and wall-time percentiles.
//     swift package --package-path Benchmarks benchmark
// - `BenchSupport`: the payload types and the floor coder, shared by both.
// - `Shapes`: other common shapes (enums with associated values, optionals, sets...) in a loop,
//   for instruction counts: Benchmarks/shapes.sh
// - `FileAppend`: record files, append throughput and the cost of opening 1 GB for append:
//     swift run -c release --package-path Benchmarks FileAppend [append|open|all]
import PackageDescription

let package = Package(
    name: "TreeCodableBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchSupport",
            path: "Sources/BenchSupport"
        ),
        .executableTarget(
            name: "Bench",
            dependencies: [
                "BenchSupport",
                .product(name: "BinarySerialization", package: "TreeCodable"),
            ],
            path: "Sources/Bench"
        ),
        .target(
            name: "HeapInUse",
            path: "Sources/HeapInUse"
        ),
        .executableTarget(
            name: "Mixed",
            dependencies: [
                "BenchSupport",
                "HeapInUse",
                .product(name: "BinarySerialization", package: "TreeCodable"),
            ],
            path: "Sources/Mixed"
        ),
        .executableTarget(
            name: "FileAppend",
            dependencies: [.product(name: "BinarySerialization", package: "TreeCodable")],
            path: "Sources/FileAppend"
        ),
        .executableTarget(
            name: "Shapes",
            dependencies: [.product(name: "BinarySerialization", package: "TreeCodable")],
            path: "Sources/Shapes"
        ),
        .executableTarget(
            name: "TreeCodableBenchmarks",
            dependencies: [
                "BenchSupport",
                .product(name: "BinarySerialization", package: "TreeCodable"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/TreeCodableBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
