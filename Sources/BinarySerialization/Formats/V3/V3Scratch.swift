import Foundation
import TreeCoding

/// The streaming encoder and v3 sink one thread reuses from call to call.
///
/// Setting them up (two objects, their stacks, the output buffer, the conformance answers) cost
/// about a third of encoding a three-field message. Each thread keeps one pair in thread-local
/// storage: ``take()`` removes it from there, so an `encode(to:)` that encodes another value with
/// a `BinaryEncoder` gets a pair of its own, and ``putBack(_:)`` keeps one pair again. Nothing of
/// a run's value stays behind (the sink forgets its bytes, the engine its `userInfo`).
final class V3Scratch {
    let sink = V3Sink()
    let engine: StreamingEncoder

    private init() {
        engine = StreamingEncoder(sink: sink)
    }

    /// This thread's pair, or a new one if the thread has none (or it is in use).
    static func take() -> V3Scratch {
        guard let key = threadKey, let pointer = pthread_getspecific(key) else { return V3Scratch() }
        pthread_setspecific(key, nil)
        return Unmanaged<V3Scratch>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Keeps `scratch` for this thread's next call, unless the thread keeps one already.
    static func putBack(_ scratch: V3Scratch) {
        guard let key = threadKey, pthread_getspecific(key) == nil else { return }
        let pointer = Unmanaged.passRetained(scratch).toOpaque()
        if pthread_setspecific(key, pointer) != 0 {
            Unmanaged<V3Scratch>.fromOpaque(pointer).release()
        }
    }

    /// The thread-local slot; its destructor releases a thread's pair when the thread ends.
    /// `nil` if the system has no key left (every call then makes a new pair).
    private static let threadKey: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<V3Scratch>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<V3Scratch>.fromOpaque(pointer).release() }
            #endif
        }
        return status == 0 ? key : nil
    }()
}
