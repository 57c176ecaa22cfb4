import Glibc
import Synchronization

/// A value that only one service thread touches, and the check that it is
/// so (swift-nio's `NIOLoopBound`): ``pin()`` (called by the transport as
/// its service thread starts) or else the first access claims the thread it
/// runs on as the owner, and every access `precondition`s that it runs
/// there. The check stays on in release builds: it costs an atomic load and
/// a compare per access, a few nanoseconds an event. There is no lock:
/// nobody else may take the value, so nobody would wait for it.
///
/// The engines bind their service-thread state (connections, sessions,
/// flags) through one of these, and the executor its rooms.
///
/// `@unchecked Sendable`: the box is shared with other threads (it lives in
/// an engine or a delegate, which they hold), but its value is reached only
/// on the owning thread, which every access checks.
package final class ServiceThreadBound<Value>: @unchecked Sendable {
    private var storage: Value
    /// The owner's `pthread_self()`; 0 until it is pinned.
    private let owner = Atomic<UInt>(0)

    package init(_ value: Value) {
        storage = value
    }

    /// Claims the value for the calling thread. Traps when another thread
    /// owns it already.
    package func pin() {
        checkOwner()
    }

    /// Runs `body` with the value; traps when called off the owning thread.
    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        checkOwner()
        return try body(&storage)
    }

    /// The value, for a class whose own properties are then reached one at
    /// a time (so a callback that re-enters the owner, as lws callbacks
    /// do, never overlaps an access); traps when read off the owning thread.
    package var value: Value {
        _read {
            checkOwner()
            yield storage
        }
    }

    private func checkOwner() {
        let current = UInt(pthread_self())
        let pinned = owner.load(ordering: .relaxed)
        guard pinned != current else { return }
        let (claimed, original) = owner.compareExchange(expected: 0, desired: current, ordering: .relaxed)
        precondition(claimed || original == current,
                     "service-thread state touched from another thread (pinned to \(original), called on \(current))")
    }
}
