import Foundation
import TreeCoding

/// The input of one decoding run, owned by the run: containers a type keeps past the call read
/// this copy, never the caller's freed bytes.
final class ProtobufInput {
    private let storage: UnsafeMutableRawBufferPointer
    var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(storage) }

    init(_ bytes: UnsafeRawBufferPointer) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        if let source = bytes.baseAddress, bytes.count > 0, let target = storage.baseAddress {
            target.copyMemory(from: source, byteCount: bytes.count)
        }
        count = bytes.count
    }

    /// The number of input bytes (the storage has at least one byte, for an empty input).
    let count: Int

    deinit { storage.deallocate() }

    func reader(_ range: Range<Int>) -> ByteReader {
        ByteReader(buffer: buffer, offset: range.lowerBound, end: range.upperBound)
    }
}

/// One field of a message as stored: its number, wire type, where its tag starts, and its value
/// (for a length-delimited field the content after the length; for a group the fields and the
/// end tag).
struct ProtobufFieldEntry {
    let number: Int
    let wireType: ProtobufWireType
    let tagStart: Int
    let valueStart: Int
    let end: Int

    var value: Range<Int> { valueStart..<end }
    /// The field's bytes, tag included: how `decodeTree` keeps a field the type does not know.
    var whole: Range<Int> { tagStart..<end }
}

/// The framing of protobuf messages: a message is fields until its end, each a tag and a value in
/// the tag's wire type.
enum ProtobufFraming {
    /// How deep groups may nest (they are skipped whole, by recursion).
    static let maximumGroupDepth = 100

    /// The fields of the message stored in `ranges` (one range, or the occurrences of a message
    /// field that was split: protobuf merges them as if their bytes were one message).
    static func fields(_ input: UnsafeRawBufferPointer, _ ranges: [Range<Int>], maximumDepth: Int) throws
        -> [ProtobufFieldEntry]
    {
        var entries: [ProtobufFieldEntry] = []
        for range in ranges {
            var r = ByteReader(buffer: input, offset: range.lowerBound, end: range.upperBound)
            while !r.isAtEnd {
                entries.append(try field(&r, groupDepth: 0, maximumDepth: maximumDepth))
            }
        }
        return entries
    }

    /// Whether `range` is a message read without its type (not empty, every field whole): the
    /// guess ``ProtobufDecoder/explain(_:)`` makes for a length-delimited value (as
    /// ``ProtobufDecoder/decodeRaw(from:)`` does with the fields it frames), framing it alone (its
    /// nested values are guessed in turn).
    static func framesAsMessage(_ input: UnsafeRawBufferPointer, _ range: Range<Int>, maximumDepth: Int) -> Bool {
        !range.isEmpty && (try? fields(input, [range], maximumDepth: maximumDepth)) != nil
    }

    /// Throws if a message `depth` messages below the top level is too deep to read without its
    /// type: past `maximumDepth`, or past what the thread's stack holds.
    static func checkNesting(_ depth: Int, maximumDepth: Int, stack: ThreadStack, at offset: Int) throws {
        guard depth <= maximumDepth else {
            throw WireFormatError(.limitExceeded, "messages nested deeper than \(maximumDepth)", offset: offset)
        }
        guard stack.hasRoom() else { throw WireFormatError.stackExhausted(levels: depth, offset: offset) }
    }

    /// Reads one field at `r`, checking its tag and that its value is within the bytes. (Inlined:
    /// it runs once per field framed; a group, rare, is read out of line.)
    @inline(__always)
    static func field(_ r: inout ByteReader, groupDepth: Int, maximumDepth: Int) throws -> ProtobufFieldEntry {
        let tagStart = r.offset
        let tag = try r.protobufVarint()
        let number = tag >> 3
        guard number >= 1 else {
            throw WireFormatError(.invalidBytes, "field number 0 is not a field number", offset: tagStart)
        }
        guard number <= UInt64(ProtobufWire.fieldNumbers.upperBound) else {
            throw WireFormatError(.invalidBytes, "field number \(number) is above 2^29 - 1", offset: tagStart)
        }
        guard let wireType = ProtobufWireType(rawValue: UInt8(truncatingIfNeeded: tag & 7)) else {
            throw WireFormatError(.invalidBytes, "unknown wire type \(tag & 7)", offset: tagStart)
        }
        let field = Int(truncatingIfNeeded: number)
        var valueStart = r.offset
        do {
            switch wireType {
            case .varint: _ = try r.protobufVarint()
            case .fixed64: try r.skip(8)
            case .fixed32: try r.skip(4)
            case .lengthDelimited:
                let length = try r.protobufLength("a value")
                valueStart = r.offset
                r.offset += length
            case .startGroup:
                try skipGroup(field, &r, tagStart: tagStart, groupDepth: groupDepth, maximumDepth: maximumDepth)
            case .endGroup:
                // Only valid as the end of a group, which the group's loop above consumes.
                guard groupDepth > 0 else {
                    throw WireFormatError(.invalidBytes, "an end-group tag outside a group", offset: tagStart)
                }
            }
        } catch let error as WireFormatError {
            throw naming(error, field: field)
        }
        return ProtobufFieldEntry(
            number: field, wireType: wireType, tagStart: tagStart, valueStart: valueStart, end: r.offset)
    }

    /// `error`, in framing the value of `field`, naming the field for the decoder's coding path,
    /// as v3 and v2 framing do (a field inside a group is named by the group's field, the
    /// message's). Out of line: the loop that frames every field stays small.
    @inline(never)
    private static func naming(_ error: WireFormatError, field: Int) -> WireFormatError {
        var error = error
        error.key = BinaryKey(intValue: field)
        return error
    }

    /// Reads the fields of group `field` up to its end tag.
    @inline(never)
    private static func skipGroup(
        _ field: Int, _ r: inout ByteReader, tagStart: Int, groupDepth: Int, maximumDepth: Int
    ) throws {
        guard groupDepth < maximumDepth else {
            throw WireFormatError(.limitExceeded, "groups nested deeper than \(maximumDepth)", offset: tagStart)
        }
        while true {
            guard !r.isAtEnd else { throw r.truncated("the end of group \(field)") }
            let inner = try Self.field(&r, groupDepth: groupDepth + 1, maximumDepth: maximumDepth)
            if inner.wireType == .endGroup {
                guard inner.number == field else {
                    throw WireFormatError(
                        .invalidBytes, "group \(field) ends with the end tag of \(inner.number)", offset: inner.tagStart
                    )
                }
                return
            }
        }
    }
}

/// Fields kept whole in a tree (`.unknown`): the bytes must be one or more whole fields, each
/// numbered as the key they are kept under (a repeated field the type did not know is several).
enum ProtobufUnknownField {
    /// Throws the `WireFormatError` of bytes that are not such fields.
    static func check(_ bytes: Data, number: Int) throws {
        let input = bytes.withUnsafeBytes { ProtobufInput($0) }
        var r = input.reader(0..<input.count)
        guard !r.isAtEnd else { throw WireFormatError(.truncated, "no field", offset: 0) }
        while !r.isAtEnd {
            let entry = try ProtobufFraming.field(&r, groupDepth: 0, maximumDepth: 100)
            guard entry.number == number else {
                throw WireFormatError(
                    .invalidBytes, "field \(entry.number) kept under key \(number)", offset: entry.tagStart)
            }
        }
    }

    /// The rule an `.unknown` node that failed ``check(_:number:)`` with `error` breaks.
    static func rule(_ error: any Error) -> String {
        let reason = (error as? WireFormatError)?.summary ?? "\(error)"
        return "unknown fields must be whole fields numbered as their key: \(reason)"
    }
}
