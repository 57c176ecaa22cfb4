import Glibc
import Synchronization

/// A value that only the service thread touches, and the check that it is
/// so (swift-nio's `NIOLoopBound`): the first access pins the thread it
/// runs on as the owner, and every access `precondition`s that it runs
/// there. The check stays on in release builds: it costs an atomic load and
/// a compare per access, a few nanoseconds an event. There is no lock:
/// nobody else may take the value, so nobody would wait for it.
///
/// `@unchecked Sendable`: the box is shared with other threads (it lives in
/// the transport's delegate, which they hold), but its value is reached only
/// on the owning thread, which every access checks.
final class ServiceThreadBound<Value>: @unchecked Sendable {
    private var value: Value
    /// The owner's `pthread_self()`; 0 until the first access pins it.
    private let owner = Atomic<UInt>(0)

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value; traps when called off the owning thread.
    func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        checkOwner()
        return try body(&value)
    }

    private func checkOwner() {
        let current = pthread_self()
        let pinned = owner.load(ordering: .relaxed)
        guard pinned != current else { return }
        let (claimed, original) = owner.compareExchange(expected: 0, desired: current, ordering: .relaxed)
        precondition(claimed || original == current,
                     "service-thread state touched from another thread (pinned to \(original), called on \(current))")
    }
}
