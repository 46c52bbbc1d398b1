// swift-tools-version: 6.0
import CompilerPluginSupport
import PackageDescription

// The `@TreeCodable` macro (issue 44). A separate package so the library keeps zero dependencies:
// the macro needs swift-syntax, and its tests need swift-macro-testing.
let package = Package(
    name: "TreeCodableMacros",
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .macCatalyst(.v13)],
    products: [
        .library(name: "TreeCodableMacros", targets: ["TreeCodableMacros"])
    ],
    dependencies: [
        .package(name: "TreeCodable", path: ".."),
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/pointfreeco/swift-macro-testing", exact: "0.7.0"),
    ],
    targets: [
        // The compiler plugin: reads the type's syntax and writes the `GeneratedBinaryCodable` conformance.
        .macro(
            name: "TreeCodableMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // What users import: the macro's declaration and the library it generates code for.
        .target(
            name: "TreeCodableMacros",
            dependencies: [
                "TreeCodableMacrosPlugin",
                .product(name: "BinarySerialization", package: "TreeCodable"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]),
        // Expansion tests: text in, text out; they need no runtime support from the library.
        .testTarget(
            name: "TreeCodableMacrosTests",
            dependencies: [
                "TreeCodableMacrosPlugin",
                .product(name: "MacroTesting", package: "swift-macro-testing"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]),
        // The macro on real types: generated coding gives the bytes of synthesized coding.
        .testTarget(
            name: "TreeCodableMacrosIntegrationTests",
            dependencies: ["TreeCodableMacros"]),
    ],
    swiftLanguageModes: [.v6]
)
