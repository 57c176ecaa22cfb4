import Foundation
import Glibc
import NeonCore

/// A named thread of the server's own (the store's committer, the cluster's
/// Redis writer and reader) and the one way it is started, woken and
/// stopped.
///
/// Its life is a `State`: idle → running (`start`) → stopping (a stop was
/// asked for; the body finishes what it has) → stopped (the body returned).
/// A stop asked for before the start goes from idle to stopped: the body
/// never runs. The body waits with `wait(until:)`, which returns early when
/// work is signalled or a stop is asked for, never with a sleep.
///
/// What the body owns (connections, what it has read) lives in the body,
/// on this thread: the body opens and closes it, so a stopper that gave up
/// waiting frees nothing the thread still uses.
///
/// `@unchecked Sendable`: `state`, `signalled`, `waiting` and `owner` are
/// guarded by `condition`; `name` never changes. Every method may be called
/// from any thread, except `wait(until:)`, which is the body's own
/// (checked), and `stop` and `waitUntilCaughtUp`, which the body must not
/// call (checked): they wait for it.
final class WorkerThread: @unchecked Sendable {
    enum State: Equatable, Sendable {
        case idle, running, stopping, stopped
    }

    /// Why `wait(until:)` returned.
    enum Wake: Equatable, Sendable {
        /// `signal()` was called since the last wait returned.
        case signalled
        /// A stop was asked for: finish what is handed over, then return.
        case stopRequested
        /// The deadline passed.
        case deadline
    }

    /// How a `stop` ended for its caller.
    enum Ending: Equatable, Sendable {
        /// The thread has ended (or never started).
        case ended
        /// The timeout passed first; the thread still runs, and ends on its
        /// own once what it waits for returns.
        case timedOut
    }

    /// The thread's name (`top -H`, a debugger).
    let name: String
    private let condition = NSCondition()
    private var state = State.idle
    /// Work was signalled and no wait has returned for it yet.
    private var signalled = false
    /// The body is inside `wait(until:)`.
    private var waiting = false
    /// The running thread, once its body began.
    private var owner: pthread_t?

    init(name: String) {
        self.name = name
    }

    /// Where the thread is in its life.
    var currentState: State {
        condition.lock()
        defer { condition.unlock() }
        return state
    }

    /// A stop was asked for (the body checks this before it takes work, and
    /// returns once there is none).
    var isStopRequested: Bool {
        let state = currentState
        return state == .stopping || state == .stopped
    }

    /// Whether the caller is the running thread; `condition` is held.
    private var callerIsOwner: Bool {
        owner.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Starts the thread running `body`, once. Returns false, running
    /// nothing, when it was started before or a stop came first.
    @discardableResult
    func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        guard state == .idle else {
            condition.unlock()
            return false
        }
        state = .running
        condition.unlock()
        let thread = Thread { [self] in
            condition.lock()
            owner = pthread_self()
            condition.unlock()
            body()
            condition.lock()
            state = .stopped
            owner = nil
            condition.broadcast()
            condition.unlock()
        }
        thread.name = name
        thread.start()
        return true
    }

    /// Wakes the body's current or next wait (work was handed over).
    func signal() {
        condition.lock()
        signalled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `deadline` (nil: without one), returning early when work
    /// is signalled or a stop is asked for; a signal that came while the
    /// body was busy returns the next wait at once. The body's own.
    @discardableResult
    func wait(until deadline: ContinuousClock.Instant? = nil) -> Wake {
        condition.lock()
        defer { condition.unlock() }
        precondition(callerIsOwner, "only the body of \(name) waits on it")
        waiting = true
        // Someone may wait for the body to be caught up (`waitUntilCaughtUp`).
        condition.broadcast()
        defer { waiting = false }
        while true {
            if state == .stopping { return .stopRequested }
            if signalled {
                signalled = false
                return .signalled
            }
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return .deadline }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left.inSeconds))
            } else {
                condition.wait()
            }
        }
    }

    /// Asks the body to finish and return; returns at once. Before the
    /// start it means the body never runs.
    func requestStop() {
        condition.lock()
        askToStop()
        condition.unlock()
    }

    /// The transition a stop makes; `condition` is held.
    private func askToStop() {
        switch state {
        case .idle: state = .stopped
        case .running: state = .stopping
        case .stopping, .stopped: break
        }
        condition.broadcast()
    }

    /// Asks for a stop and returns once the thread has ended, or once
    /// `timeout` passed (nil: no bound), saying which. Safe from any thread
    /// but the worker's, any number of times, at once: every caller returns
    /// when the thread has ended.
    @discardableResult
    func stop(timeout: Duration? = nil) -> Ending {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        condition.lock()
        defer { condition.unlock() }
        precondition(!callerIsOwner, "\(name) cannot stop itself: its stop waits for it")
        askToStop()
        while state != .stopped {
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left.inSeconds))
            } else {
                condition.wait()
            }
        }
        return .ended
    }

    /// Returns once the body waits with nothing signalled (it has taken up
    /// all the work signalled before this call), or the thread is not
    /// running (before its start, after it ended). Not from the body.
    func waitUntilCaughtUp() {
        condition.lock()
        defer { condition.unlock() }
        precondition(!callerIsOwner, "the body of \(name) cannot wait for itself")
        while (state == .running || state == .stopping) && (!waiting || signalled) {
            condition.wait()
        }
    }
}
