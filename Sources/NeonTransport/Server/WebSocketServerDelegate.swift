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

/// Receives a ``WebSocketServer``'s events and answers its plain HTTP
/// requests.
///
/// Every method is called on the server's service thread, one call at a
/// time, never concurrently. Work done here delays every connection of the
/// server, so keep it short. Each call is handed the ``ServiceContext`` to
/// act through (send, close, timers, queue depths), so a delegate keeps no
/// reference to its server.
///
/// The server holds its delegate strongly until ``WebSocketServer/stop()``
/// returns.
public protocol WebSocketServerDelegate: AnyObject, Sendable {
    /// Called for each connection event, in order per connection.
    func handle(_ event: ServerEvent, in context: ServiceContext)

    /// Answers a plain HTTP request on the WebSocket port. The default
    /// implementation answers 404 for every path.
    func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse

    /// A WebSocket handshake was answered 403 because the configured
    /// ``OriginPolicy`` does not allow its `Origin`; no connection was
    /// made. The default implementation does nothing.
    func refused(_ handshake: RefusedHandshake)

    /// Why new WebSocket connections cannot be served right now (for
    /// example: the store they need is unreachable), or nil when they can.
    /// A reason answers every handshake 503 with it as the body, so that a
    /// proxy tries another server. The default implementation returns nil.
    func unavailableReason() -> String?
}

extension WebSocketServerDelegate {
    public func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse {
        .notFound
    }

    public func refused(_ handshake: RefusedHandshake) {}

    public func unavailableReason() -> String? { nil }
}
