import NeonCore

/// What the model asks the client's shell to do.
public enum ClientCommand: Equatable, Sendable {
    case send(ClientMessage)
    case quit
    /// Drop the connection and join again (resync from a fresh welcome).
    case reconnect
    /// The server refused this client for good: end with the refusal's
    /// sentence and its exit status instead of reconnecting.
    case refused(Refusal)
}
