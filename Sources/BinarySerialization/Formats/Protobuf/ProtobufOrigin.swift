/// Where the bytes of a buffer the protobuf decoder reads lie in its input: spans of positions,
/// each a run of input bytes. The input itself is one span; the copy of a message stored in
/// several occurrences (``ProtobufMerges``) is one span per occurrence, so that what is noted of a
/// field read in a copy (``ProtobufReadLog``) names the field's place in the input.
struct ProtobufOrigin {
    private var spans: [(start: Int, input: Int, count: Int)]

    /// The input's own bytes, `count` of them.
    static func input(_ count: Int) -> ProtobufOrigin {
        ProtobufOrigin(spans: [(0, 0, count)])
    }

    /// The input offset of the byte at `position`; `nil` outside the spans.
    func inputOffset(_ position: Int) -> Int? {
        for span in spans where position >= span.start && position - span.start < span.count {
            return span.input + (position - span.start)
        }
        return nil
    }

    /// The origin of `ranges` of this buffer copied one after the other.
    func joined(_ ranges: [Range<Int>]) -> ProtobufOrigin {
        var joined: [(start: Int, input: Int, count: Int)] = []
        var at = 0
        for range in ranges {
            for span in spans {
                let low = max(range.lowerBound, span.start)
                let high = min(range.upperBound, span.start + span.count)
                if low < high {
                    joined.append((at + (low - range.lowerBound), span.input + (low - span.start), high - low))
                }
            }
            at += range.count
        }
        return ProtobufOrigin(spans: joined)
    }
}
