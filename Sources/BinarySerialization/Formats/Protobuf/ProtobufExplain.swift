public import Foundation

extension ProtobufDecoder {
    /// An annotated hex dump of a protobuf message read without its type: one line per tag,
    /// length and value, with its offset in hex, its bytes (long runs cut after seven bytes) and
    /// what it holds. A length-delimited value is shown as a nested message when its bytes frame
    /// as one, as `decodeRaw(from:)` reads it.
    ///
    /// ```
    /// 0  08                        field 1 (varint)
    /// 1  96 01                       varint 150 (sint 75)
    /// ```
    /// - Throws: `DecodingError.dataCorrupted` when the bytes are not a message, with the offset.
    /// - Complexity: O(n · depth) in the size of the data.
    public func explain(_ data: Data) throws -> String {
        let input = data.withUnsafeBytes { ProtobufInput($0) }
        var explainer = ProtobufExplainer(input: input, maximumDepth: maximumDepth, dump: HexDump(bytes: Array(data)))
        do {
            try explainer.message(0..<input.count, depth: 0)
        } catch let error as WireFormatError {
            throw error.topLevelDecodingError
        }
        return explainer.dump.text
    }
}

/// Walks a message's fields with the reader's framing (``ProtobufFraming``), writing a line for
/// each tag, length and value.
private struct ProtobufExplainer {
    let input: ProtobufInput
    let maximumDepth: Int
    var dump: HexDump
    private let stack = DecodingThreadCache.current.stack

    mutating func message(_ range: Range<Int>, depth: Int) throws {
        try ProtobufFraming.checkNesting(depth, maximumDepth: maximumDepth, stack: stack, at: range.lowerBound)
        for entry in try ProtobufFraming.fields(input.buffer, [range], maximumDepth: maximumDepth) {
            try field(entry, depth: depth)
        }
    }

    mutating func field(_ entry: ProtobufFieldEntry, depth: Int) throws {
        var tag = input.reader(entry.tagStart..<entry.end)
        _ = try tag.protobufVarint()
        let tagEnd = tag.offset
        dump.line(entry.tagStart..<tagEnd, "field \(entry.number) (\(entry.wireType))", depth: depth)
        switch entry.wireType {
        case .varint:
            var r = input.reader(entry.value)
            let v = try r.protobufVarint()
            let signed = Int64(bitPattern: v)
            var meaning = "varint \(v)"
            if signed < 0 { meaning += " (int64 \(signed))" }
            meaning += " (sint \(unZigZag(v)))"
            dump.line(entry.value, meaning, depth: depth + 1)
        case .fixed64:
            var r = input.reader(entry.value)
            let bits = try r.littleEndian(UInt64.self)
            dump.line(entry.value, "fixed64 \(bits) | double \(Double(bitPattern: bits))", depth: depth + 1)
        case .fixed32:
            var r = input.reader(entry.value)
            let bits = try r.littleEndian(UInt32.self)
            dump.line(entry.value, "fixed32 \(bits) | float \(Float(bitPattern: bits))", depth: depth + 1)
        case .lengthDelimited:
            dump.line(tagEnd..<entry.valueStart, "length \(entry.value.count)", depth: depth + 1)
            if depth < maximumDepth,
                ProtobufFraming.framesAsMessage(input.buffer, entry.value, maximumDepth: maximumDepth)
            {
                try message(entry.value, depth: depth + 1)
            } else if !entry.value.isEmpty {
                let bytes = Data(UnsafeRawBufferPointer(rebasing: input.buffer[entry.value]))
                let text = bytes.withUnsafeBytes { validUTF8String($0) }
                let meaning = text.map { ProtobufRawMessage.quoted(Data($0.utf8)) } ?? "bytes"
                dump.line(entry.value, meaning + " (\(HexDump.plural(entry.value.count, "byte")))", depth: depth + 1)
            }
        case .startGroup:
            var r = input.reader(entry.value)
            while !r.isAtEnd {
                let inner = try ProtobufFraming.field(&r, groupDepth: depth + 1, maximumDepth: maximumDepth)
                if inner.wireType == .endGroup {
                    dump.line(inner.tagStart..<inner.end, "end of group \(entry.number)", depth: depth)
                    break
                }
                try field(inner, depth: depth + 1)
            }
        case .endGroup:
            break  // consumed by its group's loop; the framing rejects one outside a group
        }
    }
}
