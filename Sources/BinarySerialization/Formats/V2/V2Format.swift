import TreeCoding

/// Reading legacy v2 bytes.
///
/// Node tags:
/// - `raw`: a value whose extent is known (the whole input, the value of a key, the content of a
///   length-delimited value); it must fill its range. `wireType` is the key's wire type, if any.
/// - `element`: the next value of an unkeyed container (or after an optional's flag), read from a
///   cursor shared with the container; its extent is found by reading it as the requested type.
/// - `nilElement`: an index of the container's nil index set.
enum V2Format {
    static let raw: UInt8 = 0
    static let element: UInt8 = 1
    static let nilElement: UInt8 = 2
    static let noWireType: UInt8 = 0xff

    /// The reader for data without / with nil index sets (`prependNilIndexSetForUnkeyedContainers`):
    /// a type, not an object, so that handing the format around counts no references.
    static func reader(nilIndexSets: Bool) -> any ByteFormat.Type {
        nilIndexSets ? WithNilIndexSets.self : WithoutNilIndexSets.self
    }

    /// The whole input as a raw node.
    static func root(_ buffer: UnsafeRawBufferPointer) -> ByteNode {
        ByteNode(buffer: buffer, start: 0, end: buffer.count, tag: raw, extra: noWireType)
    }

    /// An element node reading from `cursor`.
    static func element(_ buffer: UnsafeRawBufferPointer, _ cursor: ByteCursor) -> ByteNode {
        element(buffer, cursor, at: cursor.offset, end: cursor.end)
    }

    /// An element node reading from `cursor`, whose position (`at`) and end the caller has read.
    @inline(__always)
    static func element(_ buffer: UnsafeRawBufferPointer, _ cursor: ByteCursor, at start: Int, end: Int) -> ByteNode {
        ByteNode(buffer: buffer, start: start, end: end, tag: element, cursor: cursor)
    }

    /// The reader of data without nil index sets.
    enum WithoutNilIndexSets: Reader { static var nilIndexSetsAreWritten: Bool { false } }
    /// The reader of data with nil index sets.
    enum WithNilIndexSets: Reader { static var nilIndexSetsAreWritten: Bool { true } }
}

extension V2Format {
    /// The v2 reader, with or without nil index sets: one implementation, in an extension,
    /// compiled for each of the two conforming types. (A generic `Reader<Sets>` ran its witnesses
    /// as unspecialized generic code.)
    protocol Reader: ByteFormat {
        /// Whether unkeyed containers start with the indices of their `encodeNil()` elements.
        static var nilIndexSetsAreWritten: Bool { get }
    }
}

extension V2Format.Reader {
    static func isNil(_ node: ByteNode) -> Bool { node.tag == V2Format.nilElement }

    /// The shared read position of an element node. Every element is made with one; a node
    /// without it is a bug here, reported as an error rather than read as something else.
    private static func cursor(of node: ByteNode) throws -> ByteCursor {
        guard let cursor = node.cursor else { throw noCursor(node) }
        return cursor
    }

    @inline(never)
    private static func noCursor(_ node: ByteNode) -> WireFormatError {
        WireFormatError(.unsupported, "internal error: an element without a read position", offset: node.start)
    }

    @inline(never)
    private static func foundNil(_ expected: String, _ node: ByteNode) -> WireFormatError {
        WireFormatError(.valueNotFound, "expected \(expected), found nil", offset: node.start)
    }

    /// Checks that a key's wire type fits the request.
    @inline(__always)
    private static func expect(_ node: ByteNode, _ type: V2WireType, for what: @autoclosure () -> String) throws {
        guard node.tag == V2Format.raw, node.wireType != V2Format.noWireType, node.wireType != type.rawValue else {
            return
        }
        let actual = V2WireType(rawValue: node.wireType).map { "\($0)" } ?? "\(node.wireType)"
        // Bool has been written both as a varint and as a byte.
        if type == .varint, node.wireType == V2WireType.byte.rawValue, what() == "a Bool" { return }
        throw WireFormatError(
            .typeMismatch, "expected \(what()) (wire type \(type)), found wire type \(actual)", offset: node.start)
    }

    /// The range of a length-delimited value: the raw range, or a length read at the cursor.
    /// In element mode the node becomes that raw range, so asking twice gives the same answer.
    @inline(__always)
    private static func delimitedRange(_ node: inout ByteNode, _ what: @autoclosure () -> String) throws -> (
        Int, Int
    ) {
        if node.tag == V2Format.raw, node.wireType == V2WireType.lengthDelimited.rawValue {
            return (node.start, node.end)
        }
        return try delimitedRangeSlow(&node, what)
    }

    /// ``delimitedRange(_:_:)`` of anything but a field stored length-delimited: an element, a
    /// field with another wire type (an error), a raw value without one, or nil.
    @inline(never)
    private static func delimitedRangeSlow(_ node: inout ByteNode, _ what: () -> String) throws -> (Int, Int) {
        switch node.tag {
        case V2Format.raw:
            try expect(node, .lengthDelimited, for: what())
            return (node.start, node.end)
        case V2Format.element:
            // The node's reference is moved out, not copied: the node becomes a raw range
            // without a cursor, and a copy cost a retain and a release per element.
            guard let cursor = node.cursor.take() else { throw Self.noCursor(node) }
            var r = ByteReader(
                buffer: node.buffer, offset: cursor.offset, end: cursor.end, isOpenEnded: cursor.isOpenEnded)
            let length = try r.length("the length of \(what())")
            let start = r.offset
            cursor.offset = start + length
            // The node's fields are set one by one: assigning a whole node went through an
            // outlined copy of it.
            node.start = start
            node.end = start + length
            node.tag = V2Format.raw
            node.extra = V2Format.noWireType
            return (start, start + length)
        default:
            throw foundNil(what(), node)
        }
    }

    /// Each entry is a key varint carrying the wire type (`k << 4 | type` or
    /// `len << 4 | 8 | type` + UTF-8), then the value in that wire type.
    static func keyedEntries(_ node: inout ByteNode, into entries: KeyedEntries) throws {
        let (start, end) = try delimitedRange(&node, "a keyed container")
        let buffer = node.buffer
        var r = ByteReader(buffer: buffer, offset: start, end: end)
        let stringKey = ByteKeyedView.Entry.stringKey
        while !r.isAtEnd {
            let keyAt = r.offset
            let raw = try r.varint()
            if raw == 0, r.isAtEnd { throw trailingZero(at: keyAt) }
            let (key, wireTypeBits) = V2Framing.key(raw)
            guard let type = V2WireType(rawValue: wireTypeBits) else { throw unknownWireType(raw, at: keyAt) }
            var intKey = stringKey
            var keyStart = keyAt
            var keyLength = 0
            switch key {
            case .string(let byteCount): (keyStart, keyLength) = try r.keyBytes(byteCount, keyAt: keyAt)
            case .int(let k): intKey = k
            }
            var valueStart = r.offset
            do {
                switch type {
                case .varint: _ = try r.varint()
                case .eightBytes: try r.skip(8)
                case .fourBytes: try r.skip(4)
                case .twoBytes: try r.skip(2)
                case .byte: try r.skip(1)
                case .lengthDelimited:
                    let length = try r.length("a value")
                    valueStart = r.offset
                    r.offset += length
                }
            } catch let error as WireFormatError {
                throw naming(error, intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: buffer)
            }
            entries.append(
                intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: buffer, start: valueStart,
                end: r.offset, tag: V2Format.raw, extra: type.rawValue)
        }
    }

    @inline(never)
    private static func unknownWireType(_ raw: UInt64, at offset: Int) -> WireFormatError {
        WireFormatError(.invalidBytes, "unknown wire type \(raw & 7)", offset: offset)
    }

    /// `error`, in framing the value of a field, naming the field for the error's coding path.
    /// (Out of line, as the other errors: the loop that frames every field stays small.)
    @inline(never)
    private static func naming(
        _ error: WireFormatError, intKey: Int, keyStart: Int, keyLength: Int, buffer: UnsafeRawBufferPointer
    ) -> WireFormatError {
        let field = ByteKeyedView.Entry(
            intKey: intKey, keyStart: keyStart, keyLength: keyLength, buffer: buffer, start: 0, end: 0,
            tag: V2Format.raw)
        var error = error
        error.key = ByteKeyedView.key(of: field, buffer)
        return error
    }

    static func unkeyedView(_ node: inout ByteNode, elementHint: ScalarKind?, cursors: ByteCursorPool?) throws
        -> ByteUnkeyedView
    {
        let (start, end) = try delimitedRange(&node, "an unkeyed container")
        var r = ByteReader(buffer: node.buffer, offset: start, end: end)
        let nils = nilIndexSetsAreWritten ? try Self.nilIndexSet(&r) : []
        let cursor =
            cursors?.cursor(offset: r.offset, end: end, absentIndices: nils, elementHint: elementHint)
            ?? ByteCursor(offset: r.offset, end: end, absentIndices: nils, elementHint: elementHint)
        return ByteUnkeyedView(buffer: node.buffer, offset: r.offset, end: end, cursor: cursor)
    }

    /// The indices written with `encodeNil()`, ascending, that start an unkeyed container when
    /// `prependNilIndexSetForUnkeyedContainers` is on: a count, then the indices.
    private static func nilIndexSet(_ r: inout ByteReader) throws -> [Int] {
        let countAt = r.offset
        let count = try r.varint()
        guard count <= UInt64(r.remaining) else {
            throw WireFormatError(
                .truncated, "a nil index set of \(count) entries exceeds the data", offset: countAt)
        }
        var nils: [Int] = []
        for _ in 0..<Int(count) {
            let at = r.offset
            let i = try r.varint()
            guard i <= UInt64(Int32.max), nils.last.map({ UInt64($0) < i }) ?? true else {
                throw WireFormatError(.invalidBytes, "nil index \(i) is out of order or too large", offset: at)
            }
            nils.append(Int(i))
        }
        return nils
    }

    /// v2 writes nothing for a single-value container: the content is the node itself.
    static func singleValueContent(_ node: inout ByteNode) throws -> ByteNode? {
        node.tag == V2Format.nilElement ? nil : node
    }

    /// A single-value `encodeNil()` is the byte `00` (the same byte as a zig-zag or varint 0:
    /// v2 cannot tell them apart, so only a type that asks `decodeNil()` reads it as nil).
    /// Read from an element, the byte is consumed.
    static func singleValueHoldsNil(_ content: ByteNode) -> Bool {
        switch content.tag {
        case V2Format.nilElement:
            return true
        case V2Format.raw:
            return content.end - content.start == 1 && content.buffer[content.start] == 0
        default:
            guard let cursor = content.cursor, cursor.offset < cursor.end, content.buffer[cursor.offset] == 0 else {
                return false
            }
            cursor.offset += 1
            return true
        }
    }

    /// A value that decodes nothing was written as an empty container: length-delimited in an
    /// element, so its length (and any bytes it covers) is consumed.
    static func finishUnopened(_ node: inout ByteNode) throws {
        guard node.tag == V2Format.element, node.cursor != nil else { return }
        _ = try delimitedRange(&node, "an empty container")
    }

    /// v2 values carry no length of their own in every wire type, and cannot be written back
    /// without their type: fields the type does not read are left out of `decodeTree`.
    static func unreadValue(_ node: ByteNode) -> BinaryValue? { nil }

    /// An optional is a flag byte (`01` present, `00` nil) and then the value as an element.
    static func optionalContent(_ node: inout ByteNode) throws -> ByteNode? {
        let cursor: ByteCursor
        switch node.tag {
        case V2Format.nilElement:
            return nil
        case V2Format.raw:
            try expect(node, .lengthDelimited, for: "an optional")
            cursor = ByteCursor(offset: node.start, end: node.end)
        default:
            cursor = try Self.cursor(of: node)
        }
        let at = cursor.offset
        guard at < cursor.end else {
            var error = WireFormatError(.truncated, "the data ends before the flag of an optional", offset: at)
            if cursor.isOpenEnded { error.regionEnd = cursor.end }
            throw error
        }
        switch node.buffer[at] {
        case 0:
            cursor.offset = at + 1
            if node.tag == V2Format.raw, at + 1 != node.end {
                throw WireFormatError(
                    .trailingBytes, "\(byteCount(node.end - at - 1)) after a nil optional", offset: at + 1)
            }
            return nil
        case 1:
            cursor.offset = at + 1
            return V2Format.element(node.buffer, cursor)
        case let b:
            throw WireFormatError(.invalidBytes, "an optional's flag must be 0 or 1, found \(b)", offset: at)
        }
    }

    /// After an optional's value: content read from a raw range must fill it.
    static func finishContent(_ node: ByteNode, _ content: ByteNode) throws {
        guard node.tag == V2Format.raw, content.tag == V2Format.element, let cursor = content.cursor else { return }
        if cursor.offset != node.end {
            throw WireFormatError(
                .trailingBytes, "\(byteCount(node.end - cursor.offset)) after an optional's value",
                offset: cursor.offset)
        }
    }

    static func decodeScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue {
        try readScalar(&node, kind) { try Scalars.read(kind, from: &$0) }
    }

    static func decodeBits(_ node: inout ByteNode, _ kind: ScalarKind) throws -> UInt64 {
        try readScalar(&node, kind) { try Scalars.readBits(kind, from: &$0) }
    }

    static func decodeString(_ node: inout ByteNode) throws -> String {
        try readScalar(&node, .string) { try Scalars.readString(&$0) }
    }

    /// A primitive of `kind` that `read` takes from the node's bytes: a length-delimited string
    /// or data, a raw field's value (which it must use up), or an element at the cursor.
    /// `read` has one call site, so that the compiler inlines it (as `Scalars.readBits`) here.
    @inline(__always)
    private static func readScalar<T>(
        _ node: inout ByteNode, _ kind: ScalarKind, _ read: (inout ByteReader) throws -> T
    )
        throws -> T
    {
        var r: ByteReader
        // The element's cursor, moved past what `read` took; nil when `read` must fill `r`.
        var cursor: ByteCursor? = nil
        switch kind {
        case .string, .data:
            let (start, end) = try delimitedRange(&node, "\(kind)")
            r = ByteReader(buffer: node.buffer, offset: start, end: end)
        default:
            switch node.tag {
            case V2Format.raw:
                try expect(node, V2WireType.of(kind), for: kind.withArticle)
                r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
            case V2Format.element:
                let elementCursor = try Self.cursor(of: node)
                r = ByteReader(
                    buffer: node.buffer, offset: elementCursor.offset, end: elementCursor.end,
                    isOpenEnded: elementCursor.isOpenEnded)
                cursor = elementCursor
            default:
                throw foundNil(kind.withArticle, node)
            }
        }
        let value = try read(&r)
        if let cursor {
            cursor.offset = r.offset
        } else if !r.isAtEnd {
            throw extraBytes(after: kind, node, at: r.offset, atRoot: node.tag == V2Format.raw)
        }
        return value
    }

    static func decodePacked(_ node: inout ByteNode, _ kind: PackedArray.Kind) throws -> PackedArray {
        let (start, end) = try delimitedRange(&node, "[\(kind.rawValue)]")
        var r = ByteReader(buffer: node.buffer, offset: start, end: end)
        if nilIndexSetsAreWritten {
            // BinaryCodable 2.x writes the (empty) nil index set before packed arrays too.
            let at = r.offset
            let count = try r.varint()
            guard count == 0 else {
                throw WireFormatError(
                    .typeMismatch, "expected [\(kind.rawValue)], found a nil index set of \(count) entries",
                    offset: at)
            }
        }
        return try Scalars.readPacked(kind, from: &r)
    }

    /// `[String]`: after the nil index set (if the option is on; a string array has no nils),
    /// each element is `varint(length)` and the UTF-8 bytes, read in one loop.
    static func decodeStringArray(_ node: inout ByteNode) throws -> [String]? {
        let (start, end) = try delimitedRange(&node, "[String]")
        var r = ByteReader(buffer: node.buffer, offset: start, end: end)
        if nilIndexSetsAreWritten, let index = try Self.nilIndexSet(&r).first {
            var error = WireFormatError(.valueNotFound, "expected String, found nil", offset: start)
            error.key = BinaryKey.index(index)
            throw error
        }
        var out: [String] = []
        var index = 0
        while !r.isAtEnd {
            do {
                let length = try r.length("a String")
                var content = ByteReader(buffer: node.buffer, offset: r.offset, end: r.offset + length)
                out.append(try Scalars.readString(&content))
                r.offset = content.offset
            } catch var error as WireFormatError {
                error.key = BinaryKey.index(index)
                throw error
            }
            index &+= 1
        }
        return out
    }

    // MARK: Unkeyed containers: elements back to back, after an optional nil index set

    // The view's `offset`, which v2 does not read from (its elements are read at the cursor),
    // is where the element handed out last started, or -1 after a nil element: moving to the
    // next index checks that the element was read.

    // The nil index set and the element hint are kept in the view's cursor, which every v2 view
    // has (``ByteUnkeyedView`` stays under the size at which it is copied when made).

    private static func atNil(_ view: ByteUnkeyedView) -> Bool {
        guard nilIndexSetsAreWritten, let cursor = view.cursor else { return false }
        return atNil(cursor, view.currentIndex)
    }

    /// Whether the element at `index` of the container `cursor` reads is in its nil index set.
    private static func atNil(_ cursor: ByteCursor, _ index: Int) -> Bool {
        let next = cursor.nextAbsent
        return next < cursor.absentIndices.count && cursor.absentIndices[next] == index
    }

    /// The indices of the nil index set not yet reached.
    private static func remainingNils(_ view: ByteUnkeyedView) -> Int {
        guard nilIndexSetsAreWritten, let cursor = view.cursor else { return 0 }
        return cursor.absentIndices.count - cursor.nextAbsent
    }

    /// Moves past the nil at the current index (``atNil(_:)``).
    private static func passNil(_ view: inout ByteUnkeyedView) {
        view.offset = -1
        view.cursor?.nextAbsent += 1
        view.currentIndex += 1
    }

    private static func offset(_ view: ByteUnkeyedView) -> Int { view.cursor?.offset ?? view.end }

    /// At the end when the bytes are used up and every index of the nil index set was reached:
    /// an index past the last element is not skipped (the container would decode as if it were
    /// not there) but left for the type's next request, which fails.
    static func isAtEnd(_ view: ByteUnkeyedView) -> Bool {
        offset(view) >= view.end && remainingNils(view) <= 0
    }

    /// Unknown without the element type (`nil`), except when the container is empty or the
    /// decoder names the element type in advance (SIMD vectors). Not recorded in `counts`: the
    /// answer depends on how far the container was read.
    static func count(_ view: ByteUnkeyedView, counts: UnkeyedCounts?) -> Int? {
        let remainingNils = remainingNils(view)
        if offset(view) >= view.end { return view.currentIndex + remainingNils }
        guard let hint = view.cursor?.elementHint else { return nil }
        var r = ByteReader(buffer: view.buffer, offset: offset(view), end: view.end)
        var n = 0
        while !r.isAtEnd {
            guard (try? Scalars.read(hint, from: &r)) != nil else { return nil }
            n += 1
        }
        return view.currentIndex + n + remainingNils
    }

    static func decodeNil(_ view: inout ByteUnkeyedView) throws -> Bool {
        if atNil(view) {
            try checkPreviousElementWasRead(view.currentIndex, startedAt: view.offset, position: offset(view))
            passNil(&view)
            return true
        }
        if offset(view) >= view.end { throw atEnd(offset(view)) }
        return false
    }

    static func nextElement(_ view: inout ByteUnkeyedView) throws -> ByteNode {
        // Every v2 view has a cursor. Its position is read once (an accessor call from this
        // module), and the view is not handed to helpers (each call copied it).
        guard let cursor = view.cursor else { throw atEnd(view.end) }
        let position = cursor.offset
        try checkPreviousElementWasRead(view.currentIndex, startedAt: view.offset, position: position)
        if nilIndexSetsAreWritten, atNil(cursor, view.currentIndex) {
            passNil(&view)
            return ByteNode(buffer: view.buffer, start: position, end: position, tag: V2Format.nilElement)
        }
        let end = cursor.end
        guard position < end else { throw atEnd(position) }
        view.offset = position
        view.currentIndex += 1
        return V2Format.element(view.buffer, cursor, at: position, end: end)
    }

    @inline(never)
    private static func atEnd(_ offset: Int) -> WireFormatError {
        WireFormatError(.valueNotFound, "the unkeyed container is at its end", offset: offset)
    }

    /// Every element occupies at least one byte: one that read nothing (a type that decodes
    /// nothing from it) would leave the next element where it started, and a loop to the
    /// container's end would never end. Checked as the container moves on rather than after
    /// each element, so that an element can be read after the call that hands it out returns
    /// (`superDecoder()`); the error names the element. `index` is the view's current index,
    /// `start` where its last element started (the view's `offset`) and `position` the cursor's:
    /// plain values, not the view, which a call would copy.
    @inline(__always)
    private static func checkPreviousElementWasRead(_ index: Int, startedAt start: Int, position: Int) throws {
        guard index > 0, start == position else { return }
        throw elementReadNothing(index: index - 1, at: start)
    }

    @inline(never)
    private static func elementReadNothing(index: Int, at offset: Int) -> WireFormatError {
        var error = WireFormatError(.invalidBytes, "an element was decoded without reading any bytes", offset: offset)
        error.earlierElement = index
        return error
    }
}

extension ByteNode {
    /// v2 keeps the wire type of the key a value was read under in the node's format-defined
    /// ``ByteNode/extra`` byte (`V2Format.noWireType` when there is no key).
    var wireType: UInt8 { extra }
}
