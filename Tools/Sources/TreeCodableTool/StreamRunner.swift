import BinarySerialization
import Foundation

/// Why a stream run stopped where it did.
enum StreamStop {
    /// The input ended after its last element.
    case end
    /// `--limit` elements were shown.
    case limit
    /// The element chosen with `--element` (its index) was shown.
    case element(Int)

    /// The closing line of a text run after `shown` element headings: the same count as the
    /// JSON end line's `elements`.
    func summary(_ shown: Int) -> String {
        switch self {
        case .end: return plural(shown, "element")
        case .limit: return "stopped early after \(plural(shown, "element")) (--limit); the rest was not read"
        case .element(let i): return "stopped early after element \(i) (--element); the rest was not read"
        }
    }

    /// The JSON end line after `shown` element lines: `elements` counts the lines shown, the
    /// count `summary(_:)` gives in text.
    func json(_ shown: Int) -> JSON {
        let stopped: JSON
        switch self {
        case .end: stopped = .null
        case .limit: stopped = .string("limit")
        case .element: stopped = .string("element")
        }
        return .object([("type", .string("end")), ("elements", .int(shown)), ("stopped", stopped)])
    }
}

/// Reads a v3 stream in chunks through the library's ``BinaryStreamSplitter`` and hands each
/// element, read as a raw tree when it is at most `--max-bytes`, to a body.
///
/// With `--format auto`, nothing is shown until the first elements (up to 64 of them, or 1 MiB)
/// have framed cleanly, so a v2 stream taken for v3 gives its error and no garbage before it.
struct StreamRunner {
    let input: InputOptions
    let options: StreamOptions
    let source: any ByteSource
    /// Elements framed and held back before anything is shown, in auto mode.
    static let lookaheadElements = 64
    /// Bytes framed and held back before anything is shown, in auto mode.
    static let lookaheadBytes = 1 << 20

    /// A runner over `input`; throws for v2, which cannot be split without a type.
    init(input: InputOptions, options: StreamOptions, quiet: Bool) throws {
        if input.format == .v2 {
            throw InputError(
                """
                a v2 stream cannot be split without the element type: BinaryStreamEncoder writes each v2 \
                element as in an unkeyed container, where varint and fixed-size values have no length, so \
                where an element ends depends on its type. Decode it with \
                BinaryStreamDecoder<Element>(decoder: BinaryDecoder(format: .v2)).
                """)
        }
        self.input = input
        self.options = options
        self.source = try openInput(input.file)
        if input.format == .auto, !quiet {
            emit("format: v3 stream (only v3 streams can be split without a type)")
        }
    }

    /// Runs `body` for each element shown (with its raw tree when it was read), then `end`
    /// with the number of elements shown (every element framed, when the run reaches the end of
    /// the input) and why the run stopped. Elements framed ahead in auto mode and not shown are
    /// not counted.
    func run(
        _ body: (BinaryStreamSplitter.Element, RawNode?) throws -> Void,
        end: (Int, StreamStop) throws -> Void
    ) throws {
        var splitter = BinaryStreamSplitter(retainingElementsUpTo: input.maximumBytes)
        var held: [BinaryStreamSplitter.Element] = []
        var heldBytes = 0
        var checked = input.format != .auto
        var shown = 0
        let decoder = BinaryDecoder(format: .v3)

        // Shows `element` if chosen; returns why to stop, or nil to go on.
        func show(_ element: BinaryStreamSplitter.Element) throws -> StreamStop? {
            if let chosen = options.element, element.index != chosen { return nil }
            var value: RawNode?
            if let bytes = element.bytes, let range = element.range {
                do {
                    value = try decoder.decodeRaw(from: bytes)
                } catch {
                    throw InputError("element \(element.index): " + describe(error, base: range.lowerBound))
                }
            }
            try body(element, value)
            shown &+= 1
            if let chosen = options.element { return .element(chosen) }
            if let limit = options.limit, shown >= limit { return .limit }
            return nil
        }
        func release() throws -> StreamStop? {
            checked = true
            defer { held.removeAll() }
            for element in held {
                if let stop = try show(element) { return stop }
            }
            return nil
        }

        if options.limit == 0 { return try end(0, .limit) }
        while true {
            let chunk: Data
            do {
                chunk = try source.read(upTo: chunkSize)
            } catch {
                throw InputError("\(inputName(input.file)): cannot be read (\(error.localizedDescription))")
            }
            if chunk.isEmpty { break }
            splitter.add(chunk)
            do {
                while let element = try splitter.nextElement() {
                    if checked {
                        if let stop = try show(element) { return try end(shown, stop) }
                        continue
                    }
                    held.append(element)
                    heldBytes &+= element.bytes?.count ?? 0
                    if held.count >= Self.lookaheadElements || heldBytes >= Self.lookaheadBytes {
                        if let stop = try release() { return try end(shown, stop) }
                    }
                }
            } catch let error as InputError {
                throw error
            } catch {
                throw framingError(error, checked: checked)
            }
        }
        do {
            try splitter.finish()
        } catch {
            // A torn last element after elements that read as containers is a v3 stream cut
            // short (what a crash mid-write leaves): show them, then the error.
            if !checked, !held.isEmpty, held.allSatisfy(readsAsContainer) {
                if let stop = try release() { return try end(shown, stop) }
            }
            throw framingError(error, checked: checked)
        }
        if let stop = try release() { return try end(shown, stop) }
        if let chosen = options.element {
            throw InputError(
                "the stream has \(plural(splitter.elementCount, "element")): there is no element \(chosen)")
        }
        try end(shown, .end)
    }

    /// Whether `element` is nil or reads as a keyed or unkeyed container.
    private func readsAsContainer(_ element: BinaryStreamSplitter.Element) -> Bool {
        guard element.range != nil else { return true }
        guard let bytes = element.bytes, let node = try? BinaryDecoder(format: .v3).decodeRaw(from: bytes) else {
            return false
        }
        return node.shape != .bytes
    }

    /// The error for bad framing; before any element was shown in auto mode, it says the
    /// input may not be a v3 stream at all.
    private func framingError(_ error: any Error, checked: Bool) -> InputError {
        let text = describe(error)
        guard !checked else { return InputError(text) }
        return InputError("not a v3 stream: \(text) (a v2 stream cannot be split without its type)")
    }
}
