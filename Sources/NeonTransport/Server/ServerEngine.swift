import CLibWebSockets
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
    /// Run work for the delegate on the service thread.
    case execute(@Sendable (ServiceContext) -> Void)
}

/// The server's lws context, its service thread and every connection.
///
/// `@unchecked Sendable`: what the service thread alone reads and mutates,
/// inside lws callbacks and the service loop, is ``ThreadState``, bound to
/// that thread through `serviceState` (pinned as the thread starts, every
/// access checked). Other threads touch only `configuration` (immutable)
/// and `lifecycle` (locks and atomics), which is how their commands reach
/// the service thread.
final class ServerEngine: ServiceEngine, @unchecked Sendable {
    let configuration: WebSocketServer.Configuration
    let lifecycle = ServiceLifecycle<ServerCommand>()

    /// Which upgrade requests become connections (immutable).
    let gate: HandshakeGate
    /// Plain HTTP requests on the port (stateless).
    let http = HTTPResponder()

    /// What only the service thread touches.
    final class ThreadState: ServiceFlags {
        var delegate: (any WebSocketServerDelegate)?
        /// The open connections.
        var connections = ConnectionTable()
        /// Pings and cuts off idle connections.
        var idle: IdleSweep
        /// Writes several queued frames of a connection at once.
        let cork = FrameCork()
        /// Connections to write when the current service round ends.
        let writeRound = WriteRound()
        var shuttingDown = false
        var exitRequested = false

        init(delegate: any WebSocketServerDelegate, idle: IdleSweep) {
            self.delegate = delegate
            self.idle = idle
        }
    }

    let serviceState: ServiceThreadBound<ThreadState>

    init(configuration: WebSocketServer.Configuration, delegate: any WebSocketServerDelegate) {
        self.configuration = configuration
        gate = HandshakeGate(origins: configuration.origins)
        serviceState = ServiceThreadBound(ThreadState(delegate: delegate, idle: IdleSweep(idleTimeout: configuration.idleTimeout)))
    }

    // The service-thread state by name; each access checks the thread.
    var delegate: (any WebSocketServerDelegate)? {
        _read { yield serviceState.value.delegate }
        set { serviceState.value.delegate = newValue }
    }
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
        let queue = lifecycle.queue
        idle.start { _ = queue.post(.sweepIdle) }
    }

    /// Writes the connections whose queues filled during the round.
    func serviceRoundEnded() {
        writeRound.flush(cork: cork)
    }

    func contextWillBeDestroyed() {
        // lws closes every connection now: no more calls on their wsis.
        for session in connections.all {
            session.wsi = nil
        }
        idle.stop()
    }

    func serviceEnded() {
        connections.removeAll()
        delegate = nil
    }

    /// Runs one command on the service thread.
    func perform(_ command: ServerCommand) {
        switch command {
        case .send(let frame, let id):
            connections[id]?.enqueue(frame)
        case .broadcast(let frame, let ids):
            // One thread check for the whole broadcast, not one a recipient.
            let state = serviceState.value
            for id in ids {
                state.connections[id]?.enqueue(frame)
            }
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
        case .execute(let work):
            work(ServiceContext(self))
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
