import NeonCore

/// What the model asks the client's shell to do.
public enum ClientCommand: Equatable, Sendable {
    case send(ClientMessage)
    case quit
    /// Drop the connection and join again (resync from a fresh welcome).
    case reconnect
}
