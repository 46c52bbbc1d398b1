// swift-tools-version: 6.0
// A libFuzzer harness for the decoders. It is a separate package so the library's own build and
// tests never need the fuzzer runtime. Build and run it with ./run.sh (see README.md).
import PackageDescription

let package = Package(
    name: "Fuzz",
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "FuzzDecode",
            dependencies: [.product(name: "BinarySerialization", package: "TreeCodable")],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]),
    ],
    swiftLanguageModes: [.v6]
)
