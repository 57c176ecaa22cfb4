import Dispatch
import NeonTransportCore

/// Idle connections (`idleTimeout`): a connection from which nothing (no
/// message, no pong) arrived for half the timeout gets a ping; one silent
/// for the whole timeout is cut off without a close frame.
///
/// One timer for the whole server posts a sweep four times per timeout, and
/// the sweep compares each connection's ``Session/heardAt`` with the sweep
/// count (``tick``). libwebsockets' own idle policy keeps one timer per
/// connection in a sorted list and re-inserts it on every message and pong,
/// a walk of the list each time. Here a message costs one integer store and
/// a sweep one pass over the connections.
///
/// The timing decisions are pure; only the timer touches Dispatch.
/// Service thread only (the timer posts to it).
struct IdleSweep {
    /// Sweeps per idle timeout; pings and cut-offs happen within a quarter
    /// timeout after their due time.
    static let sweepsPerTimeout = 4

    /// What a sweep does with one connection.
    enum Verdict: Equatable {
        case none
        /// Silent for more than half the timeout: send a ping.
        case ping
        /// Silent for more than the whole timeout: cut it off.
        case cutOff
    }

    /// Time between sweeps; `nil` when the server has no idle timeout.
    /// Timeouts under 2 s sweep as often as a 2 s one.
    let period: Duration?
    /// Sweeps so far: the clock of ``Session/heardAt``.
    private(set) var tick = 0
    private var timer: (any DispatchSourceTimer)?

    init(idleTimeout: Duration?) {
        guard let idleTimeout, idleTimeout > .zero else {
            period = nil
            return
        }
        period = max(idleTimeout, .seconds(2)) / Self.sweepsPerTimeout
    }

    /// Starts the timer that calls `post` every ``period`` (from a Dispatch
    /// queue); nothing without an idle timeout.
    mutating func start(posting post: @escaping @Sendable () -> Void) {
        guard let period else { return }
        let nanoseconds = Int(period.components.seconds) * 1_000_000_000
            + Int(period.components.attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler(handler: post)
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
    }

    /// One sweep begins.
    mutating func advance() {
        tick += 1
    }

    /// What this sweep does with a connection last heard from at sweep
    /// `heardAt`.
    func verdict(heardAt: Int) -> Verdict {
        let silent = tick - heardAt
        if silent > Self.sweepsPerTimeout { return .cutOff }
        if silent > Self.sweepsPerTimeout / 2 { return .ping }
        return .none
    }
}
