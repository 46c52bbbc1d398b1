import Foundation
import TreeCoding

/// Serializes a tree in the legacy v2 format, with the same size-then-write scheme as v3.
///
/// A node is written in one of three contexts:
/// - `raw`: the top level, or the content of a length-delimited value: just the bytes;
/// - `element`: in an unkeyed container or after an optional's flag: varint and fixed-size
///   values as they are, length-delimited values (strings, data, containers) with a varint length;
/// - `field`: the value of a key: like `element`, but optionals and nil are length-delimited too.
/// An optional is its flag (`01` present, `00` nil) followed by the wrapped value as an element.
/// A `.single` wrapper adds nothing.
struct V2Writer {
    enum Context { case raw, element, field }

    private var sizes: [Int] = []
    private var cursor = 0
    private var depth = DepthGuard()
    let nilIndexSets: Bool

    static func serialize(_ tree: BinaryValue, nilIndexSets: Bool, maximumDepth: Int, context: Context = .raw) throws
        -> Data
    {
        var writer = V2Writer(nilIndexSets: nilIndexSets)
        writer.depth.setMaximumDepth(maximumDepth)
        let tree = root(tree, nilIndexSets: nilIndexSets)
        let total = try writer.measure(tree, context)
        return try Output.make(count: total) { w in writer.write(tree, context, to: &w) }
    }

    /// The root (the top level, a stream element) as written: with nil index sets, a `Data` is
    /// the unkeyed container of bytes that `Data`'s own `Codable` conformance makes of it, which
    /// 2.x uses there, so it starts with a nil index set. (Everywhere else 2.x writes `Data` as a
    /// primitive.) `BinaryDecoder.readsAsBytes(_:)` reads it back.
    static func root(_ tree: BinaryValue, nilIndexSets: Bool) -> BinaryValue {
        guard nilIndexSets, case .data(let data) = tree else { return tree }
        return .packed(.uint8(Array(data)))
    }

    private init(nilIndexSets: Bool) { self.nilIndexSets = nilIndexSets }

    /// Appends `tree` in `context` to `buffer`; `false` if v2 cannot write it (the tree path
    /// reports why).
    static func append(
        _ tree: BinaryValue, _ context: Context, nilIndexSets: Bool, to buffer: inout GrowingBuffer, maximumDepth: Int
    ) -> Bool {
        var writer = V2Writer(nilIndexSets: nilIndexSets)
        writer.depth.setMaximumDepth(maximumDepth)
        guard let total = try? writer.measure(tree, context) else { return false }
        buffer.append(total) { w in writer.write(tree, context, to: &w) }
        return !buffer.failed
    }

    // MARK: Size pass

    /// The size of `value` in `context`; records the body size of every non-leaf node.
    private mutating func measure(_ value: BinaryValue, _ context: Context) throws -> Int {
        if case .unknown = value {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: """
                        A field the decoding type did not read is kept as stored v3 bytes; v2 needs its \
                        wire type, which those bytes do not say. Decode with a type that reads the field.
                        """))
        }
        if let leaf = Scalars.size(of: value) {
            switch value {
            case .string, .data: return context == .raw ? leaf : varintSize(UInt64(leaf)) + leaf
            default: return leaf
            }
        }
        try depth.enter()
        defer { depth.leave() }
        if case .single(let inner) = value { return try measure(inner, context) }
        let slot = sizes.count
        sizes.append(0)
        var body = 0
        var delimitedInElement = true
        switch value {
        case .nil, .optional(.none):
            body = 1
            delimitedInElement = false
        case .optional(.some(let inner)):
            body = 1 + (try measure(inner, .element))
            delimitedInElement = false
        case .packed(let p):
            body = Scalars.size(of: p) + (nilIndexSets ? 1 : 0)
        case .unkeyed(let elements):
            body = try unkeyedBodySize(elements)
        case .keyed(let fields):
            for f in fields.fields where !Self.isOmitted(f.value) {
                body += try WriterPath.under(f.key) {
                    try keySize(f.key, V2WireType.of(f.value)) + measure(f.value, .field)
                }
            }
        default:
            break
        }
        sizes[slot] = body
        switch context {
        case .raw: return body
        case .element: return delimitedInElement ? varintSize(UInt64(body)) + body : body
        case .field: return varintSize(UInt64(body)) + body
        }
    }

    private mutating func unkeyedBodySize(_ elements: [BinaryValue]) throws -> Int {
        var body = 0
        var nils: [Int] = []
        for (i, e) in elements.enumerated() {
            if Self.isExplicitNil(e) {
                nils.append(i)
                continue
            }
            body += try WriterPath.under(WriterPath.indexKey(i)) { try measure(e, .element) }
        }
        if nilIndexSets {
            body += varintSize(UInt64(nils.count)) + nils.reduce(0) { $0 + varintSize(UInt64($1)) }
        } else if let first = nils.first {
            throw EncodingError.invalidValue(
                BinaryValue.nil,
                .init(
                    codingPath: [WriterPath.indexKey(first)],
                    debugDescription: """
                        The v2 format cannot store encodeNil() in an unkeyed container unless \
                        prependNilIndexSetForUnkeyedContainers is set on the encoder (and the decoder).
                        """))
        }
        return body
    }

    /// An element written with the unkeyed container's `encodeNil()`, which v2 keeps in the nil
    /// index set. (A single-value container's `encodeNil()`, `.single(.nil)`, is the byte `00`.)
    private static func isExplicitNil(_ value: BinaryValue) -> Bool {
        if case .nil = value { return true }
        return false
    }

    /// A field BinaryCodable 2.x leaves out: a nil `Optional` (so `T??` `.some(nil)` in a keyed
    /// container reads back as nil, as with 2.x; the format has no way to say "present nil"), and
    /// a bare nil, which a v3 field holds when it was written as nil (`encode(nil, forKey:)` in
    /// BinaryCodable 4) and the type read it as absent. A single-value nil (`.single(.nil)`) is a
    /// value of its type and is written.
    static func isOmitted(_ value: BinaryValue) -> Bool {
        switch value {
        case .optional(.none), .nil: return true
        default: return false
        }
    }

    private func keySize(_ key: BinaryKey, _ type: V2WireType) throws -> Int {
        if let i = key.intValue {
            return varintSize(try Self.intKeyBits(i, type))
        }
        let n = key.stringValue.utf8.count
        return varintSize(V2Framing.stringKeyPrefix(byteCount: n, wireTypeBits: type.rawValue)) + n
    }

    /// The prefix of an integer key (``V2Framing``), or the error for a key v2 cannot write.
    static func intKeyBits(_ key: Int, _ type: V2WireType) throws -> UInt64 {
        guard let bits = V2Framing.intKeyPrefix(key, type) else {
            throw EncodingError.invalidValue(
                key,
                .init(
                    codingPath: [], debugDescription: "Integer key \(key) is outside -2^59..<2^59, which v2 can write.")
            )
        }
        return bits
    }

    // MARK: Write pass

    private mutating func write(_ value: BinaryValue, _ context: Context, to w: inout ByteWriter) {
        if Scalars.size(of: value) != nil {
            switch value {
            case .string(let s) where context != .raw: w.varint(UInt64(s.utf8.count))
            case .data(let d) where context != .raw: w.varint(UInt64(d.count))
            default: break
            }
            Scalars.write(value, to: &w)
            return
        }
        if case .single(let inner) = value {
            write(inner, context, to: &w)
            return
        }
        let body = sizes[cursor]
        cursor += 1
        switch value {
        case .nil, .optional(.none):
            if context == .field { w.varint(UInt64(body)) }
            w.byte(0)
        case .optional(.some(let inner)):
            if context == .field { w.varint(UInt64(body)) }
            w.byte(1)
            write(inner, .element, to: &w)
        case .packed(let p):
            if context != .raw { w.varint(UInt64(body)) }
            if nilIndexSets { w.byte(0) }  // an empty nil index set: packed arrays hold no nil
            Scalars.write(p, to: &w)
        case .unkeyed(let elements):
            if context != .raw { w.varint(UInt64(body)) }
            if nilIndexSets {
                let nils = elements.indices.filter { Self.isExplicitNil(elements[$0]) }
                w.varint(UInt64(nils.count))
                for i in nils { w.varint(UInt64(i)) }
            }
            for e in elements where !Self.isExplicitNil(e) { write(e, .element, to: &w) }
        case .keyed(let fields):
            if context != .raw { w.varint(UInt64(body)) }
            for f in fields.fields where !Self.isOmitted(f.value) {
                writeKey(f.key, V2WireType.of(f.value), to: &w)
                write(f.value, .field, to: &w)
            }
        default:
            break
        }
    }

    private func writeKey(_ key: BinaryKey, _ type: V2WireType, to w: inout ByteWriter) {
        if let i = key.intValue {
            // Checked writable by the size pass.
            w.varint(V2Framing.intKeyPrefix(i, type) ?? 0)
        } else {
            w.varint(V2Framing.stringKeyPrefix(byteCount: key.stringValue.utf8.count, wireTypeBits: type.rawValue))
            w.string(key.stringValue)
        }
    }
}
