import ArgumentParser
import BinarySerialization
import Foundation

/// `treecodable`: look at bytes written by TreeCodable or BinaryCodable without their Swift type.
public enum TreeCodableTool {
    /// Runs the command with `arguments` (without the program name) and returns the exit status:
    /// 0 success, 1 bad input (or a file that cannot be read), 2 usage error.
    public static func run(_ arguments: [String], context: ToolContext = .process) -> Int32 {
        ToolContext.$current.withValue(context) {
            do {
                var command = try TreeCodableCommand.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch let error as InputError {
                context.errorOutput("treecodable: error: \(error.description)\n")
                return 1
            } catch {
                let code = TreeCodableCommand.exitCode(for: error)
                let message = TreeCodableCommand.fullMessage(for: error)
                if code == .success {
                    if !message.isEmpty { context.output(message + "\n") }
                    return 0
                }
                if !message.isEmpty { context.errorOutput(message + "\n") }
                // ArgumentParser exits 64 (EX_USAGE) for usage errors; this tool uses 2.
                return code == .validationFailure ? 2 : code.rawValue
            }
        }
    }
}

struct TreeCodableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "treecodable",
        abstract: "Look at BinaryCodable (v3) or legacy BinaryCodable 2.x (v2) bytes without their Swift type.",
        discussion: """
            Exit status: 0 success, 1 bad input (the message gives the byte offset when there is one), \
            2 usage error.
            """,
        subcommands: [Inspect.self, Hex.self, Detect.self, Dump.self])

    /// Without a subcommand: a usage error (exit status 2).
    func run() throws {
        throw ValidationError("Missing a subcommand: inspect, hex or detect.")
    }
}

/// The format option: a format, or `auto` to take the most likely one.
enum FormatChoice: String, ExpressibleByArgument, CaseIterable {
    case v3, v2, auto
}

/// The options shared by `inspect` and `hex`.
struct InputOptions: ParsableArguments {
    @Option(help: "The wire format: v3, v2, or auto to detect it.")
    var format: FormatChoice = .auto

    @Argument(help: "The file to read ('-' or nothing for standard input).")
    var file: String = "-"

    /// The chosen format for `data`, printing a `format:` line when it was detected.
    func resolvedFormat(for data: Data) -> BinaryFormat {
        switch format {
        case .v3: return .v3
        case .v2: return .v2
        case .auto:
            let chosen = BinaryFormat.plausibleFormats(for: data).first ?? .v3
            emit("format: \(chosen) (detected)")
            return chosen
        }
    }
}

extension TreeCodableCommand {
    /// `treecodable inspect [--format v3|v2|auto] [--stream] [FILE|-]`
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the raw tree of a value: keys, nested containers and the readings of each value.",
            discussion: """
                Neither format records types: the tree is a best guess from lengths and keys, with other \
                framings that fit listed as 'also fits'. Sizes and offsets are in bytes, decimal. \
                With --stream, the input is a stream or file written by BinaryStreamEncoder or \
                BinaryFileEncoder, read element by element (v3 only: v2 streams cannot be split without \
                the element type).
                """)

        @OptionGroup var input: InputOptions

        @Flag(help: "Read a stream of framed elements (BinaryStreamEncoder, BinaryFileEncoder).")
        var stream = false

        func run() throws {
            if stream { return try runStream() }
            let data = try readInput(input.file)
            let format = input.resolvedFormat(for: data)
            let root: RawNode
            do {
                root = try BinaryDecoder(format: format).decodeRaw(from: data)
            } catch {
                throw InputError(describe(error))
            }
            for line in TreeRenderer().lines(root) { emit(line) }
        }

        private func runStream() throws {
            if input.format == .v2 {
                throw InputError(
                    """
                    a v2 stream cannot be split without the element type: BinaryStreamEncoder writes each v2 \
                    element as in an unkeyed container, where varint and fixed-size values have no length, so \
                    where an element ends depends on its type. Decode it with \
                    BinaryStreamDecoder<Element>(decoder: BinaryDecoder(format: .v2)).
                    """)
            }
            if input.format == .auto { emit("format: v3 stream (only v3 streams can be split without a type)") }
            let limits = DecodingLimits()
            var splitter = V3StreamSplitter(
                source: try openInput(input.file), maximumElementSize: limits.maximumElementSize)
            let decoder = BinaryDecoder(format: .v3)
            while true {
                let element: V3StreamSplitter.Element?
                do {
                    element = try splitter.next()
                } catch let error as InputError where input.format == .auto {
                    throw InputError(error.description + " (if this is a v2 stream: it cannot be split without its type)")
                }
                guard let element else { break }
                let index = splitter.count &- 1
                switch element {
                case .none(let offset):
                    emit("element \(index) at \(offset): nil")
                case .value(let prefixOffset, let offset, let bytes):
                    emit("element \(index) at \(prefixOffset):")
                    let node: RawNode
                    do {
                        node = try decoder.decodeRaw(from: bytes)
                    } catch {
                        throw InputError("element \(index): " + describe(error, base: offset))
                    }
                    for line in TreeRenderer(base: offset).lines(node, indent: 1) { emit(line) }
                }
            }
            emit("\(plural(splitter.count, "element"))")
        }
    }

    /// `treecodable hex [--format v3|v2|auto] [FILE|-]`
    struct Hex: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an annotated hex dump: every byte range with the key, element or value it holds.",
            discussion: "Offsets are hex; runs longer than eight bytes show their first seven and '..'.")

        @OptionGroup var input: InputOptions

        func run() throws { try Self.dump(input) }

        static func dump(_ input: InputOptions) throws {
            let data = try readInput(input.file)
            let format = input.resolvedFormat(for: data)
            let text: String
            do {
                text = try BinaryDecoder(format: format).explain(data)
            } catch {
                throw InputError(describe(error))
            }
            ToolContext.current.output(text)
        }
    }

    /// `treecodable dump`: the former name of `hex`, kept as a hidden alias.
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The former name of 'hex'.", shouldDisplay: false)

        @OptionGroup var input: InputOptions

        func run() throws { try Hex.dump(input) }
    }

    /// `treecodable detect FILE`
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the formats the bytes read cleanly in, most likely first, with the shape each gives.")

        @Argument(help: "The file to read ('-' or nothing for standard input).")
        var file: String = "-"

        func run() throws {
            let data = try readInput(file)
            let formats = BinaryFormat.plausibleFormats(for: data)
            if formats.isEmpty {
                throw InputError("the bytes nest deeper than the decoding limit in every format")
            }
            for format in formats {
                do {
                    let root = try BinaryDecoder(format: format).decodeRaw(from: data)
                    emit("\(format): \(root.shape)")
                } catch {
                    throw InputError(describe(error))
                }
            }
        }
    }
}
