// swift-tools-version: 6.0
// Benchmarks for TreeCodable: a separate package so that the library itself stays free of
// benchmark code. No third-party harness: `Bench` is a plain executable.
//
//   swift build -c release --package-path Benchmarks
//   swift run -c release --package-path Benchmarks Bench [--quick] [filter]
import PackageDescription

let package = Package(
    name: "TreeCodableBenchmarks",
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "Bench",
            dependencies: [
                .product(name: "BinarySerialization", package: "TreeCodable"),
            ],
            path: "Sources/Bench"
        ),
    ],
    swiftLanguageModes: [.v5]
)
