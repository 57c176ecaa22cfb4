import CLibWebSockets
import Dispatch

/// Idle connections (`idleTimeout`): a connection from which nothing (no
/// message, no pong) arrived for half the timeout gets a ping; one silent
/// for the whole timeout is closed.
///
/// One timer for the whole server posts a sweep four times per timeout, and
/// the sweep compares each connection's `heardAt` with the sweep count.
/// libwebsockets' own idle policy keeps one timer per connection in a sorted
/// list and re-inserts it on every message and pong, a walk of the list
/// each time. Here a message costs one integer store and a sweep one pass
/// over the connections.
extension ServerEngine {
    /// Sweeps per idle timeout; pings and closes happen within a quarter
    /// timeout after their due time.
    static let sweepsPerIdleTimeout = 4

    /// Starts the sweep timer when the server has an idle timeout.
    func startIdleSweeps() {
        guard let idle = configuration.idleTimeout, idle > .zero else { return }
        let period = max(idle, .seconds(2)) / Self.sweepsPerIdleTimeout
        let nanoseconds = Int(period.components.seconds) * 1_000_000_000
            + Int(period.components.attoseconds / 1_000_000_000)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let queue = lifecycle.queue
        timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds),
                       leeway: .nanoseconds(nanoseconds / 10))
        timer.setEventHandler { _ = queue.post(.sweepIdle) }
        timer.resume()
        idleSweeps = timer
    }

    /// One sweep on the service thread.
    func sweepIdle() {
        idleTick += 1
        for session in sessions.values {
            guard let wsi = session.establishedWSI else { continue }
            let silent = idleTick - session.heardAt
            if silent > Self.sweepsPerIdleTimeout {
                if session.apply(.idleTimedOut) == .disconnect {
                    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
                }
            } else if silent > Self.sweepsPerIdleTimeout / 2 {
                session.perform(session.apply(.pingDue), wsi)
            }
        }
    }
}
