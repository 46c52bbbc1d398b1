// swift-tools-version: 6.0
import PackageDescription

// Interop tests of the protobuf format against swift-protobuf, the ground truth. A separate package
// so the library keeps zero dependencies. The Swift code of Proto/interop.proto is generated once
// and committed (Sources/InteropMessages; see README.md for the command).
let package = Package(
    name: "TreeCodableInterop",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
        .package(name: "TreeCodableMacros", path: "../Macros"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        .target(
            name: "InteropMessages",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        // ProtobufEncoder/ProtobufDecoder against swift-protobuf on the Benchmarks/ payloads, with
        // and without generated coding (@TreeCodable).
        .executableTarget(
            name: "InteropBench",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "BinarySerialization", package: "TreeCodable"),
                .product(name: "TreeCodableMacros", package: "TreeCodableMacros"),
            ]),
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "InteropMessages",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "BinarySerialization", package: "TreeCodable"),
            ]),
    ]
)
