import ArgumentParser
import BinarySerialization
import Foundation

/// `treecodable`: look at bytes written by TreeCodable or BinaryCodable without their Swift type.
@main
struct TreeCodableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "treecodable",
        abstract: "Look at BinaryCodable (v3) or legacy BinaryCodable 2.x (v2) bytes without their Swift type.",
        subcommands: [Dump.self, Detect.self])
}

/// The format option of `dump`: a format, or `auto` to take the most likely one.
enum FormatChoice: String, ExpressibleByArgument, CaseIterable {
    case v3, v2, auto
}

/// Reads a file, or standard input for `-`.
func readInput(_ path: String) throws -> Data {
    if path == "-" { return FileHandle.standardInput.readDataToEndOfFile() }
    return try Data(contentsOf: URL(fileURLWithPath: path))
}

extension TreeCodableCommand {
    /// `treecodable dump <file> [--format v3|v2|auto]`
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an annotated hex dump: every byte range with the key, element or value it holds.")

        @Argument(help: "The file to read ('-' for standard input).")
        var file: String

        @Option(help: "The wire format: v3, v2, or auto to detect it.")
        var format: FormatChoice = .auto

        func run() throws {
            let data = try readInput(file)
            let chosen: BinaryFormat
            switch format {
            case .v3: chosen = .v3
            case .v2: chosen = .v2
            case .auto:
                chosen = BinaryFormat.plausibleFormats(for: data).first ?? .v3
                print("format: \(chosen) (detected)")
            }
            print(try BinaryDecoder(format: chosen).explain(data), terminator: "")
        }
    }

    /// `treecodable detect <file>`
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the formats the bytes read cleanly in, most likely first.")

        @Argument(help: "The file to read ('-' for standard input).")
        var file: String

        func run() throws {
            let formats = BinaryFormat.plausibleFormats(for: try readInput(file))
            if formats.isEmpty {
                print("none: the bytes nest deeper than the decoding limit in every format")
                throw ExitCode.failure
            }
            for format in formats {
                let root = try BinaryDecoder(format: format).decodeRaw(from: try readInput(file))
                print("\(format): \(root.shape)")
            }
        }
    }
}
