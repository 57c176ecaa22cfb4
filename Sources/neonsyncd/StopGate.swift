import NeonLock
import NeonServer

/// Where SIGINT and SIGTERM go, from before the server starts: a stop asked
/// for while the server is starting (its start line may already be out, and
/// whoever read it may stop it) is held and carried out as soon as it has
/// started; once it serves, a stop goes straight to it. A signal never finds
/// the process without a handler, so it never dies of one.
final class StopGate: Sendable {
    private enum State {
        case starting(pending: String?)
        case serving(SyncServer)
    }

    private let state = Locked(State.starting(pending: nil))

    /// A stop asked for with `reason` (the signal's name).
    func request(_ reason: String) {
        let server: SyncServer? = state.withLock { state in
            switch state {
            case let .serving(server):
                return server
            case let .starting(pending):
                if pending == nil { state = .starting(pending: reason) }
                return nil
            }
        }
        server?.stop(reason: reason)
    }

    /// The server has started: a stop held until now is carried out.
    func serve(_ server: SyncServer) {
        let pending: String? = state.withLock { state in
            guard case let .starting(pending) = state else { return nil }
            state = .serving(server)
            return pending
        }
        if let pending { server.stop(reason: pending) }
    }
}
