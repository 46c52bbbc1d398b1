import BinarySerialization
import Foundation

/// What `detect` found: the formats the input reads in as one value (when it is at most
/// `--max-bytes`), whether it frames as a protobuf message (a possibility only: `auto` never
/// picks it), and whether it splits as a v3 stream (checked to the end, in chunks).
struct Detection {
    /// A format the whole input reads cleanly in, with the shape it gives.
    var formats: [(format: BinaryFormat, shape: RawShape)] = []
    /// The input's size, when it was read to the end as one value.
    var valueSize: Int?
    /// Whether the input was too large to read as one value.
    var tooLarge = false
    /// The number of elements, when the input splits as a v3 stream of more than one element.
    var streamElements: Int?
    /// The shape of the first stream element in the formats it reads in.
    var firstElement: [(format: BinaryFormat, shape: RawShape)] = []
    /// The number of fields, when the input (read as one value) frames cleanly as a proto3
    /// message; see ``protobufFieldCount(_:)``.
    var protobufFields: Int?
    /// Whether anything above shows structure.
    var structureFound: Bool { !formats.isEmpty || streamElements != nil || protobufFields != nil }
    /// Whether the input was read to its end and is empty: an empty value in every format, which
    /// shows no structure and is not bad input.
    var isEmpty: Bool { valueSize == 0 }

    init(path: String, maximumBytes: Int) throws {
        let source = try openInput(path)
        var prefix = Data()
        var splitter = BinaryStreamSplitter(retainingElementsUpTo: maximumBytes)
        var splits = true
        var first: BinaryStreamSplitter.Element?
        // One pass over the input: keep up to `maximumBytes` as the value, frame it all as a stream.
        while true {
            let chunk: Data
            do {
                chunk = try source.read(upTo: chunkSize)
            } catch {
                throw InputError("\(inputName(path)): cannot be read (\(error.localizedDescription))")
            }
            if chunk.isEmpty { break }
            if !tooLarge {
                prefix.append(chunk)
                if prefix.count > maximumBytes {
                    tooLarge = true
                    prefix = Data()
                }
            }
            guard splits || !tooLarge else {
                if tooLarge, !splits { break }
                continue
            }
            if splits {
                splitter.add(chunk)
                do {
                    while let element = try splitter.nextElement() {
                        if first == nil {
                            first = element
                            splitter.maximumRetainedSize = 0
                        }
                    }
                } catch {
                    splits = false
                }
            }
        }
        if splits, (try? splitter.finish()) == nil { splits = false }
        if splits, splitter.elementCount >= 2 || tooLarge {
            streamElements = splitter.elementCount
            if let bytes = first?.bytes { firstElement = Self.readings(Data(bytes)) }
        }
        if !tooLarge {
            valueSize = prefix.count
            formats = Self.readings(prefix)
            protobufFields = Self.protobufFieldCount(prefix)
        }
    }

    /// The formats `data` reads in with structure, most likely first.
    private static func readings(_ data: Data) -> [(format: BinaryFormat, shape: RawShape)] {
        BinaryFormat.plausibleFormats(for: data).compactMap { format in
            guard let root = try? BinaryDecoder(format: format).decodeRaw(from: data), hasStructure(root) else {
                return nil
            }
            return (format, root.shape)
        }
    }

    /// The number of fields when `data` frames cleanly as a proto3 message, else nil.
    ///
    /// Almost any short run of bytes frames as some message, so the test is strict, and a
    /// message is only ever listed as possible: every field whole up to the last byte, proto3
    /// wire types only (no groups), no field number in 19000...19999 (reserved by protobuf), and
    /// minimal varints (writing the fields back gives exactly `data`).
    static func protobufFieldCount(_ data: Data) -> Int? {
        guard !data.isEmpty, let message = try? ProtobufDecoder().decodeRaw(from: data) else { return nil }
        for field in message.fields {
            if case .group = field.value { return nil }
            if reservedProtobufFieldNumbers.contains(field.number) { return nil }
        }
        return message.serialized() == data ? message.fields.count : nil
    }

    /// Field numbers protobuf keeps for its own use; `.proto` files cannot declare them.
    static let reservedProtobufFieldNumbers = 19000...19999

    /// The shape of a protobuf message of `fields` fields.
    static func protobufShape(_ fields: Int) -> String { "message (\(plural(fields, "field")))" }

    /// The text report: the lines printed on standard output (``nothingFound`` is the error
    /// printed after them).
    var lines: [String] {
        var out = formats.map { "\($0.format): \($0.shape)" }
        if let protobufFields { out.append("protobuf (possible): " + Self.protobufShape(protobufFields)) }
        if let streamElements {
            var line = "v3 stream: \(plural(streamElements, "element"))"
            if let best = firstElement.first { line += " (element 0: \(best.format) \(best.shape))" }
            out.append(line)
        }
        if isEmpty {
            out.append("empty: 0 bytes (an empty string, data, array, container or message in every format)")
        } else if structureFound, tooLarge {
            out.append("(the input is larger than --max-bytes: it was not read as one value)")
        }
        return out
    }

    /// The error for an input that is not empty and shows no structure (exit status 1), or nil.
    var nothingFound: InputError? {
        guard !structureFound, !isEmpty else { return nil }
        if tooLarge {
            return InputError(
                "no structure found: the input is larger than --max-bytes, the most read as one value, "
                    + "and does not split as a v3 stream")
        }
        return InputError("no structure found in \(plural(valueSize ?? 0, "byte"))")
    }

    /// The JSON report.
    var json: JSON {
        func list(_ items: [(format: BinaryFormat, shape: RawShape)]) -> JSON {
            .array(items.map { .object([("format", .string("\($0.format)")), ("shape", .string("\($0.shape)"))]) })
        }
        return .object([
            ("type", .string("detect")), ("structureFound", .bool(structureFound)),
            ("size", valueSize.map { .int($0) } ?? .null), ("readAsValue", .bool(!tooLarge)),
            ("formats", list(formats)),
            (
                "stream",
                streamElements.map { .object([("elements", .int($0)), ("firstElement", list(firstElement))]) } ?? .null
            ),
            (
                "possible",
                .array(
                    protobufFields.map {
                        [.object([("format", .string("protobuf")), ("shape", .string(Self.protobufShape($0)))])]
                    } ?? [])
            ),
        ])
    }
}
