#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only inside `withLock`: the one lock
/// type of the package (docs/ARCHITECTURE.md, "Threads").
///
/// It is a pthread mutex rather than the standard library's
/// `Synchronization.Mutex` because ThreadSanitizer sees pthread mutexes (it
/// intercepts `pthread_mutex_lock`), while on Linux `Mutex` locks with its own
/// futex calls that TSan cannot see, so every access inside a `Mutex` reads
/// to TSan as a data race (docs/RELIABILITY.md, "ThreadSanitizer"). The call
/// sites are `Mutex`'s: `Locked(value)` and `withLock { (inout Value) in … }`.
/// An uncontended lock and unlock cost what `Mutex`'s do (one atomic each; no
/// system call), and no delivery takes a lock of its own (PERFORMANCE.md,
/// "Every core").
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    public init(_ initialValue: consuming Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not call
    /// `withLock` on the same `Locked` (the lock is not recursive).
    @inlinable @inline(__always)
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        lock()
        defer { unlock() }
        return try body(&value)
    }

    @inlinable @inline(__always)
    func lock() {
        let status = pthread_mutex_lock(mutex)
        precondition(status == 0, "pthread_mutex_lock failed with \(status)")
    }

    @inlinable @inline(__always)
    func unlock() {
        let status = pthread_mutex_unlock(mutex)
        precondition(status == 0, "pthread_mutex_unlock failed with \(status)")
    }
}
