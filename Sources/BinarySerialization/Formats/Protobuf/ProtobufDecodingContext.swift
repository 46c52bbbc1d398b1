import Foundation
import TreeCoding

/// What every decoder of one run shares: the input, the options, and (for `decodeTree`) the
/// fields no type read.
final class ProtobufDecodingContext {
    let input: ProtobufInput
    let userInfo: [CodingUserInfoKey: Any]
    let maximumDepth: Int
    /// The messages read, by the path of their node in the value's tree: `decodeTree` keeps the
    /// fields of each that the type did not read.
    private(set) var messages: [(path: [ProtobufTreeStep], message: ProtobufMessage)] = []
    let recordsMessages: Bool

    init(input: ProtobufInput, userInfo: [CodingUserInfoKey: Any], maximumDepth: Int, recordsMessages: Bool) {
        self.input = input
        self.userInfo = userInfo
        self.maximumDepth = maximumDepth
        self.recordsMessages = recordsMessages
    }

    /// The message stored in `ranges`, framed; `records`: kept for `decodeTree` (not map entries,
    /// whose fields other than key and value have no place in the tree).
    func message(_ ranges: [Range<Int>], at location: ProtobufLocation, records: Bool = true) throws
        -> ProtobufMessage
    {
        let entries: [ProtobufFieldEntry]
        do {
            entries = try ProtobufFraming.fields(input, ranges, maximumDepth: maximumDepth)
        } catch let error as WireFormatError {
            throw location.decodingError(error)
        }
        let message = ProtobufMessage(entries, ranges: ranges, tracksReads: recordsMessages && records)
        if recordsMessages, records { messages.append((location.steps, message)) }
        return message
    }
}

/// A step from a node of the protobuf tree to a child: a field, an element, or a map entry's
/// value (found by its key, since the tree sorts map entries).
enum ProtobufTreeStep {
    case field(Int)
    case element(Int)
    case mapValue(key: BinaryValue)
}

/// Where a decoder is: the coding path (for errors) and the tree path (for `decodeTree`), and the
/// nesting depth.
struct ProtobufLocation {
    var codingPath: [any CodingKey]
    var steps: [ProtobufTreeStep]
    var depth: Int

    static let root = ProtobufLocation(codingPath: [], steps: [], depth: 0)

    func field(_ key: some CodingKey, number: Int) -> ProtobufLocation {
        ProtobufLocation(codingPath: codingPath + [key], steps: steps + [.field(number)], depth: depth)
    }

    func element(_ index: Int) -> ProtobufLocation {
        ProtobufLocation(
            codingPath: codingPath + [BinaryKey.index(index)],
            steps: steps + [.element(index)], depth: depth)
    }

    /// One container deeper; an error past the limit.
    func deeper(_ maximumDepth: Int) throws -> ProtobufLocation {
        guard depth < maximumDepth else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "Protobuf: nesting deeper than the limit of \(maximumDepth)",
                    underlyingError: WireFormatError(.limitExceeded, "nesting deeper than \(maximumDepth)")))
        }
        var next = self
        next.depth += 1
        return next
    }

    /// A wire error of the bytes here, as a `DecodingError` naming the path and the offset.
    func decodingError(_ error: WireFormatError) -> DecodingError {
        .dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "Protobuf: \(error.summary)", underlyingError: error))
    }

    func typeMismatch(_ type: Any.Type, _ message: String, offset: Int?) -> DecodingError {
        let wire = WireFormatError(.typeMismatch, message, offset: offset)
        return .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Protobuf: \(wire.summary)", underlyingError: wire))
    }

    func invalidAccess(_ type: Any.Type, _ code: ProtobufDecodingError, _ message: String) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Protobuf: \(message)", underlyingError: code))
    }
}

/// The fields of one message, with the numbers a type asked for (the others are unknown to it).
///
/// Fields are found by a linear scan: a type asks for each of its keys once, and a message's
/// fields are few; an index would cost more to build than the scans it saves.
final class ProtobufMessage {
    let entries: [ProtobufFieldEntry]
    /// Where its bytes are: two readings of one message have the same ranges.
    let ranges: [Range<Int>]
    /// Whether the numbers asked for are kept (for `decodeTree`).
    private let tracksReads: Bool
    private(set) var read: Set<Int> = []

    init(_ entries: [ProtobufFieldEntry], ranges: [Range<Int>], tracksReads: Bool) {
        self.entries = entries
        self.ranges = ranges
        self.tracksReads = tracksReads
    }

    /// Field numbers in the order they first appear.
    var numbers: [Int] {
        var seen: Set<Int> = []
        return entries.compactMap { seen.insert($0.number).inserted ? $0.number : nil }
    }

    /// The occurrences of field `number`, in order (empty when absent); marks the field read.
    func occurrences(_ number: Int) -> [ProtobufFieldEntry] {
        if tracksReads { read.insert(number) }
        return entries.filter { $0.number == number }
    }

    /// Marks field `number` as a field of the type without reading it.
    func markRead(_ number: Int) {
        if tracksReads { read.insert(number) }
    }

    func contains(_ number: Int) -> Bool { entries.contains { $0.number == number } }

    /// The entries of fields no type asked for, in order.
    var unread: [ProtobufFieldEntry] { entries.filter { !read.contains($0.number) } }
}
