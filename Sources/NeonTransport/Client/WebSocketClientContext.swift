import NeonLock
import NeonTransportCore

/// Many outgoing WebSocket connections served by one lws context and one
/// service thread (a terminal client, tests, a load generator with
/// thousands of connections).
///
/// ```swift
/// let context = try WebSocketClientContext()
/// let url = try WebSocketURL(parsing: "ws://127.0.0.1:7681/")
/// let connection = try context.connect(to: url, subprotocol: "neonsync.v1") { connection, event in
///     if case .received(let message) = event { print(message) }
/// }
/// connection.send(text: "hello")
/// context.stop()
/// ```
///
/// Threading: handlers run on the service thread, one event at a time;
/// keep them short. `connect`, a connection's `send`/`close`, and `stop`
/// are safe from any thread, except that `stop` must not be called from a
/// handler.
public final class WebSocketClientContext: Sendable {
    /// The configuration the context was made with.
    public let configuration: Configuration
    let engine: ClientEngine

    /// Creates the context and starts its service thread.
    ///
    /// - Throws: ``TransportError/tlsTrustFile(path:reason:)`` when the
    ///   configured CA file cannot be read or holds no certificate.
    public init(configuration: Configuration = Configuration()) throws(TransportError) {
        if case .certificates(let path) = configuration.serverTrust {
            try TLSFiles.checkTrust(path)
        }
        self.configuration = configuration
        engine = ClientEngine(configuration: configuration)
        try engine.lifecycle.start(engine, threadName: "lws-client")
    }

    deinit {
        if !engine.lifecycle.isServiceThread {
            stop()
        }
    }

    private static let sharedContext = Locked<WebSocketClientContext?>(nil)

    /// A process-wide context for `ws://`, started on first use and never
    /// stopped; the default for ``WebSocketClient``.
    public static func shared() throws(TransportError) -> WebSocketClientContext {
        try sharedContext.withLock { shared throws(TransportError) in
            if let shared { return shared }
            let context = try WebSocketClientContext()
            shared = context
            return context
        }
    }

    /// Opens a connection to `url`, asking for `subprotocol` when given.
    /// Returns at once; `handler` gets `.connected` or `.failed` first.
    ///
    /// - Throws: ``TransportError/tlsNotConfigured(_:)`` for `wss://` on a
    ///   context made without a ``ServerTrust``,
    ///   ``TransportError/notRunning`` after ``stop()``.
    public func connect(
        to url: WebSocketURL,
        subprotocol: String? = nil,
        handler: @escaping ClientConnection.Handler
    ) throws(TransportError) -> ClientConnection {
        if url.isSecure, configuration.serverTrust == nil {
            throw .tlsNotConfigured(url.description)
        }
        let id = ConnectionID(rawValue: engine.lastID.add(1, ordering: .relaxed).newValue)
        let connection = ClientConnection(id: id, url: url, subprotocol: subprotocol, engine: engine)
        guard engine.submit(.connect(connection, handler)) else {
            throw .notRunning
        }
        return connection
    }

    /// Closes every connection with 1001, waits up to the grace period for
    /// them to close, then destroys the context and joins the service
    /// thread. Handlers get their final events before this returns.
    /// Idempotent. Must not be called from a handler.
    public func stop() {
        precondition(!engine.lifecycle.isServiceThread,
                     "WebSocketClientContext.stop() must not be called from a handler")
        engine.lifecycle.stop(gracePeriod: configuration.shutdownGracePeriod)
    }
}
