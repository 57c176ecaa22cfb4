import NeonCore
import NeonTransport
import NeonTransportCore
import Synchronization

/// The transport delegate, and the gateway's hands: turns each transport
/// event and each sequencer delivery into a gateway event, and performs the
/// commands that come back on the transport it is handed (frames, closes,
/// timers), the log and the sequencer (ordering, commits). It decides
/// nothing itself. Its state belongs to the server's gateway thread, the one
/// thread that calls it: the first call pins that thread, and each access checks it runs there
/// (`ServiceThreadBound`).
package final class Executor: WebSocketServerDelegate {
    /// What the executor keeps between calls, on the gateway thread.
    struct State {
        var gateway: Gateway
        /// Commands waiting for their room's commits.
        var held = HeldCommands()
        /// The next commit's ticket.
        var nextTicket = 0
    }

    let logger: LogWriter
    let sequencer: RoomSequencer
    private let state: ServiceThreadBound<State>
    /// Whether the store answers, as of the last event: read by the
    /// service threads during handshakes, which must not touch `state`.
    private let storeUp: Atomic<Bool>
    private let clock: ServerClock
    private let epoch: ContinuousClock.Instant
    /// The hub's time: since start on one node; the wall clock in a
    /// cluster, which every node shares for the events in the rooms' logs.
    private let wallClockHub: Bool

    package init(gateway: Gateway, logger: LogWriter, sequencer: RoomSequencer, clock: ServerClock = .system) {
        state = ServiceThreadBound(State(gateway: gateway))
        storeUp = Atomic(gateway.storeUp)
        self.logger = logger
        self.sequencer = sequencer
        self.clock = clock
        epoch = clock.now()
        wallClockHub = if case .cluster = gateway.mode { true } else { false }
    }

    package func handle(_ event: ServerEvent, in context: ServiceContext) {
        handle(event, through: context)
    }

    /// One transport event through the gateway; what it answers is done on
    /// `transport`.
    package func handle(_ event: ServerEvent, through transport: some TransportContext) {
        let arrived = clock.now()
        var forwarding: ForwardingHeaders?
        if case let .connected(connection, _, _) = event { forwarding = transport.forwardingHeaders(of: connection) }
        state.withValue { state in
            run(GatewayEvent(event, forwarding: forwarding), state: &state, transport: transport, arrived: arrived)
        }
    }

    /// What the sequencer hands over, on the gateway thread.
    package func apply(_ delivery: SequencerDelivery, through transport: some TransportContext) {
        let arrived = clock.now()
        state.withValue { state in
            switch delivery {
            case let .event(event):
                run(event, state: &state, transport: transport, arrived: arrived)
            case let .durable(ticket, took):
                state.gateway.metrics.committed(in: took)
                for command in state.held.release(through: ticket) {
                    switch command {
                    case let .deliver(delivery): deliver(delivery, state: &state, transport: transport, arrived: arrived)
                    case let .close(connection, code, reason, _): transport.close(connection, code: code, reason: reason)
                    default: preconditionFailure("only deliveries and closes wait for commits")
                    }
                }
            }
        }
    }

    package func respond(to request: HTTPRequest, in context: ServiceContext) -> HTTPResponse {
        respond(to: request, through: context)
    }

    /// Plain HTTP on the WebSocket port: `/healthz`, `/metrics` and `/`.
    package func respond(to request: HTTPRequest, through transport: some TransportContext) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/healthz"), ("HEAD", "/healthz"):
            state.withValue { $0.gateway.storeUp } ? .text("ok\n")
                : HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8",
                               body: Array("unavailable: this node cannot reach the cluster's Redis\n".utf8))
        case ("GET", "/metrics"), ("HEAD", "/metrics"): metricsResponse(transport)
        case ("GET", "/"), ("HEAD", "/"): .text(Self.greeting)
        default: .notFound
        }
    }

    /// `GET /`: what answers here and how to reach it, for someone who
    /// opened the address in a browser or with curl.
    static let greeting = "NeonSync server (neonsyncd, protocol neonsync.v1 over WebSocket): connect with"
        + " neonsync join ROOM --server ws://HOST:PORT/ (wss:// when it serves TLS); GET /healthz, GET /metrics\n"

    /// `GET /metrics`: the counters plus gauges sampled now, queue depths
    /// included.
    private func metricsResponse(_ transport: some TransportContext) -> HTTPResponse {
        let text = state.withValue { state in
            var gauges = MetricsGauges(connections: state.gateway.connections.count, hub: state.gateway.hub)
            gauges.restingRooms = state.gateway.mode.restingCount
            let backlog = transport.backlog
            gauges.add(backlog.queued)
            gauges.coalescedFrames = backlog.coalescedFrames
            let perThread = transport.socketsPerThread
            gauges.socketsPerThread = perThread.isEmpty ? [gauges.connections] : perThread
            var text = state.gateway.metrics.exposition(gauges)
            if case let .log(log) = sequencer, let health = log.storeHealth {
                text += state.gateway.metrics.clusterExposition(health)
            }
            return text
        }
        return HTTPResponse(status: 200, contentType: PrometheusText.contentType, body: Array(text.utf8))
    }

    /// A node that cannot reach its cluster's Redis could not take a
    /// newcomer's hello: its handshakes get 503, as its /healthz does.
    package func unavailableReason() -> String? {
        storeUp.load(ordering: .relaxed) ? nil
            : "unavailable: this node cannot reach the cluster's Redis; connect to another node"
    }

    package func refused(_ handshake: RefusedHandshake) {
        let origin = state.withValue { $0.gateway.policy.proxies }.resolve(
            peer: handshake.peer, forwardedFor: handshake.forwarding?.forwardedFor, forwarded: handshake.forwarding?.forwarded)
        logger.log(LogRecord(.warn, .originRefused, Gateway.originFields(origin) + [LogField("origin", .string(handshake.origin))]))
    }

    /// One event through the gateway; `arrived` is when it reached the
    /// server (the start of each broadcast's fan-out latency).
    private func run(_ event: GatewayEvent, state: inout State, transport: some TransportContext,
                     arrived: ContinuousClock.Instant) {
        let commands = state.gateway.apply(event, at: gatewayClock(arrived))
        perform(commands, state: &state, transport: transport, arrived: arrived)
        storeUp.store(state.gateway.storeUp, ordering: .relaxed)
    }

    private func gatewayClock(_ instant: ContinuousClock.Instant) -> GatewayClock {
        let wall = clock.wallNanoseconds()
        let monotonic = instant - epoch
        return GatewayClock(monotonic: monotonic, hub: wallClockHub ? .nanoseconds(wall) : monotonic,
                            wallNanoseconds: wall)
    }

    /// Performs commands in order. A `persist` makes its room's later
    /// deliveries and closes wait for its commit (the committer batches
    /// every record queued while it was busy), unless its record holds
    /// nothing back (`holdsDeliveries`: a presenter's place); everything
    /// else happens at once.
    private func perform(_ commands: [GatewayCommand], state: inout State, transport: some TransportContext,
                         arrived: ContinuousClock.Instant) {
        for command in commands {
            switch command {
            case let .deliver(delivery):
                if let room = delivery.room, state.held.isHeld(room) {
                    state.held.append(command, room: room)
                } else {
                    deliver(delivery, state: &state, transport: transport, arrived: arrived)
                }
            case let .close(connection, code, reason, room):
                if let room, state.held.isHeld(room) {
                    state.held.append(command, room: room)
                } else {
                    transport.close(connection, code: code, reason: reason)
                }
            case let .setTimer(connection, delay):
                transport.setTimer(for: connection, after: delay)
            case let .log(record):
                logger.log(record)
            case let .persist(record, room):
                // A cluster's events are durable once in their room's log.
                guard case let .committer(committer) = sequencer else { continue }
                let ticket = state.nextTicket
                state.nextTicket += 1
                if record.holdsDeliveries { state.held.wait(room, for: ticket) }
                committer.persist([record], ticket: ticket)
            case let .restore(rooms):
                sequencer.committer.restore(rooms)
            case let .order(entry, room, hello):
                sequencer.log.order(entry, room: room, hello: hello)
            case let .snapshot(room, index, image):
                sequencer.log.snapshot(room, index: index, image: image)
            case let .emptied(room, index, milliseconds):
                sequencer.log.emptied(room, index: index, atMilliseconds: milliseconds)
            case let .takeUp(room):
                sequencer.log.takeUp(room)
            case let .release(room):
                sequencer.log.release(room)
            }
        }
    }

    private func deliver(_ delivery: Delivery, state: inout State, transport: some TransportContext,
                         arrived: ContinuousClock.Instant) {
        transport.send(text: delivery.bytes, coalescingKey: delivery.coalescingKey, to: delivery.to)
        if delivery.isBroadcast { state.gateway.metrics.broadcast(fanOut: arrived.duration(to: clock.now())) }
    }
}
