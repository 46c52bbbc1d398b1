import Foundation
import TreeCoding

/// Reading proto3 bytes with the one decoder (``TreeDecoderImpl``).
///
/// A message is fields in any order, a field may occur more than once (a scalar keeps its last
/// value, a repeated field collects them, packed or not) and a field that is not stored reads as
/// its default. Node tags are a kind (high bits) and, for a field, its wire type (low three bits):
/// - `message`: `start..<end` are a message's fields (the top level);
/// - `value`: one occurrence, `start..<end` the whole field, its value `extra` bytes after the tag;
/// - `fields`: a field stored more than once: its occurrences are the fields numbered as the one
///   at `start`, up to `end` (the end of the enclosing message);
/// - `absent`: a field that is not stored;
/// - `packed`: the next number of a packed run, read at the node's cursor;
/// - `oneOf`: a ``ProtobufOneOf`` enum: the fields of the message that holds it (wire type 2: the
///   message is the length-delimited value at `start`, 0: `start..<end` are its fields), framed
///   as `member`s (the high bit, over the kind of the field's node): a keyed container opened on a
///   member reads the member's value for any key (a case's associated value, `_0` or a label).
///
/// A message stored in several occurrences is read as their contents one after the other (protobuf
/// merges them so), copied once into memory the decoding run owns (``ProtobufMerges``). Groups
/// (wire types 3 and 4) are framed and skipped as unknown fields.
enum ProtobufFormat: ByteFormat {
    static let message: UInt8 = 0
    static let value: UInt8 = 1 << 3
    static let fields: UInt8 = 2 << 3
    static let absent: UInt8 = 3 << 3
    static let packed: UInt8 = 4 << 3
    static let oneOf: UInt8 = 5 << 3
    static let member: UInt8 = 0x80

    static var needsTypeFacts: Bool { true }

    /// The whole input as the top-level message.
    static func root(_ buffer: UnsafeRawBufferPointer) -> ByteNode {
        ByteNode(buffer: buffer, start: 0, end: buffer.count, tag: message)
    }

    static func absentField() -> ByteNode? {
        ByteNode(buffer: UnsafeRawBufferPointer(start: nil, count: 0), start: 0, end: 0, tag: absent)
    }

    @inline(__always)
    private static func kind(_ node: ByteNode) -> UInt8 { node.tag & 0x78 }

    @inline(__always)
    private static func wireType(_ node: ByteNode) -> UInt8 { node.tag & 7 }

    @inline(never)
    static func unsupported(_ what: String, at offset: Int) -> WireFormatError {
        WireFormatError(.unsupported, "protobuf: \(what)", offset: offset)
    }

    // MARK: Fields

    /// Reads one field at `r` (a group whole).
    @inline(__always)
    static func field(_ r: inout ByteReader) throws -> ProtobufFieldEntry {
        try ProtobufFraming.field(&r, groupDepth: 0, maximumDepth: ProtobufFraming.maximumGroupDepth)
    }

    /// The last occurrence of a `fields` node (whose first occurrence is at its start), as a
    /// `value` node.
    private static func lastOccurrence(_ node: ByteNode) throws -> ByteNode {
        var r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
        let first = try field(&r)
        var last = valueNode(first, node.buffer)
        while !r.isAtEnd {
            let entry = try field(&r)
            if entry.number == first.number { last = valueNode(entry, node.buffer) }
        }
        return last
    }

    @inline(__always)
    private static func valueNode(_ entry: ProtobufFieldEntry, _ buffer: UnsafeRawBufferPointer) -> ByteNode {
        ByteNode(
            buffer: buffer, start: entry.tagStart, end: entry.end, tag: value | entry.wireType.rawValue,
            extra: UInt8(truncatingIfNeeded: entry.valueStart &- entry.tagStart))
    }

    static func keyedEntries(_ node: inout ByteNode, into entries: KeyedEntries) throws {
        // A member's container holds no fields: every key reads the member (``memberValue(_:)``).
        if node.tag & member != 0 { return }
        let start: Int
        var marks: UInt8 = 0
        switch kind(node) {
        case message:
            start = node.start
        case value where wireType(node) == ProtobufWireType.lengthDelimited.rawValue:
            start = node.start &+ Int(node.extra)
        case oneOf:
            start = wireType(node) == 0 ? node.start : node.start &+ Int(node.extra)
            marks = member
        case absent:
            return
        case fields:
            node = try ProtobufMerges.merged(occurrences(of: node), of: node.buffer)
            start = node.start
        default:
            throw notAMessage(node)
        }
        var r = ByteReader(buffer: node.buffer, offset: start, end: node.end)
        var previous = 0
        var ascending = true
        while !r.isAtEnd {
            let entry = try field(&r)
            if entry.number <= previous { ascending = false }
            previous = entry.number
            entries.append(
                intKey: entry.number, keyStart: entry.tagStart, keyLength: 0, buffer: node.buffer,
                start: entry.tagStart, end: entry.end, tag: marks | value | entry.wireType.rawValue,
                extra: UInt8(truncatingIfNeeded: entry.valueStart &- entry.tagStart))
        }
        if !ascending { mergeOccurrences(entries, end: node.end) }
    }

    @inline(never)
    static func notAMessage(_ node: ByteNode) -> WireFormatError {
        WireFormatError(
            .typeMismatch, "expected a message (wire type 2), found wire type \(wireType(node))", offset: node.start)
    }

    /// The values of the occurrences of the message field `node` holds (a `fields` node), in order.
    private static func occurrences(of node: ByteNode) throws -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        try forEachOccurrence(node) { occurrence in
            guard wireType(occurrence) == ProtobufWireType.lengthDelimited.rawValue else {
                throw notAMessage(occurrence)
            }
            ranges.append(occurrence.start &+ Int(occurrence.extra)..<occurrence.end)
        }
        return ranges
    }

    /// Makes the first entry of a number stored more than once a `fields` node (all of them) and
    /// drops the others, so that each number has one entry.
    @inline(never)
    private static func mergeOccurrences(_ entries: KeyedEntries, end: Int) {
        // Where each number's first entry went: numbers below 64 in a table, others in a dictionary
        // (a message of a repeated field has thousands of entries of one small number).
        var small = [Int](repeating: -1, count: 64)
        var large: [Int: Int] = [:]
        var kept: [ByteKeyedView.Entry] = []
        for entry in entries.elements {
            let number = entry.intKey
            let isSmall = UInt(bitPattern: number) < 64
            if let first = isSmall ? (small[number] >= 0 ? small[number] : nil) : large[number] {
                kept[first].valueTag = kept[first].valueTag & member | fields
                kept[first].valueEnd = end
                continue
            }
            if isSmall { small[number] = kept.count } else { large[number] = kept.count }
            kept.append(entry)
        }
        entries.removeAll()
        for entry in kept { entries.append(entry) }
    }

    // MARK: Scalars

    /// The error of a request for a type proto3 has no scalar for.
    @inline(never)
    static func noScalar(_ kind: ScalarKind) -> ProtobufDecodingError {
        switch kind {
        case .int8: return .unsupportedType("Int8")
        case .uint8: return .unsupportedType("UInt8")
        case .int16: return .unsupportedType("Int16")
        case .uint16: return .unsupportedType("UInt16")
        default: return .unsupportedType("\(kind)")
        }
    }

    /// The proto type a request for `kind` reads: a plain signed integer asks for `.zigZag` (v3's
    /// default) and is `int32`/`int64`; `chosen` (a wrapper's request) takes the encoding as asked.
    @inline(__always)
    static func scalarType(_ kind: ScalarKind, chosen: Bool) -> ProtobufScalarType? {
        @inline(__always) func signed(_ e: IntegerEncoding) -> IntegerEncoding { e.protobuf(plain: !chosen) }
        switch kind {
        case .bool: return .bool
        case .int32(let e): return .integer(signed: true, bits64: false, signed(e))
        case .int64(let e), .int(let e): return .integer(signed: true, bits64: true, signed(e))
        case .uint32(let e): return .integer(signed: false, bits64: false, e)
        case .uint64(let e), .uint(let e): return .integer(signed: false, bits64: true, e)
        case .float: return .float
        case .double: return .double
        case .string: return .string
        case .data: return .bytes
        case .int8, .uint8, .int16, .uint16: return nil
        }
    }

    /// The bits of a number of `type` at `r` (``ScalarKind/leaf(bits:)``'s layout).
    @inline(__always)
    static func readBits(_ type: ProtobufScalarType, _ r: inout ByteReader) throws -> UInt64 {
        switch type {
        case .int32, .int64, .uint32, .uint64: return try r.protobufVarint()
        case .sint32:
            let bits = UInt64(UInt32(truncatingIfNeeded: try r.protobufVarint()))
            return UInt64(truncatingIfNeeded: Int32(truncatingIfNeeded: unZigZag(bits)))
        case .sint64: return UInt64(bitPattern: unZigZag(try r.protobufVarint()))
        case .bool: return try r.protobufVarint() != 0 ? 1 : 0
        case .fixed32, .sfixed32, .float: return UInt64(try r.littleEndian(UInt32.self))
        case .fixed64, .sfixed64, .double: return try r.littleEndian(UInt64.self)
        case .string, .bytes: throw WireFormatError(.unsupported, "\(type) is not a number", offset: r.offset)
        }
    }

    /// The reader of the value of `type` that `node` holds (its last occurrence), or of the next
    /// number of its packed run; `nil` for an absent field.
    @inline(__always)
    private static func reader(_ node: inout ByteNode, _ type: ProtobufScalarType) throws -> ByteReader? {
        var current = node
        switch kind(node) {
        case value: break
        case absent: return nil
        case fields: current = try lastOccurrence(node)
        case packed: return try packedReader(node)
        default: throw unsupported("a message read as \(type)", at: node.start)
        }
        let wire = wireType(current)
        let valueStart = current.start &+ Int(current.extra)
        if wire == type.wireType.rawValue {
            return ByteReader(buffer: current.buffer, offset: valueStart, end: current.end)
        }
        // An element of a repeated field stored packed: the run starts here.
        guard wire == ProtobufWireType.lengthDelimited.rawValue, type.isPackable, let cursor = node.cursor,
            valueStart < current.end
        else {
            throw WireFormatError(
                .typeMismatch, "expected \(type) (wire type \(type.wireType)), found wire type \(wire)",
                offset: current.start)
        }
        cursor.reset(offset: valueStart, end: current.end, absentIndices: [], elementHint: cursor.elementHint)
        node.tag = packed
        return try packedReader(node)
    }

    /// The reader of the next number of the packed run at `node`'s cursor.
    @inline(__always)
    private static func packedReader(_ node: ByteNode) throws -> ByteReader {
        guard let cursor = node.cursor else { throw unsupported("a packed number without its run", at: node.start) }
        return ByteReader(buffer: node.buffer, offset: cursor.offset, end: cursor.end)
    }

    /// After a number was read at `r` from `node`: moves its run on, or checks it filled its field.
    @inline(__always)
    private static func finish(_ r: ByteReader, _ node: ByteNode) throws {
        if kind(node) == packed {
            node.cursor?.offset = r.offset
        } else if !r.isAtEnd {
            throw WireFormatError(.trailingBytes, "bytes after a value", offset: r.offset)
        }
    }

    static func decodeBits(_ node: inout ByteNode, _ kind: ScalarKind) throws -> UInt64 {
        try bits(&node, kind, chosen: false)
    }

    @inline(__always)
    private static func bits(_ node: inout ByteNode, _ kind: ScalarKind, chosen: Bool) throws -> UInt64 {
        guard let type = scalarType(kind, chosen: chosen), type.isPackable else { throw noScalar(kind) }
        // The common case first: stored once, in the type's wire type (no copy of the node).
        if Self.kind(node) == value, wireType(node) == type.wireType.rawValue {
            var r = ByteReader(buffer: node.buffer, offset: node.start &+ Int(node.extra), end: node.end)
            let bits = try readBits(type, &r)
            try finish(r, node)
            return bits
        }
        guard var r = try reader(&node, type) else { return 0 }
        let bits = try readBits(type, &r)
        try finish(r, node)
        return bits
    }

    static func decodeScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue {
        try scalar(&node, kind, chosen: false)
    }

    static func decodeChosenScalar(_ node: inout ByteNode, _ kind: ScalarKind) throws -> BinaryValue {
        try scalar(&node, kind, chosen: true)
    }

    private static func scalar(_ node: inout ByteNode, _ kind: ScalarKind, chosen: Bool) throws -> BinaryValue {
        switch kind {
        case .string: return .string(try decodeString(&node))
        case .data:
            guard var r = try reader(&node, .bytes) else { return .data(Data()) }
            let data = Data(UnsafeRawBufferPointer(rebasing: r.buffer[r.offset..<r.end]))
            r.offset = r.end
            return .data(data)
        default:
            return try kind.leaf(bits: bits(&node, kind, chosen: chosen))
        }
    }

    static func decodeString(_ node: inout ByteNode) throws -> String {
        guard var r = try reader(&node, .string) else { return "" }
        return try Scalars.readString(&r)
    }

    static func decodePacked(_ node: inout ByteNode, _ kind: PackedArray.Kind) throws -> PackedArray {
        switch kind {
        case .bool: return .bool(try numbers(node, .bool) { $0 != 0 })
        case .int32: return .int32(try numbers(node, .int32) { Int32(truncatingIfNeeded: $0) })
        case .int64: return .int64(try numbers(node, .int64) { Int64(bitPattern: $0) })
        case .int: return .int(try numbers(node, .int64) { Int(truncatingIfNeeded: $0) })
        case .uint32: return .uint32(try numbers(node, .uint32) { UInt32(truncatingIfNeeded: $0) })
        case .uint64: return .uint64(try numbers(node, .uint64) { $0 })
        case .uint: return .uint(try numbers(node, .uint64) { UInt(truncatingIfNeeded: $0) })
        case .float: return .float(try numbers(node, .float) { Float(bitPattern: UInt32(truncatingIfNeeded: $0)) })
        case .double: return .double(try numbers(node, .double) { Double(bitPattern: $0) })
        case .int8, .uint8, .int16, .uint16: throw ProtobufDecodingError.unsupportedType(kind.rawValue)
        }
    }

    /// The numbers of a repeated field of `type`, packed or not, in order.
    @inline(__always)
    private static func numbers<T>(_ node: ByteNode, _ type: ProtobufScalarType, _ make: (UInt64) -> T) throws -> [T] {
        var out: [T] = []
        try forEachOccurrence(node) { occurrence in
            let wire = wireType(occurrence)
            var r = ByteReader(
                buffer: occurrence.buffer, offset: occurrence.start &+ Int(occurrence.extra), end: occurrence.end)
            if wire == ProtobufWireType.lengthDelimited.rawValue {
                try appendPacked(&out, &r, type, make)
                return
            }
            guard wire == type.wireType.rawValue else {
                throw WireFormatError(
                    .typeMismatch, "expected \(type) (wire type \(type.wireType)), found wire type \(wire)",
                    offset: occurrence.start)
            }
            out.append(make(try readBits(type, &r)))
            if !r.isAtEnd { throw WireFormatError(.trailingBytes, "bytes after a value", offset: r.offset) }
        }
        return out
    }

    /// Appends the numbers of the packed run that fills `r`: fixed-size ones read in one loop,
    /// one-byte varints (small numbers, `Bool`s) without the varint reader.
    @inline(__always)
    private static func appendPacked<T>(
        _ out: inout [T], _ r: inout ByteReader, _ type: ProtobufScalarType, _ make: (UInt64) -> T
    ) throws {
        let width: Int
        switch type.wireType {
        case .fixed32: width = 4
        case .fixed64: width = 8
        default: width = 0
        }
        if width > 0, let base = r.buffer.baseAddress {
            guard r.remaining % width == 0 else {
                throw WireFormatError(.truncated, "a packed run of \(type) that ends inside a value", offset: r.offset)
            }
            let count = r.remaining / width
            // Written in place, without an append's checks per number.
            let run = [T](unsafeUninitializedCapacity: count) { numbers, initialized in
                guard let target = numbers.baseAddress else { return }
                var at = base + r.offset
                for i in 0..<count {
                    let bits =
                        width == 8
                        ? UInt64(littleEndian: at.loadUnaligned(as: UInt64.self))
                        : UInt64(UInt32(littleEndian: at.loadUnaligned(as: UInt32.self)))
                    (target + i).initialize(to: make(bits))
                    at += width
                }
                initialized = count
            }
            if out.isEmpty { out = run } else { out.append(contentsOf: run) }
            r.offset = r.end
            return
        }
        let plain = type != .sint32 && type != .sint64
        // Each number takes a byte at least: the run's length bounds their count.
        let run = try [T](unsafeUninitializedCapacity: r.remaining) { numbers, initialized in
            guard let target = numbers.baseAddress else { return }
            while !r.isAtEnd {
                // `!isAtEnd`: the byte is within the run.
                let byte = r.buffer[r.offset]
                let bits: UInt64
                if byte < 0x80, plain {
                    bits = UInt64(byte)
                    r.offset &+= 1
                } else {
                    bits = try readBits(type, &r)
                }
                (target + initialized).initialize(to: make(bits))
                initialized &+= 1
            }
        }
        if out.isEmpty { out = run } else { out.append(contentsOf: run) }
    }

    /// Calls `body` with each occurrence of the field `node` holds (none when absent), as a
    /// `value` node.
    @inline(__always)
    private static func forEachOccurrence(_ node: ByteNode, _ body: (ByteNode) throws -> Void) throws {
        switch kind(node) {
        case value:
            try body(node)
        case fields:
            var r = ByteReader(buffer: node.buffer, offset: node.start, end: node.end)
            let first = try field(&r)
            try body(valueNode(first, node.buffer))
            while !r.isAtEnd {
                let entry = try field(&r)
                if entry.number == first.number { try body(valueNode(entry, node.buffer)) }
            }
        case absent:
            return
        default:
            throw unsupported("a message read as a repeated field", at: node.start)
        }
    }

    static func decodeStringArray(_ node: inout ByteNode) throws -> [String]? {
        var out: [String] = []
        try forEachOccurrence(node) { occurrence in
            guard wireType(occurrence) == ProtobufWireType.lengthDelimited.rawValue else {
                throw WireFormatError(
                    .typeMismatch, "expected a string, found wire type \(wireType(occurrence))",
                    offset: occurrence.start)
            }
            var r = ByteReader(
                buffer: occurrence.buffer, offset: occurrence.start &+ Int(occurrence.extra), end: occurrence.end)
            out.append(try Scalars.readString(&r))
        }
        return out
    }

    // MARK: Wrappers

    static func isNil(_ node: ByteNode) -> Bool { kind(node) == absent }

    /// A single-value container is transparent: an enum's raw value is the field's value.
    static func singleValueContent(_ node: inout ByteNode) throws -> ByteNode? {
        if kind(node) == message { throw unsupported("the top level read as a single value", at: node.start) }
        return node
    }

    /// An optional is present when its field is stored.
    static func optionalContent(_ node: inout ByteNode) throws -> ByteNode? {
        switch kind(node) {
        case message: throw unsupported("the top level read as an optional", at: node.start)
        case absent: return nil
        default: return node
        }
    }

    static func singleValueHoldsNil(_ content: ByteNode) -> Bool { false }
    static func finishUnopened(_ node: inout ByteNode) throws {}
    static func unreadValue(_ node: ByteNode) -> BinaryValue? { nil }
    static func finishContent(_ node: ByteNode, _ content: ByteNode) throws {}

    // MARK: Repeated fields

    /// The occurrences of a field (`start..<end` holds them and fields of other numbers); the
    /// cursor holds the packed run being read, empty between runs.
    static func unkeyedView(_ node: inout ByteNode, elementHint: ScalarKind?, cursors: ByteCursorPool?) throws
        -> ByteUnkeyedView
    {
        let (start, end): (Int, Int)
        switch kind(node) {
        case value, fields: (start, end) = (node.start, node.end)
        case absent: (start, end) = (0, 0)
        default: throw unsupported("a message read as a repeated field", at: node.start)
        }
        // A hint says the elements are numbers (``packedElements``): an empty packed run holds none.
        let cursor =
            cursors?.cursor(offset: 0, end: 0, absentIndices: [], elementHint: elementHint)
            ?? ByteCursor(offset: 0, end: 0, elementHint: elementHint)
        return ByteUnkeyedView(buffer: node.buffer, offset: start, end: end, cursor: cursor)
    }

    /// The next occurrence of the view's field at or after `view.offset` (for elements that are
    /// numbers, the next that is not an empty packed run).
    @inline(__always)
    private static func nextOccurrence(_ view: ByteUnkeyedView) throws -> ProtobufFieldEntry? {
        guard view.offset < view.end else { return nil }
        var r = ByteReader(buffer: view.buffer, offset: view.start, end: view.end)
        // The field at the start was framed with its message: its tag is all that is needed.
        let number = try r.protobufVarint() >> 3
        r.offset = view.offset
        let numbers = view.cursor?.elementHint != nil
        while !r.isAtEnd {
            let entry = try field(&r)
            guard UInt64(entry.number) == number else { continue }
            if numbers, entry.wireType == .lengthDelimited, entry.valueStart == entry.end { continue }
            return entry
        }
        return nil
    }

    /// The hint the decoder gives an unkeyed view whose elements are numbers (see
    /// ``hasNumberElements(_:)``).
    static let packedElements = ScalarKind.bool

    /// Whether `T` is a collection of numbers (integers, their wrappers, `Bool`, floating point,
    /// enums with such raw values), which may come as packed runs, an empty one holding none.
    static func hasNumberElements<T>(_ type: T.Type) -> Bool {
        guard let sequence = T.self as? any Sequence.Type else { return false }
        func element<S: Sequence>(_: S.Type) -> Any.Type { S.Element.self }
        return isNumber(element(sequence))
    }

    private static func isNumber(_ type: Any.Type) -> Bool {
        if type is any ProtobufNumber.Type { return true }
        func rawValue<R: RawRepresentable>(_: R.Type) -> Any.Type { R.RawValue.self }
        if let raw = type as? any RawRepresentable.Type { return rawValue(raw) is any ProtobufNumber.Type }
        return false
    }

    static func count(_ view: ByteUnkeyedView, counts: UnkeyedCounts?) -> Int? {
        // Known only when no occurrence is length-delimited (a packed run holds an unknown number).
        guard let cursor = view.cursor, cursor.offset >= cursor.end else { return nil }
        var scan = view
        var total = view.currentIndex
        while let entry = try? nextOccurrence(scan) {
            if entry.wireType == .lengthDelimited { return nil }
            total &+= 1
            scan.offset = entry.end
        }
        return total
    }

    static func isAtEnd(_ view: ByteUnkeyedView) -> Bool {
        if let cursor = view.cursor, cursor.offset < cursor.end { return false }
        return (try? nextOccurrence(view)) == nil
    }

    static func decodeNil(_ view: inout ByteUnkeyedView) throws -> Bool {
        if isAtEnd(view) {
            throw WireFormatError(.valueNotFound, "the repeated field is at its end", offset: view.offset)
        }
        return false
    }

    static func nextElement(_ view: inout ByteUnkeyedView) throws -> ByteNode {
        guard let cursor = view.cursor else { throw unsupported("a repeated field without a cursor", at: view.offset) }
        view.currentIndex &+= 1
        if cursor.offset < cursor.end {
            return ByteNode(buffer: view.buffer, start: cursor.offset, end: cursor.end, tag: packed, cursor: cursor)
        }
        guard let entry = try nextOccurrence(view) else {
            throw WireFormatError(.valueNotFound, "the repeated field is at its end", offset: view.offset)
        }
        view.offset = entry.end
        var node = valueNode(entry, view.buffer)
        node.cursor = cursor
        return node
    }
}

extension ProtobufFormat {
    /// What the protobuf format does with a `T`: a oneof (or an optional one) is read from the
    /// fields of the message that holds it, and a dictionary whose keys are not `String` or `Int`
    /// as map entries (its `init(from:)` would read an unkeyed container of keys and values).
    /// Asked once per type (the engine caches one bit: not plain).
    static func facts<T>(_ type: T.Type, direct: (any DirectTreeDecodable.Type)?) -> TypeFacts {
        if T.self is any ProtobufOneOf.Type { return .oneOf }
        if let optional = T.self as? any ProtobufOptionalFacts.Type, optional.wrapsOneOf { return .optionalOneOf }
        if direct == nil, T.self is any ProtobufMapDecodable.Type { return .map }
        return .plain
    }

    /// What protobuf decoding needs to know of a type.
    enum TypeFacts {
        case plain
        /// A ``ProtobufOneOf`` enum: its members are fields of the enclosing message.
        case oneOf
        case optionalOneOf
        /// A dictionary read through ``ProtobufMapDecodable``.
        case map
    }

    /// The oneof whose members are fields of the message `holder` (a keyed container's node).
    static func oneOf(in holder: ByteNode) -> ByteNode? {
        var node = holder
        switch kind(holder) {
        case message: node.tag = oneOf
        case value where wireType(holder) == ProtobufWireType.lengthDelimited.rawValue:
            node.tag = oneOf | ProtobufWireType.lengthDelimited.rawValue
        default: return nil
        }
        return node
    }

    static func isOneOf(_ node: ByteNode) -> Bool { kind(node) == oneOf }

    /// Of the members of a oneof stored (`members`: their entries' positions and nodes), the one
    /// set last, which is the oneof's value, and the first of its occurrences that count: setting
    /// another member clears the oneof, so a message member set again starts afresh.
    static func memberSetLast(_ members: [(position: Int, node: ByteNode)]) throws -> (position: Int, start: Int)? {
        var lasts: [Int] = []
        for member in members { lasts.append(try lastOccurrenceStart(member.node)) }
        guard let winner = lasts.indices.max(by: { lasts[$0] < lasts[$1] }) else { return nil }
        let cleared = lasts.indices.filter { $0 != winner }.map { lasts[$0] }.max() ?? -1
        let node = members[winner].node
        guard kind(node) == fields, cleared > node.start else { return (members[winner].position, node.start) }
        var start = node.start
        try forEachOccurrence(node) { occurrence in
            if start < cleared, occurrence.start > cleared { start = occurrence.start }
        }
        return (members[winner].position, start)
    }

    /// Where each occurrence of the field `node` holds starts.
    static func occurrenceStarts(_ node: ByteNode) -> [Int] {
        var starts: [Int] = []
        try? forEachOccurrence(node) { starts.append($0.start) }
        return starts
    }

    /// Where the last occurrence of the field `node` holds starts.
    private static func lastOccurrenceStart(_ node: ByteNode) throws -> Int {
        kind(node) == fields ? try lastOccurrence(node).start : node.start
    }

    /// The value a keyed container opened on a oneof member reads for every key; `nil` for other
    /// nodes.
    static func memberValue(_ node: ByteNode) -> ByteNode? {
        guard node.tag & member != 0 else { return nil }
        var value = node
        value.tag &= ~member
        return value
    }
}

protocol ProtobufOptionalFacts {
    static var wrapsOneOf: Bool { get }
}

extension Optional: ProtobufOptionalFacts {
    static var wrapsOneOf: Bool { Wrapped.self is any ProtobufOneOf.Type }
}

/// A dictionary as protobuf stores a map: entry messages, the last of a key winning.
protocol ProtobufMapDecodable {
    static func decodeProtobufMap(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self
}

extension Dictionary: ProtobufMapDecodable where Key: Decodable, Value: Decodable {
    static func decodeProtobufMap(
        from node: inout DecodingNode, impl: TreeDecoderImpl, parent: CodingPathNode, step: PathStep?
    ) throws -> Self {
        let entries = try impl.decodeValue([ProtobufMapEntry<Key, Value>].self, from: &node, parent: parent, step: step)
        var out: Self = [:]
        out.reserveCapacity(entries.count)
        for entry in entries { out[entry.key] = entry.value }
        return out
    }
}

/// A map entry message: the key in field 1, the value in field 2, either absent (the default).
struct ProtobufMapEntry<Key: Decodable, Value: Decodable>: Decodable {
    let key: Key
    let value: Value
    enum CodingKeys: Int, CodingKey { case key = 1, value = 2 }
}

/// The Swift types that are proto3 numbers (read from packed runs as well as one by one).
protocol ProtobufNumber {}
extension Bool: ProtobufNumber {}
extension Int32: ProtobufNumber {}
extension Int64: ProtobufNumber {}
extension Int: ProtobufNumber {}
extension UInt32: ProtobufNumber {}
extension UInt64: ProtobufNumber {}
extension UInt: ProtobufNumber {}
extension Float: ProtobufNumber {}
extension Double: ProtobufNumber {}
extension SignedValue: ProtobufNumber {}
extension ZigZagEncoded: ProtobufNumber {}
extension FixedSizeEncoded: ProtobufNumber {}
extension VariableLengthEncoded: ProtobufNumber {}
