import NeonTransportCore

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
