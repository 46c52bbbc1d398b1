import Foundation
import TreeCoding

/// The streaming encoder and v3 sink one thread reuses from call to call.
///
/// Setting them up (two objects, their stacks, the output buffer, the conformance answers) cost
/// about a third of encoding a three-field message. Each thread keeps one pair (``ThreadLocal``):
/// ``take()`` removes it, so an `encode(to:)` that encodes another value with a `BinaryEncoder`
/// gets a pair of its own, and ``putBack(_:)`` keeps one pair again. Nothing of a run's value
/// stays behind (the sink forgets its bytes, the engine its `userInfo`).
final class V3Scratch {
    let sink = V3Sink()
    let engine: StreamingEncoder

    private init() {
        engine = StreamingEncoder(sink: sink)
    }

    private static let perThread = ThreadLocal<V3Scratch>()

    /// This thread's pair, or a new one if the thread has none (or it is in use).
    static func take() -> V3Scratch {
        perThread.take() ?? V3Scratch()
    }

    /// Keeps `scratch` for this thread's next call, unless the thread keeps one already.
    static func putBack(_ scratch: V3Scratch) {
        perThread.put(scratch)
    }
}
