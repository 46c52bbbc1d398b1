public import Foundation

extension BinaryFormat {
    /// The formats `data` reads cleanly in, most likely first.
    ///
    /// A format counts when the input frames in it as a container (v3: keyed or unkeyed; v2:
    /// keyed, with valid wire types), down to the last byte, or when it reads in it as a lone
    /// primitive, string, `Data` or packed array (which both formats write the same way). Containers
    /// rank first, the reading that explains more of the input as structure (keys, lengths,
    /// readable string keys) ahead; v3 wins a tie. An input nested deeper than
    /// `limits.maximumDepth` in a format does not count for it, so the answer can be empty.
    ///
    /// - Complexity: O(n · depth) in the size of the data.
    public static func plausibleFormats(for data: Data, limits: DecodingLimits = DecodingLimits()) -> [BinaryFormat] {
        let bytes = Array(data)
        var scored: [(format: BinaryFormat, score: Int)] = []
        for format in BinaryFormat.allCases {
            let reader = RawReader(bytes: bytes, format: format, maximumDepth: limits.maximumDepth)
            guard let root = try? reader.root() else { continue }
            switch root.content {
            case .keyed, .unkeyed: scored.append((format, 1 &+ root.structureScore))
            case .bytes: scored.append((format, 0))
            }
        }
        // allCases lists v3 first; the offset keeps it ahead on a tie.
        return scored.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element.format)
    }
}

extension RawNode {
    /// How much of the node is explained as structure: one point per key or element, three more
    /// per readable string key, one per nested container. Used to rank formats.
    var structureScore: Int {
        switch content {
        case .bytes: return 0
        case .unkeyed(let elements):
            return elements.reduce(1) { sum, e in sum &+ 1 &+ (e?.structureScore ?? 0) }
        case .keyed(let fields):
            return fields.reduce(1) { sum, f in
                var points = 1 &+ (f.value?.structureScore ?? 0)
                if case .string(let s) = f.key, RawText.isPrintable(s) { points &+= 3 }
                return sum &+ points
            }
        }
    }
}
