import NeonCore
import NeonTransport
import Glibc
import Synchronization

/// The transport delegate: runs on the service thread, feeds the hub and
/// carries out its outputs. Its state sits behind a lock that is only ever
/// taken on the service thread, so it is never contended.
final class Router: WebSocketServerDelegate {
    struct State: ~Copyable {
        var hub: Hub
        /// Open connections with their client id, address and rate state.
        var connections: [ConnectionID: ConnectionInfo] = [:]
        /// The connection of each client id.
        var clients: [ClientID: ConnectionID] = [:]
        /// Open connections per peer address.
        var perAddress: [String: Int] = [:]
        var metrics = ServerMetrics()
        /// Cluster mode: whether the writer reaches Redis (`/healthz`).
        var redisUp = true
    }

    let logger: Logger
    private let store: any RoomStore
    let state: Mutex<State>
    let transport = Mutex<WebSocketServer?>(nil)
    let codec = WireCodec()
    let epoch = ContinuousClock.now

    let policy: AccessPolicy
    /// Cluster mode: the link to Redis, which orders every room's events;
    /// nil on a single node, where the hub orders them as they arrive.
    let cluster: ClusterLink?
    /// Rooms this server (node) holds at most.
    let maxRooms: Int

    init(hub: Hub, logger: Logger, store: any RoomStore, policy: AccessPolicy = AccessPolicy(), cluster: ClusterLink? = nil,
         maxRooms: Int = 10_000) {
        self.maxRooms = maxRooms
        state = Mutex(State(hub: hub))
        self.logger = logger
        self.store = store
        self.policy = policy
        self.cluster = cluster
    }

    func attach(_ server: WebSocketServer) { transport.withLock { $0 = server } }

    /// Cluster mode: starts reading and writing Redis, once the transport
    /// runs (what the link hands over is applied on its service thread).
    func startCluster() {
        guard let cluster, let server = transport.withLock({ $0 }) else { return }
        cluster.start { [weak self] delivery in
            guard let router = self else { return }
            server.execute { router.apply(delivery) }
        }
    }
    func detach() { transport.withLock { $0 = nil } }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/healthz"), ("HEAD", "/healthz"):
            state.withLock { $0.redisUp } ? .text("ok\n")
                : HTTPResponse(status: 503, contentType: "text/plain; charset=utf-8",
                               body: Array("unavailable: this node cannot reach the cluster's Redis\n".utf8))
        case ("GET", "/metrics"), ("HEAD", "/metrics"): metricsResponse()
        default: .notFound
        }
    }

    /// `GET /metrics`: the counters plus gauges sampled now, queue depths
    /// included (this runs on the service thread, like `handle`).
    private func metricsResponse() -> HTTPResponse {
        let server = transport.withLock { $0 }
        let text = state.withLock { state in
            var gauges = MetricsGauges(connections: state.connections.count, hub: state.hub)
            for connection in state.connections.keys {
                if let depth = server?.queueDepth(of: connection) { gauges.add(depth) }
            }
            gauges.coalescedFrames = server?.coalescedFrames ?? 0
            var text = state.metrics.exposition(gauges)
            if let cluster { text += state.metrics.clusterExposition(cluster) }
            return text
        }
        return HTTPResponse(status: 200, contentType: PrometheusText.contentType, body: Array(text.utf8))
    }

    func refused(_ handshake: RefusedHandshake) {
        logger.log(LogRecord(.warn, "origin_refused", [
            LogField("peer", .string(handshake.peer)), LogField("origin", .string(handshake.origin)),
        ]))
    }

    func handle(_ event: ServerEvent) {
        guard let server = transport.withLock({ $0 }) else { return }
        let arrived = ContinuousClock.now
        let now = hubTime(arrived)
        state.withLock { state in
            switch event {
            case let .connected(connection, peer):
                connected(connection, peer: peer, state: &state, server: server, at: now)
            case let .received(message, connection):
                guard let info = state.connections[connection] else { return }
                let client = info.client
                if var bucket = info.bucket {
                    let allowed = bucket.take(at: now)
                    state.connections[connection]?.bucket = bucket
                    guard allowed else {
                        overRate(connection, state: &state, server: server, at: now, since: arrived)
                        return
                    }
                    state.connections[connection]?.dropped = 0
                }
                let hubEvent: HubEvent
                switch message {
                case let .text(text):
                    switch codec.decodeClient(text.utf8) {
                    case let .success(decoded):
                        state.metrics.received(bytes: text.utf8.count, decoded)
                        switch admission(of: decoded) {
                        case let .refused(refusal):
                            refuse(connection, refusal, state: &state, server: server, at: now, since: arrived)
                            return
                        case let .watch(name, scope):
                            hubEvent = .watch(client, name: name, scope: scope)
                        case .admitted:
                            if cluster != nil {
                                order(decoded, from: connection, state: &state, server: server, at: now, since: arrived)
                                return
                            }
                            hubEvent = .received(client, decoded)
                        }
                    case let .failure(error):
                        state.metrics.received(bytes: text.utf8.count, nil)
                        hubEvent = .rejected(client, error)
                    }
                case let .binary(bytes):
                    state.metrics.received(bytes: bytes.count, nil)
                    hubEvent = .rejected(client, ProtocolError(.invalidMessage,
                        "binary frames are not part of neonsync.v1; send each message as a UTF-8 JSON text frame"))
                }
                perform(state.hub.apply(hubEvent, at: now), state: &state, server: server, since: arrived)
                noteJoined(client, state: &state, server: server)
            case let .rejected(rejection, connection):
                guard let client = state.connections[connection]?.client else { return }
                state.metrics.refusedFrame()
                let error = switch rejection {
                case let .messageTooBig(limit):
                    ProtocolError(.messageTooLarge, "a frame was larger than this server's limit of \(limit) bytes; the connection will close (1009)")
                case .invalidUTF8:
                    ProtocolError(.invalidUTF8, "a text frame was not valid UTF-8; the connection will close (1007)")
                }
                perform(state.hub.apply(.rejected(client, error), at: now), state: &state, server: server, since: arrived)
            case let .timer(connection):
                guard let info = state.connections[connection], !info.joined, let timeout = policy.helloTimeout else { return }
                refuse(connection, ProtocolError(.helloTimeout,
                    "no hello within \(timeout.components.seconds) s of connecting; send hello {room, name, role} first thing"),
                       state: &state, server: server, at: now, since: arrived)
            case let .disconnected(connection, close):
                guard let info = state.connections.removeValue(forKey: connection) else { return }
                let client = info.client
                let outputs: [RoomOutput]
                if let cluster, let room = info.room {
                    cluster.append(ClusterEntry(kind: .bye, client: client.rawValue, origin: cluster.generation,
                                                time: now.inNanoseconds), room: room, hello: false)
                    outputs = []
                } else {
                    outputs = state.hub.apply(.disconnected(client), at: now)
                }
                state.clients[client] = nil
                state.perAddress[info.address, default: 1] -= 1
                if state.perAddress[info.address] == 0 { state.perAddress[info.address] = nil }
                var fields = [LogField("initiatedByPeer", .bool(close.initiatedByPeer))]
                if let code = close.code { fields.append(LogField("code", .int(Int(code)))) }
                if close.code == CloseCode.tooSlow, !close.initiatedByPeer {
                    state.metrics.closedTooSlow()
                    logger.log(LogRecord(.warn, "too_slow", client: client, [
                        LogField("code", .int(Int(CloseCode.tooSlow))),
                        LogField("maxOutbound", .int(server.configuration.maxOutboundBytes)),
                    ]))
                }
                logger.log(LogRecord(.info, "disconnect", client: client, fields))
                perform(outputs, state: &state, server: server, since: arrived)
            }
        }
    }

    /// A new connection: counted against its address's cap (over it, an
    /// error and close 1008), then given the hello timeout.
    private func connected(_ connection: ConnectionID, peer: String, state: inout State, server: WebSocketServer,
                           at now: Duration) {
        let client = ClientID(cluster.map { "c\($0.generation)-\(connection.rawValue)" } ?? "c\(connection.rawValue)")
        state.connections[connection] = ConnectionInfo(client: client, address: peer, bucket: policy.bucket())
        state.clients[client] = connection
        state.perAddress[peer, default: 0] += 1
        state.metrics.connected()
        logger.log(LogRecord(.info, "connect", client: client, [LogField("peer", .string(peer))]))
        let cap = policy.maxConnectionsPerAddress
        if cap > 0, state.perAddress[peer, default: 0] > cap {
            refuse(connection, ProtocolError(.tooManyConnections,
                "\(peer) already has \(cap) connections open, this server's limit per address; close some, or ask the operator to raise --max-connections-per-ip"),
                   state: &state, server: server, at: now, since: .now)
        } else if let timeout = policy.helloTimeout {
            server.setTimer(for: connection, after: timeout)
        }
    }

    /// A message over the connection's rate is dropped: the first of a run
    /// gets a `rate_limited` error, a long run closes the connection (1008).
    private func overRate(_ connection: ConnectionID, state: inout State, server: WebSocketServer,
                          at now: Duration, since arrived: ContinuousClock.Instant) {
        guard let info = state.connections[connection] else { return }
        let dropped = info.dropped + 1
        state.connections[connection]?.dropped = dropped
        let rate = Int(policy.rate)
        if dropped == 1 {
            let error = ProtocolError(.rateLimited,
                "more than \(rate) messages a second (bursts of \(Int(policy.burst))); this message and any more until you slow down are dropped")
            perform(state.hub.apply(.rejected(info.client, error), at: now), state: &state, server: server, since: arrived)
        } else if dropped == policy.dropsBeforeClose {
            refuse(connection, ProtocolError(.rateLimited,
                "\(dropped) messages in a row over \(rate) a second; closing this connection (1008)"),
                   state: &state, server: server, at: now, since: arrived)
        }
    }

    /// What a decoded message may do.
    private enum Admission {
        case admitted
        case refused(ProtocolError)
        /// An observer's hello to `"*"` with a token for one room: it
        /// watches every room the token allows, that one.
        case watch(name: String, scope: String)
    }

    /// Whether a decoded message may reach the hub: with a secret, a hello
    /// needs a token this server signed, unexpired, admitting its room and
    /// role; an observer's hello to `"*"` with a token for one room watches
    /// that room.
    private func admission(of message: ClientMessage) -> Admission {
        guard let secret = policy.secret, case let .hello(room, name, role, _, _, token) = message else { return .admitted }
        guard let token else {
            return .refused(ProtocolError(.unauthorized,
                "this server requires a room token; ask its operator for one (neonsyncd token) and pass it with --token"))
        }
        switch RoomToken.verify(token, secret: secret, now: Int64(time(nil))) {
        case let .failure(error):
            return .refused(error)
        case let .success(granted):
            if room == Hub.everyRoom, role == .observer, granted.room != Hub.everyRoom {
                return .watch(name: name, scope: granted.room)
            }
            guard granted.admits(room: room, role: role) else {
                let scope = granted.room == Hub.everyRoom ? "every room" : "room \"\(granted.room)\""
                return .refused(ProtocolError(.unauthorized,
                    "the token admits \(scope) as \(granted.role.rawValue) or below, not room \"\(room)\" as \(role.rawValue); ask for a token for that room and role"))
            }
            return .admitted
        }
    }

    /// Answers `error` (through the hub: the client, its observers and the
    /// log see it) and closes the connection with 1008 once it is written.
    func refuse(_ connection: ConnectionID, _ error: ProtocolError, state: inout State, server: WebSocketServer,
                        at now: Duration, since arrived: ContinuousClock.Instant) {
        guard let client = state.connections[connection]?.client else { return }
        perform(state.hub.apply(.rejected(client, error), at: now), state: &state, server: server, since: arrived)
        server.close(connection, code: CloseCode.policyViolation, reason: error.code.rawValue)
    }

    /// Carries out `outputs`; `arrived` is when the event that caused them
    /// reached the router (the start of each broadcast's fan-out latency).
    func perform(_ outputs: [RoomOutput], state: inout State, server: WebSocketServer,
                 since arrived: ContinuousClock.Instant, local: Bool = true) {
        for output in outputs {
            switch output {
            case let .send(message, client):
                guard let connection = state.clients[client] else { continue }
                let bytes = codec.encode(message)
                let encoded = frame(bytes)
                server.send(encoded, to: connection)
                state.metrics.sent(message, bytes: encoded.count, recipients: 1)
                if case .error = message.payload {
                    relay(bytes, seq: message.seq, room: state.hub.sessions[client], to: client,
                          observers: state.hub.errorObservers(of: client), state: &state, server: server)
                }
            case let .broadcast(message, room, except):
                let members = state.hub.members(of: room)
                var recipients: [ConnectionID] = []
                recipients.reserveCapacity(members.count)
                for member in members where member != except {
                    if let connection = state.clients[member] { recipients.append(connection) }
                }
                let watchers = state.hub.watchers(of: room)
                guard !recipients.isEmpty || !watchers.isEmpty else { continue }
                let bytes = codec.encode(message)
                let key = message.payload.coalescingKey
                if !recipients.isEmpty {
                    let encoded = frame(bytes, coalescingKey: key)
                    server.send(encoded, to: recipients)
                    state.metrics.broadcast(fanOut: arrived.duration(to: .now))
                    state.metrics.sent(message, bytes: encoded.count, recipients: recipients.count)
                }
                relay(bytes, seq: message.seq, room: room, to: nil, observers: watchers, coalescingKey: key,
                      state: &state, server: server)
            case let .log(record):
                if local { logger.log(record) }
            case let .persist(record):
                guard cluster == nil else { continue }
                let started = ContinuousClock.now
                persist(record)
                state.metrics.committed(in: started.duration(to: .now))
            }
        }
    }

    /// Makes `record` durable before the outputs after it (an ack) go out.
    /// A store that fails cannot keep that promise: the server logs why and
    /// exits (status 74) without sending the ack; clients resync from the
    /// last durable revision when it is back.
    private func persist(_ record: PersistRecord) {
        do {
            switch record {
            case let .roomCreated(room, profile, limit):
                try store.createRoom(room, profile: profile, limit: limit)
            case let .documentSet(room, document):
                try store.setDocument(document, room: room)
            case let .revisionAcked(room, revision, operation, text, by, key):
                let json = String(decoding: codec.encode(operation), as: UTF8.self)
                try store.appendRevisions([DraftRevision(room: room, revision: revision, operationJSON: json, text: text,
                                                         author: by.rawValue, key: key)])
            }
        } catch {
            logger.log(LogRecord(.error, "store_failed", [LogField("error", .string(error.description))]))
            exit(74)
        }
    }

    /// Sends an encoded room message to `observers` outside the room, in a
    /// `room` envelope spliced around the same bytes (one frame for all).
    /// A latest-wins message keeps its coalescing key, prefixed so an
    /// envelope only ever replaces an envelope.
    private func relay(_ message: [UInt8], seq: Int, room: String?, to client: ClientID?, observers: [ClientID],
                       coalescingKey: String? = nil, state: inout State, server: WebSocketServer) {
        let connections = observers.compactMap { state.clients[$0] }
        guard !connections.isEmpty else { return }
        let encoded = frame(codec.envelope(room: room, to: client, seq: seq, message: message),
                            coalescingKey: coalescingKey.map { "relay:" + $0 })
        server.send(encoded, to: connections)
        state.metrics.relayed(bytes: encoded.count, recipients: connections.count)
    }

    /// Wraps encoded bytes into a frame that any number of connections
    /// share. A latest-wins message passes its coalescing key, so a newer
    /// one replaces it in a slow connection's backlog.
    private func frame(_ bytes: [UInt8], coalescingKey: String? = nil) -> OutboundFrame {
        bytes.withUnsafeBytes { OutboundFrame(kind: .text, copying: $0, coalescingKey: coalescingKey) }
    }
}
