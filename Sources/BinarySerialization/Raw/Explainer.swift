import TreeCoding

/// Walks a raw tree, or a typed tree alongside the bytes, and writes a ``HexDump``.
struct Explainer {
    let reader: RawReader
    var dump: HexDump

    init(reader: RawReader) {
        self.reader = reader
        self.dump = HexDump(bytes: reader.bytes)
    }

    // MARK: - Without a type

    /// Every byte of `root`, the whole input.
    mutating func explainRaw(_ root: RawNode) {
        switch root.content {
        case .bytes:
            dump.line(0..<root.byteCount, "value: " + Self.leafMeaning(root), depth: 0)
        case .keyed, .unkeyed:
            dump.line(0..<0, Self.containerMeaning(root), depth: 0)
            rawChildren(root, depth: 1)
        }
    }

    private mutating func rawChildren(_ node: RawNode, depth: Int) {
        switch node.content {
        case .bytes: break
        case .keyed(let fields):
            for field in fields {
                let keyEnd = field.keyOffset &+ Self.keySize(field)
                dump.line(field.keyOffset..<keyEnd, Self.keyMeaning(field, name: nil), depth: depth)
                rawElement(field.value, label: Self.label(field.key), at: keyEnd, depth: depth)
            }
        case .unkeyed(let elements):
            var cursor = node.offset
            for (i, element) in elements.enumerated() {
                cursor = rawElement(element, label: "[\(i)]", at: cursor, depth: depth)
            }
        }
    }

    /// One element (its prefix starting at `start`); returns the offset after it.
    @discardableResult
    private mutating func rawElement(_ value: RawNode?, label: String, at start: Int, depth: Int) -> Int {
        guard let value else {
            dump.line(start..<(start &+ 1), label + ": nil", depth: depth)
            return start &+ 1
        }
        let end = value.offset &+ value.byteCount
        switch value.content {
        case .bytes:
            dump.line(start..<end, label + ": " + Self.leafMeaning(value), depth: depth)
        case .keyed, .unkeyed:
            dump.line(start..<value.offset, label + ": " + Self.containerMeaning(value), depth: depth)
            rawChildren(value, depth: depth &+ 1)
        }
        return end
    }

    // MARK: - With a type

    /// Every byte of the input, labelled by `tree` (from `decodeTree`) where it fits.
    mutating func explainTyped(_ tree: BinaryValue, typeName: String) {
        typedValue(tree, content: 0..<reader.bytes.count, prefixStart: 0, label: typeName, depth: 0, topLevel: true)
    }

    /// The value `tree` stored in `content`, whose prefix (if any) starts at `prefixStart`.
    private mutating func typedValue(
        _ tree: BinaryValue, content: Range<Int>, prefixStart: Int, label: String, depth: Int, topLevel: Bool
    ) {
        var inner = tree
        var levels = 0
        while true {
            if case .single(let v) = inner {
                inner = v
            } else if case .optional(.some(let v)) = inner {
                inner = v
            } else {
                break
            }
            levels &+= 1
        }
        let leafLine = { (dump: inout HexDump) in
            dump.line(
                prefixStart..<content.upperBound,
                label + ": " + Self.treeText(tree) + " (\(HexDump.plural(content.count, "byte")))", depth: depth)
        }
        let flags = reader.format == .v3 ? (topLevel ? levels : max(levels &- 1, 0)) : levels
        guard reader.format == .v3 || flags == 0 else { return leafLine(&dump) }
        let start = content.lowerBound &+ flags
        guard start <= content.upperBound, reader.bytes[content.lowerBound..<start].allSatisfy({ $0 == 0 }) else {
            return leafLine(&dump)
        }
        let body = start..<content.upperBound
        switch inner {
        case .keyed(let treeFields):
            let framed = reader.format == .v3 ? reader.frameV3Keyed(body) : reader.frameV2Keyed(body)
            guard let framed else { return leafLine(&dump) }
            typedHeader(
                prefixStart, content, flags,
                label
                    + ": keyed container (\(HexDump.plural(framed.count, "field")), \(HexDump.plural(body.count, "byte")))",
                depth)
            for f in framed {
                // Fields the type did not read are in the tree as `.unknown` (v3): explain them untyped.
                let match = treeFields.first { field in
                    if case .unknown = field.value { return false }
                    return Self.matches(f.key, field.key)
                }
                let name = match.map { $0.key.stringValue }
                let field = RawField(keyOffset: f.keyOffset, key: f.key, wireType: f.wireType, value: nil)
                let keyEnd = f.keyOffset &+ Self.keySize(field)
                dump.line(f.keyOffset..<keyEnd, Self.keyMeaning(field, name: name), depth: depth &+ 1)
                let childLabel = name ?? Self.label(f.key)
                guard let valueRange = f.value else {
                    dump.line(keyEnd..<(keyEnd &+ 1), childLabel + ": nil", depth: depth &+ 1)
                    continue
                }
                if let match, f.wireType == nil || f.wireType == 2 {
                    typedValue(
                        match.value, content: valueRange, prefixStart: keyEnd, label: childLabel, depth: depth &+ 1,
                        topLevel: false)
                } else if let match {
                    let size = " (\(HexDump.plural(valueRange.count, "byte")))"
                    dump.line(
                        keyEnd..<valueRange.upperBound, childLabel + ": " + Self.treeText(match.value) + size,
                        depth: depth &+ 1)
                } else {
                    untypedElement(
                        valueRange, wireType: f.wireType, label: childLabel + " (not read by the type)", at: keyEnd,
                        depth: depth &+ 1)
                }
            }
        case .unkeyed(let elements) where reader.format == .v3:
            guard let framed = reader.frameV3Unkeyed(body), framed.count == elements.count else {
                return leafLine(&dump)
            }
            typedHeader(
                prefixStart, content, flags,
                label
                    + ": unkeyed container (\(HexDump.plural(framed.count, "element")), \(HexDump.plural(body.count, "byte")))",
                depth)
            var cursor = body.lowerBound
            for (i, (range, element)) in zip(framed, elements).enumerated() {
                guard let range else {
                    dump.line(cursor..<(cursor &+ 1), "[\(i)]: nil", depth: depth &+ 1)
                    cursor &+= 1
                    continue
                }
                typedValue(
                    element, content: range, prefixStart: cursor, label: "[\(i)]", depth: depth &+ 1, topLevel: false)
                cursor = range.upperBound
            }
        default:
            leafLine(&dump)
        }
    }

    /// The line before a container's contents: its prefix and any flag bytes (or nothing, at the top).
    private mutating func typedHeader(
        _ prefixStart: Int, _ content: Range<Int>, _ flags: Int, _ meaning: String, _ depth: Int
    ) {
        let flagText = flags == 0 ? "" : " after \(HexDump.plural(flags, "flag byte")) 00"
        dump.line(prefixStart..<(content.lowerBound &+ flags), meaning + flagText, depth: depth)
    }

    /// A field the type does not read: explained as without a type.
    private mutating func untypedElement(
        _ range: Range<Int>, wireType: UInt8?, label: String, at start: Int, depth: Int
    ) {
        if let node = try? reader.node(range, depth: depth, wireType: wireType) {
            rawElement(node, label: label, at: start, depth: depth)
        } else {
            dump.line(start..<range.upperBound, label + ": \(HexDump.plural(range.count, "byte"))", depth: depth)
        }
    }

    // MARK: - Text

    static func matches(_ raw: RawKey, _ key: BinaryKey) -> Bool {
        switch raw {
        case .int(let k): return key.intValue.map { UInt64(exactly: $0) == k } ?? false
        case .string(let s): return key.intValue == nil && key.stringValue == s
        }
    }

    /// A tree node on one line, at most 72 characters.
    static func treeText(_ tree: BinaryValue) -> String {
        let words = tree.description.split(whereSeparator: { $0 == "\n" || $0 == " " })
        let text = words.joined(separator: " ")
        return text.count > 72 ? String(text.prefix(71)) + "…" : text
    }

    static func label(_ key: RawKey) -> String {
        switch key {
        case .int(let k): return String(k)
        case .string(let s): return RawText.isPrintable(s) && !s.isEmpty ? s : RawText.quoted(s, limit: 40)
        }
    }

    static func keySize(_ field: RawField) -> Int {
        var out: [UInt8] = []
        let shift: UInt64 = field.wireType == nil ? 1 : 4
        switch field.key {
        case .int(let k): RawVarint.write(k &<< shift, to: &out)
        case .string(let s):
            RawVarint.write(UInt64(s.utf8.count) &<< shift, to: &out)
            return out.count &+ s.utf8.count
        }
        return out.count
    }

    static func keyMeaning(_ field: RawField, name: String?) -> String {
        var details: [String] = []
        var text: String
        switch field.key {
        case .int(let k):
            text = "key \(k)"
            details.append("int key")
            if let name, name != String(k) { text += " " + RawText.quoted(name, limit: 40) }
        case .string(let s):
            text = "key " + RawText.quoted(s, limit: 40)
            details.append("string key, \(HexDump.plural(s.utf8.count, "byte"))")
        }
        if let t = field.wireType { details.append(HexDump.wireTypeName(t)) }
        return text + " (" + details.joined(separator: ", ") + ")"
    }

    static func containerMeaning(_ node: RawNode) -> String {
        node.shape.description.replacingLastParenthesis(with: ", \(HexDump.plural(node.byteCount, "byte")))")
            + alternativesText(node)
    }

    static func leafMeaning(_ node: RawNode) -> String {
        guard case .bytes(_, let readings) = node.content else { return containerMeaning(node) }
        let size = "(\(HexDump.plural(node.byteCount, "byte")))"
        if node.byteCount == 0 { return "empty (0 bytes: empty string, data, array or container)" }
        if readings.isEmpty { return "bytes " + size + alternativesText(node) }
        return readings.prefix(3).map(\.description).joined(separator: " | ") + " " + size + alternativesText(node)
    }

    static func alternativesText(_ node: RawNode) -> String {
        node.alternatives.isEmpty ? "" : "; also fits " + node.alternatives.map(\.description).joined(separator: ", ")
    }
}

extension String {
    /// The string with its final `)` replaced by `text`.
    fileprivate func replacingLastParenthesis(with text: String) -> String {
        guard hasSuffix(")") else { return self + text }
        return String(dropLast()) + text
    }
}
