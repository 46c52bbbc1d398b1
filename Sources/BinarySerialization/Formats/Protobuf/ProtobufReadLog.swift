/// What `decodeTree` needs to know of a read that the value's tree does not say: which stored
/// fields are members of a oneof the type knows (the member set last is in the tree; the others
/// it replaced are not unknown fields). Kept for the thread while ``recording(_:_:)`` runs.
final class ProtobufReadLog {
    /// The input whose fields are noted (a run decoding other bytes on the thread notes none).
    private let input: UnsafeRawPointer?
    /// For each stored member, where its tag starts, the oneof it was read in (one per oneof
    /// container opened).
    private(set) var oneOfOfMember: [Int: Int] = [:]
    private var oneOfs = 0

    private init(input: UnsafeRawPointer?) {
        self.input = input
    }

    private static let perThread = ThreadLocal<ProtobufReadLog>()

    /// Runs `body`, which decodes `input`, noting what it reads.
    static func recording<R>(_ input: UnsafeRawBufferPointer, _ body: () throws -> R) rethrows -> (R, ProtobufReadLog) {
        let log = ProtobufReadLog(input: input.baseAddress)
        let outer = perThread.take()
        perThread.put(log)
        defer {
            _ = perThread.take()
            if let outer { perThread.put(outer) }
        }
        return (try body(), log)
    }

    /// Notes the stored members of one oneof (nodes of its container's entries), by where they
    /// lie in the input (a merged message is read from a copy).
    static func noteOneOf(_ members: [(position: Int, node: ByteNode)]) {
        guard let log = perThread.current, let first = members.first,
            let (input, origin) = ProtobufMerges.origin(of: first.node.buffer), input == log.input
        else { return }
        log.oneOfs += 1
        for member in members {
            for start in ProtobufFormat.occurrenceStarts(member.node) {
                if let offset = origin.inputOffset(start) { log.oneOfOfMember[offset] = log.oneOfs }
            }
        }
    }

    /// The oneof (an identifier) that read the field whose tag is at `position` of a buffer
    /// whose bytes lie in the input as `origin` says.
    func oneOf(at position: Int, _ origin: ProtobufOrigin) -> Int? {
        origin.inputOffset(position).flatMap { oneOfOfMember[$0] }
    }
}
