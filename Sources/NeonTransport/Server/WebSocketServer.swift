import NeonTransportCore
import Synchronization

/// A WebSocket server on libwebsockets: one listening port (and optionally
/// a Unix socket), ``Configuration/threads`` service threads that read and
/// write the connections, plain HTTP answered on the same port.
///
/// ```swift
/// let server = WebSocketServer(configuration: .init(port: 0, threads: 4), delegate: executor)
/// try server.start()
/// print("listening on \(server.port!)")
/// server.send(OutboundFrame(text: "hello"), to: connections)
/// server.stop()
/// ```
///
/// Threading: the delegate is called on the server's gateway thread, one
/// call at a time, with a ``ServiceContext`` whose commands reach the
/// service threads when the call's round ends. `send`, `close`, `execute`
/// and `stop` may be called from any thread; from other threads they are
/// posted and take effect in order. ``stop()`` must not be called from a
/// delegate call.
///
/// A server is started once; after ``stop()`` make a new one.
public final class WebSocketServer: Sendable {
    /// The configuration the server was made with.
    public let configuration: Configuration
    /// Every service thread's engine; shard 0 accepts when there are several.
    let shards: [ServerEngine]
    let ring: ShardRing
    /// The thread that calls the delegate.
    let gateway: GatewayThread
    /// The sockets shard 0 hands out (several service threads only).
    private let listeners: Listeners?
    private let started = Atomic<Bool>(false)

    /// Makes a server; nothing listens until ``start()``.
    public init(configuration: Configuration = Configuration(), delegate: any WebSocketServerDelegate) {
        self.configuration = configuration
        let ring = ShardRing(count: configuration.threads)
        let gateway = GatewayThread(delegate: delegate, configuration: configuration, ring: ring)
        let listeners = ring.count > 1 ? Listeners() : nil
        self.ring = ring
        self.gateway = gateway
        self.listeners = listeners
        shards = (0..<ring.count).map { shard in
            ServerEngine(configuration: configuration, shard: shard, ring: ring, gateway: gateway,
                         listeners: shard == 0 ? listeners : nil)
        }
    }

    deinit {
        if !isServiceThread && !gateway.isCurrent {
            stop()
        }
    }

    /// The first service thread's engine (the only one by default).
    var engine: ServerEngine {
        shards[0]
    }

    /// Starts the gateway and service threads and returns once the port is
    /// listening.
    ///
    /// - Throws: ``TransportError/cannotListen(host:port:errno:)`` when the
    ///   address is taken or not local,
    ///   ``TransportError/cannotListenOnUnixSocket(path:)``, the TLS file
    ///   errors of ``TLSConfiguration`` when ``Configuration/tls`` is set,
    ///   ``TransportError/alreadyRunning``.
    public func start() throws(TransportError) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else {
            throw .alreadyRunning
        }
        try gateway.start()
        do {
            try listeners?.open(configuration)
            if shards.count == 1 {
                try shards[0].lifecycle.start(shards[0], threadName: "lws-server")
            } else {
                // The others first, all at once (each TLS context costs tens
                // of milliseconds): shard 0 hands them sockets as soon as it runs.
                try ServiceLifecycle.start(shards.dropFirst().map { ($0, "lws-server-\($0.shard)") })
                try shards[0].lifecycle.start(shards[0], threadName: "lws-server-0")
            }
        } catch {
            ServiceLifecycle.stop(shards.map(\.lifecycle), gracePeriod: .zero)
            listeners?.closeUnlessAdopted()
            gateway.stop()
            throw error
        }
    }

    /// The TCP port actually bound (the ephemeral one when the configured
    /// port is 0); `nil` before ``start()`` and after ``stop()``.
    public var port: Int? {
        shards[0].lifecycle.port
    }

    /// The event loop the service threads run on (``Configuration/eventLoop``,
    /// or `poll` when lws could not load its libev plug-in); `nil` before
    /// ``start()``.
    public var eventLoop: ServiceLoop? {
        shards[0].loopInUse.withLock { $0 }
    }

    /// Stops gracefully: what the delegate decided before is handed to the
    /// service threads, every connection gets a 1001 close frame after its
    /// queued frames, the server waits up to the configured grace period
    /// for them to close, then destroys the contexts, joins the service
    /// threads and last the gateway thread (which hears every disconnect).
    /// Idempotent; returns at once if the server never started. Must not be
    /// called from a delegate call.
    public func stop() {
        precondition(!isServiceThread && !gateway.isCurrent,
                     "WebSocketServer.stop() must not be called from a delegate callback")
        gateway.sync()
        ServiceLifecycle.stop(shards.map(\.lifecycle), gracePeriod: configuration.shutdownGracePeriod)
        listeners?.closeUnlessAdopted()
        gateway.stop()
    }

    /// Blocks the calling thread until every service thread has stopped
    /// (for a daemon's main thread while a signal handler calls ``stop()``).
    public func waitUntilStopped() {
        for shard in shards {
            shard.lifecycle.waitUntilStopped()
        }
    }

    /// Runs `work` on the gateway thread with the server's context, after
    /// what was posted before it: how another thread (a store committing,
    /// a cluster link reading Redis) hands results to the delegate.
    /// Dropped when the server is not running.
    public func execute(_ work: @escaping @Sendable (ServiceContext) -> Void) {
        gateway.post(.execute(work))
    }

    /// Queues `frame` to one connection. Unknown or closing connections
    /// ignore it.
    public func send(_ frame: OutboundFrame, to connection: ConnectionID) {
        ring.post(.send(frame, connection), to: connection)
    }

    /// Queues the same `frame` object to every listed connection (encode
    /// once, no copies), one post per service thread. Unknown or closing
    /// connections are skipped.
    public func send(_ frame: OutboundFrame, to connections: [ConnectionID]) {
        for (shard, part) in ring.map.split(connections).enumerated() where !part.isEmpty {
            ring.queues[shard].post(.broadcast(frame, part))
        }
    }

    /// Closes a connection with `code` and `reason` (at most 123 UTF-8
    /// bytes are sent) after the frames already queued to it are written.
    /// A connection already closing or gone is left alone.
    public func close(_ connection: ConnectionID, code: UInt16 = CloseCode.normal, reason: String = "") {
        ring.post(.close(connection, code: code, reason: reason), to: connection)
    }

    /// Sets (or with nil cancels) the connection's one timer: after
    /// `delay` the delegate gets ``ServerEvent/timer(_:)`` for it. Setting it
    /// again moves the deadline. Nothing happens for a connection that is gone.
    public func setTimer(for connection: ConnectionID, after delay: Duration?) {
        ring.post(.timer(connection, delay), to: connection)
    }

    /// Sockets each service thread serves now (connections and HTTP
    /// requests), counted by the acceptor; empty with one thread.
    var socketsPerThread: [Int] {
        ring.count > 1 ? ring.loadsNow : []
    }

    /// `true` when the caller is running on one of this server's service threads.
    var isServiceThread: Bool {
        shards.contains { $0.lifecycle.isServiceThread }
    }
}
