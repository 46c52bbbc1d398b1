import Foundation

/// One object per thread, in the thread's POSIX thread-specific storage; released when the
/// thread ends (told first, if it is a ``ThreadEndObserver``).
///
/// The coders keep caches and scratch objects here that must not be shared between threads
/// (they are unsynchronized) and should outlive one call (setting them up is a large part of
/// encoding or decoding a small value).
struct ThreadLocal<Value: AnyObject>: Sendable {
    /// `nil` if the system had no key left: every call then goes without the object.
    private let key: pthread_key_t?

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
            #else
                guard let pointer else { return }
                let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
            #endif
            (object as? any ThreadEndObserver)?.threadWillEnd()
        }
        self.key = status == 0 ? key : nil
    }

    /// This thread's object, left in place.
    var current: Value? {
        guard let key, let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? Value
    }

    /// This thread's object, removed: until it is put back, this thread has none.
    func take() -> Value? {
        guard let key, let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue() as? Value
    }

    /// Keeps `value` as this thread's object, unless the thread has one already.
    func put(_ value: Value) {
        guard let key, pthread_getspecific(key) == nil else { return }
        let pointer = Unmanaged<AnyObject>.passRetained(value).toOpaque()
        if pthread_setspecific(key, pointer) != 0 {
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
    }
}

/// A thread's object that holds things referring back to it (a cycle the thread's end would
/// otherwise leave behind): told when the thread ends, before its thread-local reference is
/// released, so that it can let go of them.
protocol ThreadEndObserver: AnyObject {
    func threadWillEnd()
}
