/// A connection that was lost or could not be made, and what the runtime
/// does next: it tries again after its backoff, on the next server of a
/// failover list (`--server URL1,URL2,…`).
public struct Disconnection: Equatable, Sendable {
    /// Why there is no connection.
    public enum Cause: Equatable, Sendable {
        /// The connection closed: the server's reason, or the close code.
        case closed(String)
        /// The connection failed (refused, reset, the handshake failed).
        case failed(String)
        /// No connection could even be opened.
        case notOpened(String)
    }

    public var cause: Cause
    /// The server the connection was to.
    public var server: String
    /// When the next try is, when this loss scheduled one (nil while the
    /// client is ending, or when a try was already scheduled).
    public var retryAt: Duration?
    /// With a failover list, the server the next try goes to; nil with one
    /// server.
    public var next: String?

    public init(cause: Cause, server: String, retryAt: Duration? = nil, next: String? = nil) {
        self.cause = cause
        self.server = server
        self.retryAt = retryAt
        self.next = next
    }

    /// What a screen says: what happened and, when a try is scheduled on
    /// a failover list, which server comes next.
    public var sentence: String {
        let what = switch cause {
        case let .closed(reason): reason
        case let .failed(reason): "cannot reach \(server): \(reason)"
        case let .notOpened(reason): "cannot connect to \(server): \(reason)"
        }
        guard retryAt != nil, let next else { return what }
        return what + "; trying \(next) next"
    }
}
