import Dispatch
import NeonLock
import NeonTransportCore

/// Hands the service thread's start-up outcome (a bound port, or an error)
/// to the thread waiting in ``ServiceLifecycle/start(_:threadName:)``.
final class StartupLatch: Sendable {
    private let outcome = Locked<Result<Int, TransportError>?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Called once by the service thread.
    func finish(_ result: Result<Int, TransportError>) {
        outcome.withLock { $0 = result }
        semaphore.signal()
    }

    /// Blocks until `finish` is called.
    func wait() -> Result<Int, TransportError> {
        semaphore.wait()
        return outcome.withLock { $0! }
    }
}

extension Duration {
    /// This duration as a Dispatch deadline from now.
    var dispatchDeadline: DispatchTime {
        let (seconds, attoseconds) = components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        return .now() + .nanoseconds(Int(clamping: max(0, nanoseconds)))
    }
}
