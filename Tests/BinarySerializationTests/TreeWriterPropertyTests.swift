import BinarySerialization
import Foundation
import Testing

/// Each format's writer (its sink, fed a tree's events) against a reference writer written here
/// from the format descriptions (Docs/FormatV3.md, Docs/FormatV2.md), on seeded random trees of
/// every shape a hand-built tree can have: wrappers of wrappers, nil at every place, empty
/// containers, mixed keys. The streaming encoder never sends most of these shapes; `encode(tree:)`
/// must still write them by the rules. Leaves and packed arrays are taken from the library (each
/// written alone): what is checked is the framing around them.
@Suite struct TreeWriterPropertyTests {
    static let trees = 4_000

    @Test(arguments: [1, 2, 3])
    func v3MatchesTheReference(_ seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let encoder = BinaryEncoder()
        for _ in 0..<Self.trees {
            let tree = Generator(format: .v3, nilElements: true).node(&random, depth: 0)
            let expected = try V3Reference().raw(tree)
            #expect(try [UInt8](encoder.encode(tree: tree)) == expected, "\(tree)")
        }
    }

    @Test(arguments: [(UInt64(4), false), (5, true), (6, true)])
    func v2MatchesTheReference(_ seed: UInt64, _ nilIndexSets: Bool) throws {
        var random = SplitMix64(seed: seed)
        var encoder = BinaryEncoder()
        encoder.format = .v2
        encoder.prependNilIndexSetForUnkeyedContainers = nilIndexSets
        for _ in 0..<Self.trees {
            let tree = Generator(format: .v2, nilElements: nilIndexSets).node(&random, depth: 0)
            let expected = try V2Reference(nilIndexSets: nilIndexSets).write(tree, .raw)
            #expect(try [UInt8](encoder.encode(tree: tree)) == expected, "\(tree)")
        }
    }

    /// Random trees; keys unique per container, integer keys that the format can write, and
    /// `.nil` elements of unkeyed containers only where the format can write them.
    struct Generator {
        let format: BinaryFormat
        let nilElements: Bool

        func node(_ r: inout SplitMix64, depth: Int) -> BinaryValue {
            let pick = Int.random(in: 0..<(depth >= 4 ? 4 : 10), using: &r)
            switch pick {
            case 0, 1, 2: return leaf(&r, root: depth == 0)
            case 3: return [BinaryValue.nil, .optional(nil), .single(.nil)][Int.random(in: 0..<3, using: &r)]
            case 4: return .single(node(&r, depth: depth + 1))
            case 5: return .optional(node(&r, depth: depth + 1))
            case 6:
                return .packed(
                    .int32((0..<Int.random(in: 0..<4, using: &r)).map { _ in Int32.random(in: -300...300, using: &r) }))
            case 7, 8:
                let count = Int.random(in: 0..<4, using: &r)
                return .unkeyed(
                    (0..<count).map { _ in
                        if nilElements && Int.random(in: 0..<5, using: &r) == 0 { return .nil }
                        let element = node(&r, depth: depth + 1)
                        if case .nil = element, !nilElements { return .single(.nil) }
                        return element
                    })
            default:
                var fields = KeyedFields()
                for i in 0..<Int.random(in: 0..<4, using: &r) {
                    let key: BinaryKey =
                        Bool.random(using: &r)
                        ? BinaryKey(intValue: [0, 1, 15, 16, 1000, Int(Int32.max)][i] + (format == .v2 ? -2 : 0))
                        : BinaryKey(stringValue: ["a", "é", "ключ", "\u{1F600}", ""][i])
                    _ = fields.set(node(&r, depth: depth + 1), for: key)
                }
                return .keyed(fields)
            }
        }

        func leaf(_ r: inout SplitMix64, root: Bool) -> BinaryValue {
            let encodings: [IntegerEncoding] = [.zigZag, .varint, .fixed]
            switch Int.random(in: 0..<8, using: &r) {
            case 0: return .bool(Bool.random(using: &r))
            case 1: return .int(Int.random(in: -70_000...70_000, using: &r))
            case 2:
                return .int32(Int32.random(in: .min ... .max, using: &r), encodings.randomElement(using: &r) ?? .fixed)
            case 3:
                return .uint16(
                    UInt16.random(in: .min ... .max, using: &r), encodings.randomElement(using: &r) ?? .fixed)
            case 4: return .uint8(UInt8.random(in: .min ... .max, using: &r))
            case 5: return .double(Double(Int.random(in: -9...9, using: &r)) / 4)
            // v2 writes a `Data` root as bytes with nil index sets: left to the golden tests.
            case 6:
                return root && format == .v2
                    ? .string("d") : .data(Data((0..<Int.random(in: 0..<3, using: &r)).map { UInt8($0) }))
            default: return .string(["", "x", "héllo", "\u{1F600}"][Int.random(in: 0..<4, using: &r)])
            }
        }
    }

    /// A leaf's or packed array's bytes as the library writes it alone (raw, at the top level).
    static func leafBytes(_ node: BinaryValue) throws -> [UInt8] {
        try [UInt8](BinaryEncoder().encode(tree: node))
    }

    /// v3: raw at the top level and inside wrappers (`01` nil, `00` and the content); inside
    /// containers each value is an element, `varint(length << 1)` and its raw bytes, or `01`.
    struct V3Reference {
        func raw(_ node: BinaryValue) throws -> [UInt8] {
            switch node {
            case .nil, .optional(.none), .single(.nil): return [1]
            case .single(let inner), .optional(.some(let inner)): return [0] + (try raw(inner))
            case .unkeyed(let elements): return try elements.flatMap { try element($0) }
            case .keyed(let fields):
                return try fields.fields.flatMap { field -> [UInt8] in
                    let key: [UInt8]
                    if let i = field.key.intValue {
                        key = binaryCodableVarint(UInt64(i) << 1)
                    } else {
                        let utf8 = Array(field.key.stringValue.utf8)
                        key = binaryCodableVarint(UInt64(utf8.count) << 1 | 1) + utf8
                    }
                    return key + (try element(field.value))
                }
            default: return try leafBytes(node)
            }
        }

        func element(_ node: BinaryValue) throws -> [UInt8] {
            switch node {
            case .nil, .optional(.none), .single(.nil): return [1]
            case .single(let inner), .optional(.some(let inner)):
                let content = try raw(inner)
                return binaryCodableVarint(UInt64(content.count) << 1) + content
            default:
                let content = try raw(node)
                return binaryCodableVarint(UInt64(content.count) << 1) + content
            }
        }
    }

    /// v2: a node in a raw, element or field context; the key of a field carries its value's
    /// wire type; nil optionals in keyed containers are left out; an unkeyed container's `.nil`
    /// elements go to its nil index set.
    struct V2Reference {
        enum Context { case raw, element, field }
        let nilIndexSets: Bool

        func write(_ node: BinaryValue, _ context: Context) throws -> [UInt8] {
            func delimited(_ body: [UInt8], unless raw: Bool) -> [UInt8] {
                raw ? body : binaryCodableVarint(UInt64(body.count)) + body
            }
            switch node {
            case .single(let inner):
                return try write(inner, context)
            case .nil, .optional(.none):
                return context == .field ? [1, 0] : [0]
            case .optional(.some(let inner)):
                let body = [1] + (try write(inner, .element))
                return context == .field ? binaryCodableVarint(UInt64(body.count)) + body : body
            case .string, .data:
                return delimited(try leafBytes(node), unless: context == .raw)
            case .packed:
                return delimited((nilIndexSets ? [0] : []) + (try leafBytes(node)), unless: context == .raw)
            case .unkeyed(let elements):
                let nils = elements.indices.filter { if case .nil = elements[$0] { return true } else { return false } }
                var body: [UInt8] = []
                if nilIndexSets {
                    body = binaryCodableVarint(UInt64(nils.count)) + nils.flatMap { binaryCodableVarint(UInt64($0)) }
                }
                for (i, e) in elements.enumerated() where !nils.contains(i) { body += try write(e, .element) }
                return delimited(body, unless: context == .raw)
            case .keyed(let fields):
                var body: [UInt8] = []
                for field in fields.fields {
                    switch field.value {
                    case .nil, .optional(.none): continue
                    default: break
                    }
                    let type = UInt64(wireType(field.value))
                    if let i = field.key.intValue {
                        body += binaryCodableVarint(UInt64(bitPattern: Int64(i)) << 4 | type)
                    } else {
                        let utf8 = Array(field.key.stringValue.utf8)
                        body += binaryCodableVarint(UInt64(utf8.count) << 4 | 8 | type) + utf8
                    }
                    body += try write(field.value, .field)
                }
                return delimited(body, unless: context == .raw)
            default:
                var v2 = BinaryEncoder()
                v2.format = .v2
                return try [UInt8](v2.encode(tree: node))
            }
        }

        func wireType(_ node: BinaryValue) -> UInt8 {
            switch node {
            case .bool: return 0
            case .int8, .uint8: return 6
            case .int16(_, let e), .uint16(_, let e): return e == .fixed ? 7 : 0
            case .int32(_, let e), .uint32(_, let e): return e == .fixed ? 5 : 0
            case .int64(_, let e), .uint64(_, let e), .int(_, let e), .uint(_, let e): return e == .fixed ? 1 : 0
            case .float: return 5
            case .double: return 1
            case .single(let inner): return wireType(inner)
            default: return 2
            }
        }
    }
}
