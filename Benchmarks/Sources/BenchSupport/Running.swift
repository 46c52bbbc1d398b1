// What every benchmark executable needs: a clock, a sink the optimizer cannot see through, a
// thread with a stack for deep values, and time formatting.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Nanoseconds on the monotonic clock.
@inline(__always)
public func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Keeps a result alive so the optimizer cannot drop the work that produced it.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: T) {}

/// Runs `body` on a thread with a 512 MiB stack and waits until that thread has ended: deep
/// values recurse in every coder (and in `==` and `deinit`), which overflows the default 8 MiB
/// stack.
///
/// The thread is joined, not merely signalled: its thread-local caches (a decoder, a streaming
/// encoder and the container boxes they keep) are torn down when it ends, and with a signal the
/// process could exit before or after that teardown. Under callgrind that made `--allocs` runs of
/// one binary differ by the teardown's instructions (7.4M per P5 depth-10,000 encode op, as
/// (K=3 − K=1) / 2 caught it in one run and not the other).
public func onBigStack(_ body: @escaping () -> Void) {
    final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setstacksize(&attributes, 512 << 20)
    let job = Unmanaged.passRetained(Job(body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(&thread, &attributes, { raw in
        guard let raw else { return nil }
        Unmanaged<Job>.fromOpaque(raw).takeRetainedValue().body()
        return nil
    }, job)
    guard started == 0 else { fatalError("pthread_create failed: \(started)") }
    pthread_join(thread, nil)
}

public func formatTime(_ ns: Double) -> String {
    // Thresholds just below the powers of ten, so that rounding never prints "1000 ns".
    if ns < 999.5 { return String(format: "%.0f ns", ns) }
    if ns < 9_995 { return String(format: "%.2f µs", ns / 1_000) }
    if ns < 999_950 { return String(format: "%.1f µs", ns / 1_000) }
    if ns < 9_995_000 { return String(format: "%.2f ms", ns / 1_000_000) }
    return String(format: "%.1f ms", ns / 1_000_000)
}

