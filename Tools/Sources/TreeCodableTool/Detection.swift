import BinarySerialization
import Foundation

/// What `detect` found: the formats the input reads in as one value (when it is at most
/// `--max-bytes`), and whether it splits as a v3 stream (checked to the end, in chunks).
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
    /// Whether anything above shows structure.
    var structureFound: Bool { !formats.isEmpty || streamElements != nil }

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

    /// The text report.
    var lines: [String] {
        var out = formats.map { "\($0.format): \($0.shape)" }
        if let streamElements {
            var line = "v3 stream: \(plural(streamElements, "element"))"
            if let best = firstElement.first { line += " (element 0: \(best.format) \(best.shape))" }
            out.append(line)
        }
        if !structureFound {
            if tooLarge {
                out.append(
                    "no structure found: the input is larger than --max-bytes, the most read as one value, "
                        + "and does not split as a v3 stream")
            } else {
                out.append("no structure found in \(plural(valueSize ?? 0, "byte"))")
            }
        } else if tooLarge {
            out.append("(the input is larger than --max-bytes: it was not read as one value)")
        }
        return out
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
        ])
    }
}
