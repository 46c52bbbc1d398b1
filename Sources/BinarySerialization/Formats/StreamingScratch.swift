import Foundation
import TreeCoding

/// The streaming encoders and sinks one thread reuses from call to call, one pair per format.
///
/// Setting a pair up (two objects, their stacks, the output buffer, the conformance answers) cost
/// about a third of encoding a three-field message. Each thread keeps one scratch (``ThreadLocal``):
/// ``with(_:)`` takes it for the call, so an `encode(to:)` that encodes another
/// value with a `BinaryEncoder` gets a scratch of its own, and puts one back afterwards. A format's
/// pair is made the first time the thread streams in that format. Nothing of a run's value stays
/// behind (the sinks forget their bytes, the engines their `userInfo`).
final class StreamingScratch {
    private var madeV3: Streamer<V3Sink>?
    private var madeV2: Streamer<V2Sink>?
    private var madeProtobuf: Streamer<ProtobufSink>?

    var v3: Streamer<V3Sink> {
        if let made = madeV3 { return made }
        let made = Streamer(V3Sink())
        madeV3 = made
        return made
    }

    var v2: Streamer<V2Sink> {
        if let made = madeV2 { return made }
        let made = Streamer(V2Sink())
        madeV2 = made
        return made
    }

    var protobuf: Streamer<ProtobufSink> {
        if let made = madeProtobuf { return made }
        let made = Streamer(ProtobufSink())
        madeProtobuf = made
        return made
    }

    private init() {}

    /// Runs `body` with this thread's scratch, or a new one if the thread has none (or it is in
    /// use), and keeps the scratch for the thread's next call.
    @inline(__always)
    static func with<R>(_ body: (StreamingScratch) throws -> R) rethrows -> R {
        let scratch = take()
        defer { putBack(scratch) }
        return try body(scratch)
    }

    private static let perThread = ThreadLocal<StreamingScratch>()

    private static func take() -> StreamingScratch {
        perThread.take() ?? StreamingScratch()
    }

    /// Keeps `scratch` for this thread's next call, unless the thread keeps one already. Each run
    /// left it within ``RetentionLimits``.
    private static func putBack(_ scratch: StreamingScratch) {
        if RetentionLimits.reuses { perThread.put(scratch) }
    }
}

/// A format's sink and the streaming encoder that sends to it.
final class Streamer<Sink: ByteSink> {
    let sink: Sink
    let engine: StreamingEncoder

    init(_ sink: Sink) {
        self.sink = sink
        engine = StreamingEncoder(sink: sink)
    }

    deinit {
        engine.releaseContainerBoxes()
    }

    /// `value`'s bytes from the sink (reset by the caller); `nil` if the run gave up or the sink
    /// could not write what it was sent. `throughEncodable`: the root goes through its own
    /// `encode(to:)` (a v3 stream element). Both leave the run within ``RetentionLimits``.
    func run<T: Encodable>(_ value: T, options: TreeEncoder, throughEncodable: Bool = false) -> Data? {
        defer { sink.endRun() }
        guard engine.encode(value, options: options, throughEncodable: throughEncodable) else { return nil }
        return sink.finish()
    }

    /// `tree`'s bytes from the sink (reset by the caller), sent as the streaming encoder would
    /// send the value; the error of what the format cannot write, with its coding path.
    func write(_ tree: BinaryValue) throws -> Data {
        defer { sink.endRun() }
        if let path = TreeReplay.send(tree, to: sink) {
            throw (sink.failure ?? .unexpectedEvent).error(at: path)
        }
        guard let data = sink.finish() else {
            throw EncodingError.invalidValue(
                tree, .init(codingPath: [], debugDescription: "Cannot allocate memory for the output."))
        }
        return data
    }
}

/// An ``EncodingSink`` that writes a format's bytes.
protocol ByteSink: EncodingSink {
    /// Why the sink could not write what it was sent, if it could not.
    var failure: SinkFailure? { get }
    /// The bytes of what the sink was sent; `nil` if it could not write them.
    func finish() -> Data?
    /// Empties the sink after a run, freeing what a large or deep run made it grow to past
    /// ``RetentionLimits``.
    func endRun()
}

extension RetentionLimits {
    /// Bytes of output buffer a thread's sink keeps.
    static let sinkBytes = 1 << 16
}
