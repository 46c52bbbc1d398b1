// swift-tools-version: 6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TreeCodable",
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
        .testTarget(name: "TreeCodingTests", dependencies: ["TreeCoding"]),
        .testTarget(
            name: "BinarySerializationTests", dependencies: ["BinarySerialization"],
            resources: [.copy("Fixtures")]),
    ],
    swiftLanguageModes: [.v6]
)
