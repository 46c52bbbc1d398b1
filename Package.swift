// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TreeCodable",
    // The oldest systems with the APIs the library uses: async sequences and `FileHandle`'s
    // throwing reads and writes (macOS 10.15.4 and its siblings). Linux needs nothing more.
    platforms: [.macOS("10.15.4"), .iOS("13.4"), .tvOS("13.4"), .watchOS("6.2"), .visionOS(.v1)],
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
