import CLibWebSockets
import NeonTransportCore

extension ServerEngine {
    /// One sweep of the ``IdleSweep`` on the service thread: pings the
    /// connections silent for half the idle timeout, and has lws kill
    /// (without a close frame) those silent for all of it.
    func sweepIdle() {
        idle.advance()
        for session in connections.all {
            guard let wsi = session.establishedWSI else { continue }
            switch idle.verdict(heardAt: session.heardAt) {
            case .none:
                break
            case .ping:
                session.perform(session.apply(.pingDue), wsi)
            case .cutOff:
                if session.apply(.idleTimedOut) == .disconnect {
                    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
                }
            }
        }
    }
}
