import NeonTransportCore

/// Receives a ``WebSocketServer``'s events and answers its plain HTTP
/// requests.
///
/// Every method but ``unavailableReason()`` is called on the server's
/// gateway thread, one call at a time, never concurrently, in the order the
/// events happened on each connection (the service threads only read and
/// write sockets and post to it). Work done here delays every event of the
/// server, though no socket. Each call is handed the ``ServiceContext`` to
/// act through (send, close, timers, backlog), so a delegate keeps no
/// reference to its server.
///
/// The server holds its delegate strongly until ``WebSocketServer/stop()``
/// returns.
public protocol WebSocketServerDelegate: AnyObject, Sendable {
    /// Called for each connection event, in order per connection.
    func handle(_ event: ServerEvent, in context: ServiceContext)

    /// Answers a plain HTTP request on the WebSocket port; the context's
    /// ``ServiceContext/backlog`` is every service thread's, gathered for
    /// it. The default implementation answers 404 for every path.
    func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse

    /// A WebSocket handshake was answered 403 because the configured
    /// ``OriginPolicy`` does not allow its `Origin`; no connection was
    /// made. Called on the gateway thread once the 403 has been written.
    /// The default implementation does nothing.
    func refused(_ handshake: RefusedHandshake)

    /// Called on any service thread, concurrently with the other calls:
    /// read only what is safe to read from any thread (an atomic).
    ///
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
