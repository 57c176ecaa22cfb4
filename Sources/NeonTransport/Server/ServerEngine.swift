import CLibWebSockets
import NeonLock
import NeonTransportCore

/// Commands other threads send to the server's service thread.
enum ServerCommand: LifecycleCommand {
    case send(OutboundFrame, ConnectionID)
    case broadcast(OutboundFrame, [ConnectionID])
    case close(ConnectionID, code: UInt16, reason: String)
    case timer(ConnectionID, Duration?)
    /// Ping connections silent for half the idle timeout, close those
    /// silent for all of it (posted by the idle sweep timer).
    case sweepIdle
    /// Close every connection with 1001, then leave the service loop.
    case shutdown
    /// Leave the service loop now (the grace period is over).
    case exitNow
    /// Fail a connection: a close frame after what is queued, then TCP
    /// ends (a message it sent broke the limits).
    case fail(ConnectionID, code: UInt16, reason: String)
    /// Serve a socket the acceptor took: a TCP one on the WebSocket vhost
    /// (TLS when configured), a Unix one on the plain one.
    case adopt(Int32, unix: Bool)
    /// Tell the gateway this shard's backlog, for an HTTP request.
    case collectBacklog(token: UInt64)
    /// The delegate's answer to the HTTP request waiting under `token`.
    case httpAnswer(token: UInt64, HTTPResponse)
}

/// One service thread of a server ("shard"): its lws context and the
/// connections it owns. A server has one per `--threads`; shard `k` gives
/// out the connection ids of ``ShardMap`` and posts every event to the
/// server's ``GatewayThread``, which calls the delegate.
///
/// `@unchecked Sendable`: what the service thread alone reads and mutates,
/// inside lws callbacks and the service loop, is ``ThreadState``, bound to
/// that thread through `serviceState` (pinned as the thread starts, every
/// access checked). Other threads touch only `configuration` (immutable)
/// and `lifecycle` (locks and atomics), which is how their commands reach
/// the service thread.
final class ServerEngine: ServiceEngine, @unchecked Sendable {
    let configuration: WebSocketServer.Configuration
    let lifecycle: ServiceLifecycle<ServerCommand>
    /// This shard's index among the server's service threads.
    let shard: Int
    /// Every shard's queue and load.
    let ring: ShardRing
    /// Where events go: the thread that calls the delegate.
    let gateway: GatewayThread
    /// Sockets this shard accepts and hands out (shard 0 of several), or nil
    /// (lws's own listener serves the port of a server with one shard).
    let listeners: Listeners?

    /// Which upgrade requests become connections (immutable).
    let gate: HandshakeGate
    /// Plain HTTP requests on the port (stateless).
    let http = HTTPResponder()

    /// What only the service thread touches.
    final class ThreadState: ServiceFlags {
        /// The open connections.
        var connections: ConnectionTable
        /// Pings and cuts off idle connections.
        var idle: IdleSweep
        /// Writes several queued frames of a connection at once.
        let cork = FrameCork()
        /// Connections to write when the current service round ends.
        let writeRound = WriteRound()
        /// HTTP requests waiting for the delegate's answer, by token.
        var waitingHTTP: [UInt64: OpaquePointer] = [:]
        /// The round's messages for the gateway, handed over together when
        /// the round ends (or before any other event).
        var events: [GatewayThread.Item] = []
        /// The context, once created.
        var context: OpaquePointer?
        var shuttingDown = false
        var exitRequested = false

        init(connections: ConnectionTable, idle: IdleSweep) {
            self.connections = connections
            self.idle = idle
        }
    }

    let serviceState: ServiceThreadBound<ThreadState>
    /// The event loop the service thread runs on, once its context exists.
    let loopInUse = Locked<ServiceLoop?>(nil)

    init(configuration: WebSocketServer.Configuration, shard: Int, ring: ShardRing, gateway: GatewayThread,
         listeners: Listeners?) {
        self.configuration = configuration
        self.shard = shard
        self.ring = ring
        self.gateway = gateway
        self.listeners = listeners
        lifecycle = ServiceLifecycle(queue: ring.queues[shard])
        gate = HandshakeGate(origins: configuration.origins)
        let table = ConnectionTable(first: ring.map.firstID(of: shard), stride: ring.count)
        serviceState = ServiceThreadBound(ThreadState(connections: table, idle: IdleSweep(idleTimeout: configuration.idleTimeout)))
    }

    // The service-thread state by name; each access checks the thread.
    var connections: ConnectionTable {
        _read { yield serviceState.value.connections }
        _modify { yield &serviceState.value.connections }
    }
    var idle: IdleSweep {
        _read { yield serviceState.value.idle }
        _modify { yield &serviceState.value.idle }
    }
    var cork: FrameCork {
        _read { yield serviceState.value.cork }
    }
    var writeRound: WriteRound {
        _read { yield serviceState.value.writeRound }
    }

    func serviceStarted(_ context: OpaquePointer) {
        serviceState.value.context = context
        let queue = lifecycle.queue
        idle.start { _ = queue.post(.sweepIdle) }
    }

    /// Hands the round's messages to the gateway, then writes the
    /// connections whose queues filled during the round.
    func serviceRoundEnded() {
        handOverEvents()
        writeRound.flush(cork: cork)
    }

    func contextWillBeDestroyed() {
        // lws closes every connection now: no more calls on their wsis.
        for session in connections.all {
            session.wsi = nil
        }
        idle.stop()
        serviceState.value.context = nil
    }

    func serviceEnded() {
        // Anything lws delivered while destroying the context.
        handOverEvents()
        connections.removeAll()
        serviceState.value.waitingHTTP.removeAll()
    }

    /// Hands `event` to the gateway thread, which calls the delegate. A
    /// message waits for the round's end and goes over with the round's
    /// others (one wake-up of the gateway, which answers them in one round
    /// of its own); any other event takes those before it along at once, so
    /// each connection's events keep their order. (lws runs its timers
    /// before it waits, outside a round's end.)
    func post(_ event: ServerEvent, forwarding: ForwardingHeaders? = nil) {
        if case .received = event {
            serviceState.value.events.append(.event(event, forwarding: forwarding))
            return
        }
        handOverEvents()
        gateway.post(.event(event, forwarding: forwarding))
    }

    private func handOverEvents() {
        guard !serviceState.value.events.isEmpty else { return }
        gateway.post(contentsOf: serviceState.value.events)
        serviceState.value.events.removeAll(keepingCapacity: true)
    }

    /// Runs one command on the service thread.
    func perform(_ command: ServerCommand) {
        switch command {
        case .send(let frame, let id):
            connections[id]?.enqueue(frame)
        case .broadcast(let frame, let ids):
            // One thread check for the whole broadcast, not one a recipient.
            // The sessions are lent, not retained: enqueueing opens and
            // closes no connection.
            serviceState.value.connections.forEach(in: ids) { $0.enqueue(frame) }
        case .close(let id, let code, let reason):
            connections[id]?.requestClose(code: code, reason: reason)
        case .timer(let id, let delay):
            guard let wsi = connections[id]?.establishedWSI else { return }
            let usecs = delay.map { max($0.components.seconds * 1_000_000 + $0.components.attoseconds / 1_000_000_000_000, 1) }
            lws_set_timer_usecs(wsi, usecs ?? -1)
        case .sweepIdle:
            sweepIdle()
        case .shutdown:
            beginShutdown()
        case .exitNow:
            exitRequested = true
        case .fail(let id, let code, let reason):
            connections[id]?.requestClose(code: code, reason: reason, failing: true)
        case .adopt(let fd, let unix):
            adopt(fd, unix: unix)
        case .collectBacklog(let token):
            gateway.post(.backlog(connections.backlog, token: token))
        case .httpAnswer(let token, let response):
            answer(token, response)
        }
    }

    /// Asks every connection to close with 1001; the loop ends once the
    /// last one has closed (or the grace period runs out).
    private func beginShutdown() {
        guard !shuttingDown else { return }
        shuttingDown = true
        for session in connections.all {
            session.requestClose(code: CloseCode.goingAway, reason: "server shutting down")
        }
        if connections.isEmpty {
            exitRequested = true
        }
    }
}
