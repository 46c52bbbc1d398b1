import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// The calling thread's stack, as far as a recursion over input needs it: whether one more level
/// may start without the stack running out.
///
/// Reading bytes recurses once per level of the input (a call into `init(from:)`, a nested
/// container framed). A thread's stack may hold fewer levels than `maximumDepth` allows: 512 KiB
/// (Apple's secondary threads, `Thread.stackSize`) holds about 400 levels of simple recursive types
/// in a release build. So the readers ask ``hasRoom()`` per level and throw where the stack would
/// overflow.
struct ThreadStack: Sendable {
    /// The lowest address of the stack (stacks grow down); 0 when unknown.
    private let low: UInt
    /// The room a level must find below its caller: a level's frames and whatever runs before the
    /// next check (a leaf read, a `String` made, an error thrown), with a margin. 0 when unknown.
    private let reserve: UInt

    /// A stack of unknown bounds: every level has room (the depth limit alone bounds recursion).
    static let unknown = ThreadStack(low: 0, reserve: 0)

    /// The calling thread's stack. (The bounds come from the system, at a cost: keep the answer
    /// for the thread.)
    static func current() -> ThreadStack {
        guard let (low, size) = bounds(), size > 0 else { return .unknown }
        // A local's address must lie in the stack for ``hasRoom()`` to mean anything: under
        // AddressSanitizer's use-after-return detection locals live in heap frames of its own.
        let here = address()
        guard here >= low, here &- low < size else { return .unknown }
        // 64 KiB: over forty times the largest level measured in a release build, 1.4 KB (a debug
        // build's levels are larger, and its tests run on 8 MiB stacks); a quarter of a tiny stack.
        return ThreadStack(low: low, reserve: min(64 * 1024, size / 4))
    }

    /// The lowest address and the size of the calling thread's stack, if the system tells.
    private static func bounds() -> (low: UInt, size: UInt)? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            guard top > size else { return nil }
            return (top &- size, size)
        #elseif canImport(Glibc) || canImport(Musl) || canImport(Android)
            // `pthread_getattr_np` is a GNU extension the C module does not declare: looked up.
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return nil }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address, size > 0 else { return nil }
            return (UInt(bitPattern: address), UInt(size))
        #else
            return nil
        #endif
    }

    /// Whether ``reserve`` bytes of the stack are left below the caller's frame. Asked on another
    /// thread than the one measured, the address is outside this stack and the answer is `true`.
    @inline(__always)
    func hasRoom() -> Bool {
        Self.address() &- low >= reserve
    }

    /// Whether the bounds are known, and checked.
    var isKnown: Bool { reserve > 0 }

    /// The address of a local of the caller's frame.
    @inline(__always)
    private static func address() -> UInt {
        var marker: UInt8 = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

extension WireFormatError {
    /// The error of a read that stopped `levels` deep because the thread's stack had no room
    /// for another level (``ThreadStack``).
    static func stackExhausted(levels: Int, offset: Int?) -> WireFormatError {
        WireFormatError(
            .limitExceeded,
            "the data is nested deeper than this thread's stack holds (\(levels) levels in): read it on a thread "
                + "with a larger stack, or with a lower maximumDepth",
            offset: offset)
    }
}
