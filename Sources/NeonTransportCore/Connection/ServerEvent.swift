/// Something that happened on one server connection. Delivered to
/// ``WebSocketServerDelegate/handle(_:in:)`` on the service thread.
public enum ServerEvent: Sendable, Equatable {
    /// A WebSocket handshake completed. `peer` is the remote IP address
    /// (`unix` on the Unix domain socket); `peerUID` is the user id of the
    /// process on the other end of the Unix domain socket, as the kernel
    /// reports it (`SO_PEERCRED`), and nil for TCP connections.
    case connected(ConnectionID, peer: String, peerUID: UInt32? = nil)
    /// A whole message arrived (reassembled; text validated as UTF-8).
    case received(WebSocketMessage, from: ConnectionID)
    /// An inbound message broke a rule. Frames the delegate sends to this
    /// connection from inside this callback are still flushed, then the
    /// connection is closed with `rejection.closeCode` (1009 or 1007).
    case rejected(InboundRejection, from: ConnectionID)
    /// The connection is gone; sending to `ConnectionID` is now a no-op.
    case disconnected(ConnectionID, WebSocketClose)
    /// A timer set with ``WebSocketServer/setTimer(for:after:)`` ran out.
    case timer(ConnectionID)
}
