// swift-tools-version: 6.0
import PackageDescription

// The `treecodable` command. A separate package so the library keeps zero dependencies.
// The logic is the library target `TreeCodableTool` (tested in-process); `treecodable` is a thin
// executable around it (tested by running the built binary).
let package = Package(
    name: "TreeCodableTools",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "treecodable", targets: ["treecodable"]),
    ],
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(
            name: "TreeCodableTool",
            dependencies: [
                .product(name: "BinarySerialization", package: "TreeCodable"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "treecodable", dependencies: ["TreeCodableTool"]),
        .testTarget(
            name: "TreeCodableToolTests",
            // `treecodable` is listed so that `swift test` builds the binary the tests run.
            dependencies: [
                "TreeCodableTool", "treecodable", .product(name: "BinarySerialization", package: "TreeCodable"),
            ],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
