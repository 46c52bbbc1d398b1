// swift-tools-version: 6.0
import PackageDescription

// The `treecodable` command. A separate package so the library keeps zero dependencies.
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
        .executableTarget(
            name: "treecodable",
            dependencies: [
                .product(name: "BinarySerialization", package: "TreeCodable"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
