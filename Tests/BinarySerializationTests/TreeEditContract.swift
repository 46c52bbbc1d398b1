import BinarySerialization
import Foundation

// The tree contract under random edits, for one value: the checks of `TreeEditContractTests`.
//
// For a tree `t`, type `T` and format `F`:
// 1. if `decode(T, fromTree: t)` returns `v`, then `encode(tree: t)` either throws an
//    `EncodingError` or gives bytes that decode to `v`;
// 2. `decodeTree(T, from: encode(v))` equals `encodeTree(v)`.

/// What one value's run of edits found.
struct TreeEditReport {
    var edits = 0
    /// Edits after which the tree still decoded as the type (in at least one format).
    var decodable = 0
    var failures: [String] = []
}

/// One step from a node to a child: a key of a keyed container or a position of an unkeyed
/// container or packed array.
enum TreeStep: CustomStringConvertible {
    case key(BinaryKey)
    case position(Int)

    var description: String {
        switch self {
        case .key(let k): return "[\(k)]"
        case .position(let p): return "[position: \(p)]"
        }
    }
}

/// The formats the contract is checked in.
let treeContractFormats: [BinaryFormat] = [.v3, .v2]

/// Applies `edits` random edits to `encodeTree(value)` (a fresh tree per format order: one tree,
/// checked in both formats after each edit) and checks the contract after each.
func treeEditReport<T: Codable & Equatable>(_ value: T, seed: UInt64, edits: Int) -> TreeEditReport {
    var report = TreeEditReport()
    var rng = SplitMix64(seed: seed)
    // Contract 2 for the generated value, and the starting tree (v3's: both formats give the same).
    for format in treeContractFormats {
        if let problem = storedTreeProblem(value, format) {
            report.failures.append("seed \(seed) value \(format): \(problem)")
        }
    }
    guard var tree = try? BinaryEncoder(format: .v3).encodeTree(value) else { return report }
    for _ in 0..<edits {
        let before = tree
        let edit = randomEdit(&tree, &rng)
        report.edits += 1
        var decoded = false
        for format in treeContractFormats {
            let (ok, problem) = contractProblem(T.self, tree, format)
            decoded = decoded || ok
            if let problem {
                report.failures.append(
                    "seed \(seed) \(format) after edit \(edit): \(problem)\ntree before: \(before)\ntree after: \(tree)"
                )
            }
        }
        if !report.failures.isEmpty { break }
        // Edits go on from a tree the type still reads (one it refuses has shown its part).
        if decoded { report.decodable += 1 } else { tree = before }
    }
    return report
}

/// Contract 1 for `tree` in `format` (and contract 2 for the value it decodes to): whether the
/// tree decoded, and what failed.
func contractProblem<T: Codable & Equatable>(_ type: T.Type, _ tree: BinaryValue, _ format: BinaryFormat) -> (
    Bool, String?
) {
    let encoder = BinaryEncoder(format: format)
    let decoder = BinaryDecoder(format: format)
    guard let v = try? decoder.decode(T.self, fromTree: tree) else { return (false, nil) }
    let bytes: Data
    do {
        bytes = try encoder.encode(tree: tree)
    } catch is EncodingError {
        return (true, nil)
    } catch {
        return (true, "encode(tree:) threw \(error), not an EncodingError")
    }
    do {
        let back = try decoder.decode(T.self, from: bytes)
        // A value the format cannot store reads back as the format gives it (v2: an `Optional`
        // holding 0, false or "" in a single-value container reads as nil).
        if !sameValue(back, v, format) && !sameValue(back, storedValue(v, format), format) {
            return (true, "the tree decodes to \(v), its bytes to \(back)")
        }
    } catch {
        return (true, "the tree decodes to \(v), its bytes throw \(error)")
    }
    return (true, storedTreeProblem(v, format))
}

/// The value `format` gives back for `value`: `value` itself unless the format cannot store it.
func storedValue<T: Codable & Equatable>(_ value: T, _ format: BinaryFormat) -> T {
    guard let bytes = try? BinaryEncoder(format: format).encode(value),
        let back = try? BinaryDecoder(format: format).decode(T.self, from: bytes), !sameValue(back, value, format)
    else { return value }  // the same instance: a set keeps its order
    return back
}

/// Contract 2: `decodeTree(T, from: encode(v))` equals `encodeTree(v)`, or, for a value the
/// format cannot store (see `storedValue`), the tree of the value it gives back.
///
/// One exception, in v2 only: a single-value container holding an `Optional` whose value's bytes
/// are `00` (0, false, "") is written as nil is, and `decodeTree` records it as nil while the
/// type reads the value; the trees then differ but give the same bytes, which is checked.
func storedTreeProblem<T: Codable & Equatable>(_ value: T, _ format: BinaryFormat) -> String? {
    let encoder = BinaryEncoder(format: format)
    guard let bytes = try? encoder.encode(value) else { return nil }
    do {
        let stored = try BinaryDecoder(format: format).decodeTree(T.self, from: bytes)
        let encoded = try encoder.encodeTree(value)
        if sameTree(stored, encoded) { return nil }
        let storedEncoded = try encoder.encodeTree(storedValue(value, format))
        if sameTree(stored, storedEncoded) { return nil }
        if format == .v2, try encoder.encode(tree: stored) == encoder.encode(tree: encoded) { return nil }
        return "decodeTree(encode(v)) \(stored) != encodeTree(v) \(encoded) for \(value)"
    } catch {
        return "\(error) for \(value)"
    }
}

/// Equal, or written the same (a `Double.nan` is not equal to itself).
func sameValue<T: Codable & Equatable>(_ a: T, _ b: T, _ format: BinaryFormat) -> Bool {
    if a == b { return true }
    let encoder = BinaryEncoder(format: format)
    guard let x = try? encoder.encode(a), let y = try? encoder.encode(b) else { return false }
    return x == y
}

/// Equal, or equal but for the bits of NaNs (`Double.nan` is not equal to itself): the same
/// description and the same bytes in both formats.
func sameTree(_ a: BinaryValue, _ b: BinaryValue) -> Bool {
    if a == b { return true }
    guard a.description == b.description else { return false }
    return treeContractFormats.allSatisfy { format in
        let encoder = BinaryEncoder(format: format)
        return (try? encoder.encode(tree: a)) == (try? encoder.encode(tree: b))
    }
}

// MARK: Random edits

/// Every path from the root to a node, through keys and positions.
func treePaths(_ tree: BinaryValue) -> [[TreeStep]] {
    var out: [[TreeStep]] = [[]]
    func walk(_ node: BinaryValue, _ path: [TreeStep]) {
        guard out.count < 400, let count = node.count else { return }
        if let fieldKeys = node.fieldKeys {
            for k in fieldKeys {
                let p = path + [.key(k)]
                out.append(p)
                if let child = node[k] { walk(child, p) }
            }
        } else {
            for i in 0..<count {
                let p = path + [.position(i)]
                out.append(p)
                if let child = node[position: i] { walk(child, p) }
            }
        }
    }
    walk(tree, [])
    return out
}

extension BinaryValue {
    /// The keys of the keyed container this node is or wraps.
    fileprivate var fieldKeys: [BinaryKey]? {
        switch self {
        case .keyed(let f): return f.keys
        case .single(let v), .optional(.some(let v)): return v.fieldKeys
        default: return nil
        }
    }
}

/// Runs `body` on the node at `path`, through the public editing API: key setters and
/// `modifyElement(at:_:)`. An edit the API refuses leaves the tree as it was.
func editNode(_ tree: inout BinaryValue, _ path: ArraySlice<TreeStep>, _ body: (inout BinaryValue) throws -> Void)
    throws
{
    guard let first = path.first else { return try body(&tree) }
    switch first {
    case .key(let k):
        guard var child = tree[k] else { return }
        try editNode(&child, path.dropFirst(), body)
        tree[k] = child
    case .position(let p):
        try tree.modifyElement(at: p) { try editNode(&$0, path.dropFirst(), body) }
    }
}

/// A random leaf or small container, of any kind.
func randomNode(_ rng: inout SplitMix64) -> BinaryValue {
    let small = Int(rng.next() % 300) - 150
    switch rng.next() % 22 {
    case 0: return .bool(rng.next() % 2 == 0)
    case 1: return .int8(Int8(truncatingIfNeeded: small))
    case 2: return .uint8(UInt8(truncatingIfNeeded: small))
    case 3: return .int16(Int16(small), rng.next() % 2 == 0 ? .fixed : .varint)
    case 4: return .uint16(UInt16(truncatingIfNeeded: small))
    case 5: return .int32(Int32(small))
    case 6: return .uint32(UInt32(truncatingIfNeeded: small), rng.next() % 2 == 0 ? .fixed : .varint)
    case 7: return .int64(Int64(small), .fixed)
    case 8: return .uint64(rng.next())
    case 9: return .uint(UInt(truncatingIfNeeded: small))
    case 10: return .float(Float(small) / 4)
    case 11: return .double(Double(small) / 3)
    case 12: return .string("s\(small)")
    case 13: return .data(Data([1, 2, UInt8(truncatingIfNeeded: small)]))
    case 14: return .nil
    case 15: return .optional(nil)
    case 16: return .packed(.int([small, 1]))
    case 17: return .packed(.uint8([1, 2]))
    case 18: return [:]
    case 19: return [.int(small)]
    case 20: return .single(.int(small))
    default: return .optional(.uint32(UInt32(truncatingIfNeeded: small)))
    }
}

/// A random literal, as a user would assign one.
func randomLiteral(_ rng: inout SplitMix64) -> BinaryValue {
    switch rng.next() % 8 {
    case 0: return BinaryValue(integerLiteral: Int(rng.next() % 200) - 100)
    case 1: return BinaryValue(integerLiteral: Int(truncatingIfNeeded: rng.next()))
    case 2: return BinaryValue(integerLiteral: Int(rng.next() % 100_000))
    case 3: return BinaryValue(floatLiteral: Double(Int(rng.next() % 200) - 100) / 8)
    case 4: return BinaryValue(floatLiteral: [0.1, 1e10, 0.1 + 0.2, -0.0, 1e300][Int(rng.next() % 5)])
    case 5: return BinaryValue(stringLiteral: ["", "a", "é", "long string value"][Int(rng.next() % 4)])
    case 6: return BinaryValue(booleanLiteral: rng.next() % 2 == 0)
    default: return BinaryValue(integerLiteral: Int(rng.next() % 3))
    }
}

/// Applies one random edit to `tree` and says what it was.
func randomEdit(_ tree: inout BinaryValue, _ rng: inout SplitMix64) -> String {
    let paths = treePaths(tree)
    let path = paths[Int(rng.next() % UInt64(paths.count))]
    let at = path.map(\.description).joined()
    let choice = rng.next() % 10
    var what = ""
    do {
        switch (choice, path.last) {
        case (0...2, .key(let k)?):
            let v = choice == 0 ? randomNode(&rng) : randomLiteral(&rng)
            what = "tree\(at) = \(v)"
            try editNode(&tree, path.dropLast()) { $0[k] = v }
        case (3, .key(let k)?):
            let v = randomLiteral(&rng)
            what = "setValue(\(v), forKey: \(k)) at tree\(at)"
            try editNode(&tree, path.dropLast()) { try $0.setValue(v, forKey: k) }
        case (0...3, .position(let p)?):
            let v = choice == 0 ? randomNode(&rng) : randomLiteral(&rng)
            what = "setElement(\(v), at: \(p)) at tree\(at)"
            try editNode(&tree, path.dropLast()) { try $0.setElement(v, at: p) }
        case (4, .key(let k)?):
            what = "tree\(at) = nil"
            try editNode(&tree, path.dropLast()) { $0[k] = nil }
        case (4, .position(let p)?):
            what = "removeElement(at: \(p)) at tree\(at)"
            try editNode(&tree, path.dropLast()) { try $0.removeElement(at: p) }
        case (5, _):
            let v = rng.next() % 2 == 0 ? randomLiteral(&rng) : randomNode(&rng)
            let key: BinaryKey =
                rng.next() % 2 == 0
                ? BinaryKey(intValue: Int(rng.next() % 8)) : BinaryKey(stringValue: "k\(rng.next() % 4)")
            what = "tree\(at)[\(key)] = \(v)"
            try editNode(&tree, path[...]) { $0[key] = v }
        case (6, _):
            let v = randomLiteral(&rng)
            what = "append(\(v)) at tree\(at)"
            try editNode(&tree, path[...]) { try $0.append(v) }
        case (7, _):
            let v = randomLiteral(&rng)
            let p = Int(rng.next() % 3)
            what = "insert(\(v), at: \(p)) at tree\(at)"
            try editNode(&tree, path[...]) { try $0.insert(v, at: p) }
        case (8, _):
            what = "nil out tree\(at)"
            try editNode(&tree, path[...]) { node in
                if case .optional = node { node = .optional(nil) } else { node = .nil }
            }
        default:
            let v = randomLiteral(&rng)
            what = "replace tree\(at) with \(v)"
            try editNode(&tree, path[...]) { $0 = $0.assigning(v) }
        }
    } catch {
        what += " (refused: \(error))"
    }
    return what
}
