import ArgumentParser
import BinarySerialization
import Foundation

/// `treecodable`: look at bytes written by TreeCodable or BinaryCodable without their Swift type.
public enum TreeCodableTool {
    /// Runs the command with `arguments` (without the program name) and returns the exit status
    /// described by ``exitStatusHelp``: 0 success, 1 bad input (a file that cannot be read, or
    /// bytes that do not frame or show no structure), 2 usage error.
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
        abstract: """
            Look at BinaryCodable (v3), legacy BinaryCodable 2.x (v2) or protobuf (proto3) bytes without \
            their Swift type.
            """,
        discussion: """
            Every command reads its input in chunks and keeps at most --max-bytes of one value or element, \
            so memory stays bounded whatever the input's size; it says so when it stops early. \
            --format auto picks v3 or v2, never protobuf: almost any bytes frame as some protobuf message, \
            so detect lists protobuf as a possibility and --format protobuf reads the bytes as one.
            """ + "\n\n" + exitStatusHelp,
        version: toolVersion,
        subcommands: [Inspect.self, Hex.self, Detect.self, Dump.self])

    /// Without a subcommand: a usage error (exit status 2).
    func run() throws {
        throw ValidationError("Missing a subcommand: inspect, hex or detect.")
    }
}

/// The version `--version` prints: the library's next release, not yet tagged.
let toolVersion = "0.1.0-dev"

/// The exit statuses, the same for every command, as `--help` gives them.
let exitStatusHelp = """
    Exit status: 0 success; 1 bad input: a file that cannot be read, bytes that do not frame in the \
    format asked for, a value larger than --max-bytes, or bytes that are not empty and show no structure \
    ('no structure found'; an empty input is an empty value, not bad input); 2 usage error. \
    With 1, what was found is printed first and the reason follows on standard error, with the byte \
    offset when there is one.
    """

/// The format option: a format, or `auto` to take the most likely one.
enum FormatChoice: String, ExpressibleByArgument, CaseIterable {
    case v3, v2, protobuf, auto
}

/// The options shared by every command.
struct InputOptions: ParsableArguments {
    @Option(help: "The wire format: v3, v2, protobuf (a proto3 message), or auto to detect v3 or v2 (never protobuf).")
    var format: FormatChoice = .auto

    @Option(
        name: .customLong("max-bytes"),
        help: "The most bytes read as one value or stream element; larger ones are not read (memory stays bounded).")
    var maximumBytes: Int = 1 << 20

    @Argument(help: "The file to read ('-' or nothing for standard input).")
    var file: String = "-"

    func validate() throws {
        guard maximumBytes > 0 else { throw ValidationError("--max-bytes must be positive.") }
    }

    /// The whole input as one value, or an error saying it is larger than `--max-bytes`.
    func readValue() throws -> Data {
        let prefix = try readInput(file, cap: maximumBytes)
        guard prefix.isComplete else {
            throw InputError(
                "stopped early: \(inputName(file)) is larger than \(plural(maximumBytes, "byte")), the most read as "
                    + "one value (--max-bytes); for a stream or record file add --stream")
        }
        return prefix.data
    }

    /// The chosen format for `data` and whether it was detected (`protobuf` is handled by the
    /// commands before: it is not a ``BinaryFormat``).
    func resolvedFormat(for data: Data) -> (format: BinaryFormat, detected: Bool) {
        switch format {
        case .v3, .protobuf: return (.v3, false)
        case .v2: return (.v2, false)
        case .auto: return (BinaryFormat.plausibleFormats(for: data).first ?? .v3, true)
        }
    }

    /// The input as one protobuf message read without its type, as `protoc --decode_raw` reads it.
    func readProtobufMessage(_ streamOptions: StreamOptions) throws -> ProtobufRawMessage {
        guard !streamOptions.stream else {
            throw InputError("--stream reads v3 streams; a protobuf message has no element framing")
        }
        let data = try readValue()
        do {
            return try ProtobufDecoder().decodeRaw(from: data)
        } catch {
            throw InputError(describe(error))
        }
    }
}

/// The options of commands that can read a stream.
struct StreamOptions: ParsableArguments {
    @Flag(help: "Read a stream of framed elements (BinaryStreamEncoder, BinaryFileEncoder; v3 only).")
    var stream = false

    @Option(help: "With --stream: stop after this many elements.")
    var limit: Int?

    @Option(help: "With --stream: show only the element at this index (from 0).")
    var element: Int?

    func validate() throws {
        if !stream, limit != nil || element != nil {
            throw ValidationError("--limit and --element need --stream.")
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative.") }
        if let element, element < 0 { throw ValidationError("--element must not be negative.") }
    }
}

extension TreeCodableCommand {
    /// `treecodable inspect [--format v3|v2|protobuf|auto] [--stream [--limit N] [--element N]] [--json] [FILE|-]`
    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the raw tree of a value: keys, nested containers and the readings of each value.",
            discussion: """
                Neither format records types: the tree is a best guess from lengths and keys, with other \
                framings that fit listed as 'also fits'. Sizes and offsets are in bytes, decimal. \
                With --stream, the input is a stream or file written by BinaryStreamEncoder or \
                BinaryFileEncoder, read element by element (v3 only: v2 streams cannot be split without \
                the element type). With --format protobuf, the fields of a proto3 message, one \
                'number: value' line each, as `protoc --decode_raw` reads them; a length-delimited \
                value lists every reading that fits: its text (UTF-8) or its bytes in hex, and \
                'message (N fields)' when they frame as a message, whose fields follow indented. \
                With --json, one JSON object per line (schema in Tools/README.md).
                """ + "\n\n" + exitStatusHelp)

        @OptionGroup var input: InputOptions
        @OptionGroup var streamOptions: StreamOptions

        @Flag(help: "Print JSON (one object per line; schema in Tools/README.md).")
        var json = false

        func run() throws {
            if input.format == .protobuf {
                let message = try input.readProtobufMessage(streamOptions)
                if json {
                    emit(
                        JSON.object([
                            ("type", .string("value")), ("format", .string("protobuf")), ("detected", .bool(false)),
                            ("structureFound", .bool(!message.fields.isEmpty)), ("value", protobufJSON(message)),
                        ]).text)
                } else {
                    for line in ProtobufRenderer().lines(message) { emit(line) }
                }
                return
            }
            if streamOptions.stream {
                let runner = try StreamRunner(input: input, options: streamOptions, quiet: json)
                try runner.run { element, value in
                    if json {
                        emit(elementJSON(element, value: value).text)
                    } else {
                        emit(elementHeading(element, maximumBytes: input.maximumBytes))
                        if let value, let range = element.range {
                            for line in TreeRenderer(base: range.lowerBound).lines(value, indent: 1) { emit(line) }
                        }
                    }
                } end: { shown, stop in
                    emit(json ? stop.json(shown).text : stop.summary(shown))
                }
                return
            }
            let data = try input.readValue()
            let (format, detected) = input.resolvedFormat(for: data)
            let root: RawNode
            do {
                root = try BinaryDecoder(format: format).decodeRaw(from: data)
            } catch {
                throw InputError(describe(error))
            }
            if json {
                emit(
                    JSON.object([
                        ("type", .string("value")), ("format", .string("\(format)")), ("detected", .bool(detected)),
                        ("structureFound", .bool(hasStructure(root))), ("value", rawNodeJSON(root, base: 0)),
                    ]).text)
            } else {
                if detected { emit("format: \(format) (detected)") }
                for line in TreeRenderer().lines(root) { emit(line) }
            }
            try requireStructure(root, in: data)
        }
    }

    /// `treecodable hex [--format v3|v2|protobuf|auto] [--stream [--limit N] [--element N]] [FILE|-]`
    struct Hex: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an annotated hex dump: every byte range with the key, element or value it holds.",
            discussion: """
                Offsets are hex, from the start of the input; runs longer than eight bytes show their first \
                seven and '..'. With --stream, each element of a v3 stream is dumped after a heading line. \
                With --format protobuf, one line per tag, length and value of a proto3 message.
                """ + "\n\n" + exitStatusHelp)

        @OptionGroup var input: InputOptions
        @OptionGroup var streamOptions: StreamOptions

        func run() throws { try Self.dump(input, streamOptions) }

        static func dump(_ input: InputOptions, _ streamOptions: StreamOptions) throws {
            if input.format == .protobuf {
                guard !streamOptions.stream else {
                    throw InputError("--stream reads v3 streams; a protobuf message has no element framing")
                }
                let data = try input.readValue()
                do {
                    ToolContext.current.output(try ProtobufDecoder().explain(data))
                } catch {
                    throw InputError(describe(error))
                }
                return
            }
            if streamOptions.stream {
                let runner = try StreamRunner(input: input, options: streamOptions, quiet: false)
                try runner.run { element, _ in
                    emit(elementHeading(element, maximumBytes: input.maximumBytes))
                    guard let bytes = element.bytes, let range = element.range, !bytes.isEmpty else { return }
                    let text: String
                    do {
                        text = try BinaryDecoder(format: .v3).explain(Data(bytes))
                    } catch {
                        throw InputError("element \(element.index): " + describe(error, base: range.lowerBound))
                    }
                    ToolContext.current.output(shiftedHexOffsets(text, by: range.lowerBound))
                } end: { shown, stop in
                    emit(stop.summary(shown))
                }
                return
            }
            let data = try input.readValue()
            let (format, detected) = input.resolvedFormat(for: data)
            if detected { emit("format: \(format) (detected)") }
            let text: String
            let root: RawNode
            do {
                text = try BinaryDecoder(format: format).explain(data)
                root = try BinaryDecoder(format: format).decodeRaw(from: data)
            } catch {
                throw InputError(describe(error))
            }
            ToolContext.current.output(text)
            try requireStructure(root, in: data)
        }
    }

    /// `treecodable dump`: the former name of `hex`, kept as a hidden alias.
    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The former name of 'hex'.", shouldDisplay: false)

        @OptionGroup var input: InputOptions
        @OptionGroup var streamOptions: StreamOptions

        func run() throws { try Hex.dump(input, streamOptions) }
    }

    /// `treecodable detect [--max-bytes N] [--json] FILE`
    struct Detect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the formats the bytes read cleanly in, most likely first, with the shape each gives.",
            discussion: """
                Also says whether the input splits as a v3 stream (BinaryStreamEncoder, BinaryFileEncoder), \
                reading it in chunks to the end. An input larger than --max-bytes is not read as one value: \
                only as a stream. 'protobuf (possible)' means the bytes frame cleanly as a proto3 message \
                (every field whole to the last byte, proto3 wire types, valid field numbers, minimal \
                varints); almost any bytes frame as some message, so it is a possibility, never picked \
                by --format auto. Bytes that show none of these give 'no structure found'.
                """ + "\n\n" + exitStatusHelp)

        @Option(
            name: .customLong("max-bytes"),
            help: "The most bytes read as one value or element; larger inputs are only checked as a stream.")
        var maximumBytes: Int = 1 << 20

        @Flag(help: "Print one JSON object (schema in Tools/README.md).")
        var json = false

        @Argument(help: "The file to read ('-' or nothing for standard input).")
        var file: String = "-"

        func validate() throws {
            guard maximumBytes > 0 else { throw ValidationError("--max-bytes must be positive.") }
        }

        func run() throws {
            let report = try Detection(path: file, maximumBytes: maximumBytes)
            if json {
                emit(report.json.text)
            } else {
                for line in report.lines { emit(line) }
            }
            if let error = report.nothingFound { throw error }
        }
    }
}

/// The heading line of a stream element.
func elementHeading(_ element: BinaryStreamSplitter.Element, maximumBytes: Int) -> String {
    let at = "element \(element.index) at \(element.prefixOffset)"
    guard let range = element.range else { return at + ": nil" }
    if element.bytes == nil {
        return at + ": \(plural(range.count, "byte")), not read (larger than --max-bytes \(maximumBytes))"
    }
    return at + ":"
}

/// The JSON line of a stream element.
func elementJSON(_ element: BinaryStreamSplitter.Element, value: RawNode?) -> JSON {
    JSON.object([
        ("type", .string("element")), ("index", .int(element.index)), ("offset", .int(element.prefixOffset)),
        ("size", element.range.map { .int($0.count) } ?? .null), ("nil", .bool(element.range == nil)),
        ("read", .bool(value != nil || element.range?.isEmpty == true)),
        ("value", value.map { rawNodeJSON($0, base: element.range?.lowerBound ?? 0) } ?? .null),
    ])
}

/// `text` (an `explain` dump) with the hex offset that starts each line moved by `base`.
func shiftedHexOffsets(_ text: String, by base: Int) -> String {
    guard base != 0 else { return text }
    var out = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let digits = line.prefix { $0.isHexDigit }
        if !digits.isEmpty, let value = Int(digits, radix: 16) {
            let shifted = String(base.addingReportingOverflow(value).partialValue, radix: 16)
            out += String(repeating: "0", count: max(0, digits.count &- shifted.count)) + shifted
            out += line.dropFirst(digits.count)
        } else {
            out += line
        }
        out += "\n"
    }
    return String(out.dropLast())
}

/// Throws the "no structure found" error (exit status 1) when `data` is not empty and its raw
/// tree `root` shows no structure; empty input is an empty value, not bad input.
func requireStructure(_ root: RawNode, in data: Data) throws {
    guard data.isEmpty || hasStructure(root) else {
        throw InputError(
            "no structure found: \(plural(data.count, "byte")) that frame as no container and read as no value")
    }
}

/// Whether `node` shows any structure: a container, or bytes with a reading other than the
/// split into varints that most byte runs allow.
func hasStructure(_ node: RawNode) -> Bool {
    switch node.content {
    case .keyed, .unkeyed: return true
    case .bytes(let bytes, let readings):
        return readings.contains { reading in
            if case .packedVarints = reading { return bytes.count <= 64 }
            return true
        }
    }
}
