/// Reads bytes into a ``RawNode`` tree without a type.
///
/// Each run of bytes is framed in the few ways its format allows (v3: keyed container, unkeyed
/// container; v2: keyed container), and one guess is expanded. The other framings are checked
/// only shallowly and kept as ``RawNode/alternatives``, so every run is framed a bounded number of
/// times and the children of one level never overlap: the work is O(n · depth).
struct RawReader {
    let bytes: [UInt8]
    let format: BinaryFormat
    /// The decoder's limit, in levels (``DepthGuard``).
    let maximumDepth: Int

    /// How deep containers may nest: without a type a level cannot be told from the containers
    /// inside one, so the rule is the tree writers' (``DepthGuard/nodeLimit(maximumDepth:)``), and
    /// whatever the decoder reads with the same limits is read here too.
    private var containerLimit: Int { DepthGuard.nodeLimit(maximumDepth: maximumDepth) }
    /// The calling thread's stack: a container is framed by a call of its own.
    private let stack = DecodingThreadCache.current.stack

    /// A key and the range of its value (`nil` for a v3 nil element), as framed.
    struct Framed {
        var keyOffset: Int
        var key: RawKey
        var wireType: UInt8?
        var value: Range<Int>?
    }

    /// The whole input as one node.
    func root() throws -> RawNode {
        try node(0..<bytes.count, depth: 0)
    }

    /// The node for `range`, a v2 payload of wire type `wireType` when given.
    func node(_ range: Range<Int>, depth: Int, wireType: UInt8? = nil) throws -> RawNode {
        if let wireType, wireType != 2 {
            return RawNode(
                offset: range.lowerBound, byteCount: range.count,
                content: .bytes(Array(bytes[range]), readings: Self.readings(bytes[range], wireType: wireType)))
        }
        let keyed = format == .v3 ? frameV3Keyed(range) : frameV2Keyed(range)
        let unkeyed = format == .v3 ? frameV3Unkeyed(range) : nil
        let choice = choose(range, keyed: keyed, unkeyed: unkeyed)
        // Only framings with something in them are worth listing: every run of bytes can be
        // an empty container when empty, and `01` is always an unkeyed container of one nil.
        var alternatives: [RawShape] = []
        if let keyed, !keyed.isEmpty, choice != .keyed(fieldCount: keyed.count) {
            alternatives.append(.keyed(fieldCount: keyed.count))
        }
        if let unkeyed, unkeyed.contains(where: { ($0?.count ?? 0) > 0 }),
            choice != .unkeyed(elementCount: unkeyed.count)
        {
            alternatives.append(.unkeyed(elementCount: unkeyed.count))
        }
        if choice != .bytes {
            guard depth < containerLimit else { throw Self.tooDeep(at: range.lowerBound, maximumDepth: maximumDepth) }
            guard stack.hasRoom() else {
                throw DecodingError.dataCorrupted(
                    WireFormatError.stackExhausted(levels: depth, offset: range.lowerBound).context())
            }
        }
        let content: RawNode.Content
        switch choice {
        case .keyed:
            var fields: [RawField] = []
            fields.reserveCapacity(keyed?.count ?? 0)
            for f in keyed ?? [] {
                let value = try f.value.map { try node($0, depth: depth &+ 1, wireType: f.wireType) }
                fields.append(RawField(keyOffset: f.keyOffset, key: f.key, wireType: f.wireType, value: value))
            }
            content = .keyed(fields)
        case .unkeyed:
            content = .unkeyed(try (unkeyed ?? []).map { try $0.map { try node($0, depth: depth &+ 1) } })
        case .bytes:
            content = .bytes(Array(bytes[range]), readings: RawReading.readings(of: bytes[range]))
        }
        return RawNode(offset: range.lowerBound, byteCount: range.count, content: content, alternatives: alternatives)
    }

    // MARK: - Guessing

    /// Picks the shape to expand. A keyed container with readable string keys wins; then printable
    /// text stays text; runs of one or two bytes are primitives; between an integer-keyed and an unkeyed
    /// framing, ascending keys decide; an integer-keyed or unkeyed framing of only empty or nil
    /// values is a primitive (`00 00` is more likely two zeros than two empty strings).
    private func choose(_ range: Range<Int>, keyed: [Framed]?, unkeyed: [Range<Int>?]?) -> RawShape {
        let n = range.count
        guard n > 0 else { return .bytes }
        let keyedShape = RawShape.keyed(fieldCount: keyed?.count ?? 0)
        var stringKeys = false
        var readableKeys = true
        var ascending = true
        var previous: UInt64?
        for f in keyed ?? [] {
            switch f.key {
            case .string(let s):
                stringKeys = true
                if s.isEmpty || !RawText.isPrintable(s) { readableKeys = false }
            case .int(let k):
                if let p = previous, p >= k { ascending = false }
                previous = k
            }
        }
        if keyed != nil, stringKeys, readableKeys { return keyedShape }
        if keyed == nil, unkeyed == nil { return .bytes }
        if n >= 2, isPrintableText(range) { return .bytes }
        if format == .v2 { return keyed != nil && readableKeys && n > 2 ? keyedShape : .bytes }
        guard n > 2 else { return .bytes }
        let unkeyedHasContent = unkeyed?.contains { ($0?.count ?? 0) > 0 } ?? false
        // Integer keys over only empty or nil values are more likely a fixed-size integer
        // (`2a 00 00 00`) than a struct of empty fields.
        let keyedHasContent = keyed?.contains { ($0.value?.count ?? 0) > 0 } ?? false
        switch (keyed != nil && readableKeys && keyedHasContent, unkeyed != nil && unkeyedHasContent) {
        case (true, true): return ascending ? keyedShape : .unkeyed(elementCount: unkeyed?.count ?? 0)
        case (true, false): return keyedShape
        case (false, true): return .unkeyed(elementCount: unkeyed?.count ?? 0)
        case (false, false): return .bytes
        }
    }

    /// Whether `range` is printable UTF-8 text. Decodes scalar by scalar and stops at the first
    /// invalid or unprintable one, so container bytes are usually rejected after a few bytes.
    private func isPrintableText(_ range: Range<Int>) -> Bool {
        var iterator = bytes[range].makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let u): if !RawText.isPrintable(u) { return false }
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    // MARK: - Framing

    /// A v3 element at `index`: its value range (`nil` for nil) and the index after it.
    private func v3Element(_ slice: ArraySlice<UInt8>, at index: Int) -> (Range<Int>?, Int)? {
        guard let (prefix, after) = RawVarint.read(slice, at: index) else { return nil }
        let length: UInt64
        switch V3Framing.element(prefix) {
        case .value(let bytes): length = bytes
        case .nilElement: return (nil, after)
        case .nilWithLength: return nil
        }
        guard length <= UInt64(slice.endIndex &- after) else { return nil }
        let end = after &+ Int(truncatingIfNeeded: length)
        return (after..<end, end)
    }

    /// A string key of `length` bytes at `index`, if they are there and valid UTF-8.
    private func stringKey(_ slice: ArraySlice<UInt8>, at index: Int, length: UInt64) -> (String, Int)? {
        guard length <= UInt64(slice.endIndex &- index) else { return nil }
        let end = index &+ Int(truncatingIfNeeded: length)
        guard let s = RawText.validUTF8(slice[index..<end]) else { return nil }
        return (s, end)
    }

    /// `range` as v3 (key, element) pairs consuming it exactly, keys unique.
    func frameV3Keyed(_ range: Range<Int>) -> [Framed]? {
        let slice = bytes[range]
        var fields: [Framed] = []
        var seen = Set<RawKey>()
        var i = range.lowerBound
        while i < range.upperBound {
            guard let (k, afterKey) = RawVarint.read(slice, at: i) else { return nil }
            let key: RawKey
            var j = afterKey
            switch V3Framing.key(k) {
            case .int(let i): key = .int(UInt64(i))
            case .string(let byteCount):
                guard let (s, end) = stringKey(slice, at: j, length: byteCount) else { return nil }
                key = .string(s)
                j = end
            }
            guard seen.insert(key).inserted, let (value, next) = v3Element(slice, at: j) else { return nil }
            fields.append(Framed(keyOffset: i, key: key, wireType: nil, value: value))
            i = next
        }
        return fields
    }

    /// `range` as v3 elements consuming it exactly.
    func frameV3Unkeyed(_ range: Range<Int>) -> [Range<Int>?]? {
        let slice = bytes[range]
        var elements: [Range<Int>?] = []
        var i = range.lowerBound
        while i < range.upperBound {
            guard let (value, next) = v3Element(slice, at: i) else { return nil }
            elements.append(value)
            i = next
        }
        return elements
    }

    /// `range` as v2 (key, payload) pairs consuming it exactly, keys unique, wire types known.
    func frameV2Keyed(_ range: Range<Int>) -> [Framed]? {
        let slice = bytes[range]
        var fields: [Framed] = []
        var seen = Set<RawKey>()
        var i = range.lowerBound
        while i < range.upperBound {
            guard let (k, afterKey) = RawVarint.read(slice, at: i) else { return nil }
            let wireType = V2Framing.key(k).wireTypeBits
            // The key's bits as stored: a raw reading shows a negative key's 60-bit pattern.
            var key = RawKey.int(V2Framing.keyBits(k))
            var j = afterKey
            if V2Framing.isStringKey(k) {
                guard let (s, end) = stringKey(slice, at: j, length: V2Framing.keyBits(k)) else { return nil }
                key = .string(s)
                j = end
            }
            guard seen.insert(key).inserted else { return nil }
            let start: Int
            let size: UInt64
            switch wireType {
            case 0:
                guard let (_, end) = RawVarint.read(slice, at: j) else { return nil }
                start = j
                size = UInt64(end &- j)
            case 1: (start, size) = (j, 8)
            case 5: (start, size) = (j, 4)
            case 6: (start, size) = (j, 1)
            case 7: (start, size) = (j, 2)
            case 2:
                guard let (length, after) = RawVarint.read(slice, at: j) else { return nil }
                (start, size) = (after, length)
            default: return nil
            }
            guard size <= UInt64(range.upperBound &- start) else { return nil }
            let end = start &+ Int(truncatingIfNeeded: size)
            fields.append(Framed(keyOffset: i, key: key, wireType: wireType, value: start..<end))
            i = end
        }
        return fields
    }

    // MARK: - Readings of v2 payloads

    /// The readings a v2 payload of a fixed-size or varint wire type allows.
    static func readings(_ bytes: ArraySlice<UInt8>, wireType: UInt8) -> [RawReading] {
        let all = RawReading.readings(of: bytes)
        return all.filter { reading in
            switch (wireType, reading) {
            case (0, .bool), (0, .varint): return true
            case (1, .double), (1, .littleEndian(_, 8)): return true
            case (5, .float), (5, .littleEndian(_, 4)): return true
            case (6, .byte): return true
            case (7, .littleEndian(_, 2)): return true
            default: return false
            }
        }
    }

    @inline(never)
    static func tooDeep(at offset: Int, maximumDepth: Int) -> DecodingError {
        let wire = WireFormatError(
            .limitExceeded,
            "containers nested deeper than \(DepthGuard.nodeLimit(maximumDepth: maximumDepth)) "
                + "(\(DepthGuard.nodesPerLevel) per level of the maximum depth of \(maximumDepth))",
            offset: offset)
        return DecodingError.dataCorrupted(wire.context())
    }
}
