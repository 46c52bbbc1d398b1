// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TreeCodable",
    // BinaryCodable's minimums, so that any app using it can switch. What needs newer systems
    // (the async stream and file API: Swift concurrency and `FileHandle`'s throwing reads) is
    // marked `@available(macOS 10.15.4, iOS 13.4, tvOS 13.4, watchOS 6.2, *)`.
    platforms: [.macOS(.v10_13), .iOS(.v12), .tvOS(.v12), .watchOS(.v4), .visionOS(.v1)],
    products: [
        .library(name: "TreeCoding", targets: ["TreeCoding"]),
        .library(name: "BinarySerialization", targets: ["BinarySerialization"]),
    ],
    targets: [
        .target(name: "TreeCoding", swiftSettings: strictSettings),
        .target(name: "BinarySerialization", dependencies: ["TreeCoding"], swiftSettings: strictSettings),
        .executableTarget(
            name: "Example", dependencies: ["BinarySerialization"], path: "Examples/Example",
            swiftSettings: strictSettings),
        // The writer that the record-file tests start and kill (Tests/FileAppendChild/main.swift).
        .executableTarget(
            name: "FileAppendChild", dependencies: ["BinarySerialization"], path: "Tests/FileAppendChild",
            swiftSettings: strictSettings),
        .testTarget(name: "TreeCodingTests", dependencies: ["TreeCoding"]),
        .testTarget(
            name: "BinarySerializationTests", dependencies: ["BinarySerialization", "FileAppendChild"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
