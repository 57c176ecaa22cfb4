import NeonTransportCore

/// A WebSocket server on libwebsockets: one listening socket, one service
/// thread, plain HTTP answered on the same port.
///
/// ```swift
/// let server = WebSocketServer(configuration: .init(port: 0), delegate: executor)
/// try server.start()
/// print("listening on \(server.port!)")
/// server.send(OutboundFrame(text: "hello"), to: connections)
/// server.stop()
/// ```
///
/// Threading: the delegate is called on the service thread with a
/// ``ServiceContext`` that acts at once. `send`, `close`, `execute` and
/// `stop` may be called from any thread; from other threads they are posted
/// to the service thread and take effect in order. ``stop()`` must not be
/// called from the service thread.
///
/// A server is started once; after ``stop()`` make a new one.
public final class WebSocketServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: Configuration
    let engine: ServerEngine

    /// Makes a server; nothing listens until ``start()``.
    public init(configuration: Configuration = Configuration(), delegate: any WebSocketServerDelegate) {
        self.configuration = configuration
        engine = ServerEngine(configuration: configuration, delegate: delegate)
    }

    deinit {
        if !engine.lifecycle.isServiceThread {
            stop()
        }
    }

    /// Starts the service thread and returns once the port is listening.
    ///
    /// - Throws: ``TransportError/cannotListen(host:port:errno:)`` when the
    ///   address is taken or not local,
    ///   ``TransportError/cannotListenOnUnixSocket(path:)``, the TLS file
    ///   errors of ``TLSConfiguration`` when ``Configuration/tls`` is set,
    ///   ``TransportError/alreadyRunning``.
    public func start() throws(TransportError) {
        try engine.lifecycle.start(engine, threadName: "lws-server")
    }

    /// The TCP port actually bound (the ephemeral one when the configured
    /// port is 0); `nil` before ``start()`` and after ``stop()``.
    public var port: Int? {
        engine.lifecycle.port
    }

    /// Stops gracefully: every connection gets a 1001 close frame after its
    /// queued frames, the server waits up to the configured grace period for
    /// them to close, then destroys the context and joins the service
    /// thread. Idempotent; returns at once if the server never started.
    /// Must not be called from the service thread (a delegate callback).
    public func stop() {
        precondition(!engine.lifecycle.isServiceThread,
                     "WebSocketServer.stop() must not be called from a delegate callback")
        engine.lifecycle.stop(gracePeriod: configuration.shutdownGracePeriod)
    }

    /// Blocks the calling thread until the server has stopped (for a
    /// daemon's main thread while a signal handler calls ``stop()``).
    public func waitUntilStopped() {
        engine.lifecycle.waitUntilStopped()
    }

    /// Runs `work` on the service thread with the server's context, after
    /// what was posted before it: how another thread (a store committing,
    /// a cluster link reading Redis) hands results to the delegate.
    /// Dropped when the server is not running.
    public func execute(_ work: @escaping @Sendable (ServiceContext) -> Void) {
        engine.submit(.execute(work))
    }

    /// Queues `frame` to one connection. Unknown or closing connections
    /// ignore it.
    public func send(_ frame: OutboundFrame, to connection: ConnectionID) {
        engine.submit(.send(frame, connection))
    }

    /// Queues the same `frame` object to every listed connection (encode
    /// once, no copies). Unknown or closing connections are skipped.
    public func send(_ frame: OutboundFrame, to connections: [ConnectionID]) {
        engine.submit(.broadcast(frame, connections))
    }

    /// Closes a connection with `code` and `reason` (at most 123 UTF-8
    /// bytes are sent) after the frames already queued to it are written.
    /// A connection already closing or gone is left alone.
    public func close(_ connection: ConnectionID, code: UInt16 = CloseCode.normal, reason: String = "") {
        engine.submit(.close(connection, code: code, reason: reason))
    }

    /// Sets (or with nil cancels) the connection's one timer: after
    /// `delay` the delegate gets ``ServerEvent/timer(_:)`` for it. Setting it
    /// again moves the deadline. Nothing happens for a connection that is gone.
    public func setTimer(for connection: ConnectionID, after delay: Duration?) {
        engine.submit(.timer(connection, delay))
    }

    /// `true` when the caller is running on this server's service thread.
    var isServiceThread: Bool {
        engine.lifecycle.isServiceThread
    }
}
