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
        var clients: [ConnectionID: ClientID] = [:]
        var connections: [ClientID: ConnectionID] = [:]
        var metrics = ServerMetrics()
    }

    let logger: Logger
    private let store: any RoomStore
    private let state: Mutex<State>
    private let transport = Mutex<WebSocketServer?>(nil)
    private let codec = WireCodec()
    private let epoch = ContinuousClock.now

    init(hub: Hub, logger: Logger, store: any RoomStore) {
        state = Mutex(State(hub: hub))
        self.logger = logger
        self.store = store
    }

    func attach(_ server: WebSocketServer) { transport.withLock { $0 = server } }
    func detach() { transport.withLock { $0 = nil } }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/healthz"), ("HEAD", "/healthz"): .text("ok\n")
        case ("GET", "/metrics"), ("HEAD", "/metrics"): metricsResponse()
        default: .notFound
        }
    }

    /// `GET /metrics`: the counters plus gauges sampled now, queue depths
    /// included (this runs on the service thread, like `handle`).
    private func metricsResponse() -> HTTPResponse {
        let server = transport.withLock { $0 }
        let text = state.withLock { state in
            var gauges = MetricsGauges(connections: state.clients.count, hub: state.hub)
            for connection in state.clients.keys {
                if let depth = server?.queueDepth(of: connection) { gauges.add(depth) }
            }
            return state.metrics.exposition(gauges)
        }
        return HTTPResponse(status: 200, contentType: PrometheusText.contentType, body: Array(text.utf8))
    }

    func handle(_ event: ServerEvent) {
        guard let server = transport.withLock({ $0 }) else { return }
        let arrived = ContinuousClock.now
        let now = arrived - epoch
        state.withLock { state in
            switch event {
            case let .connected(connection, peer):
                let client = ClientID("c\(connection.rawValue)")
                state.clients[connection] = client
                state.connections[client] = connection
                state.metrics.connected()
                logger.log(LogRecord(.info, "connect", client: client, [LogField("peer", .string(peer))]))
            case let .received(message, connection):
                guard let client = state.clients[connection] else { return }
                let hubEvent: HubEvent
                switch message {
                case let .text(text):
                    switch codec.decodeClient(text.utf8) {
                    case let .success(decoded):
                        state.metrics.received(bytes: text.utf8.count, decoded)
                        hubEvent = .received(client, decoded)
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
            case let .rejected(rejection, connection):
                guard let client = state.clients[connection] else { return }
                state.metrics.refusedFrame()
                let error = switch rejection {
                case let .messageTooBig(limit):
                    ProtocolError(.messageTooLarge, "a frame was larger than this server's limit of \(limit) bytes; the connection will close (1009)")
                case .invalidUTF8:
                    ProtocolError(.invalidUTF8, "a text frame was not valid UTF-8; the connection will close (1007)")
                }
                perform(state.hub.apply(.rejected(client, error), at: now), state: &state, server: server, since: arrived)
            case let .disconnected(connection, close):
                guard let client = state.clients.removeValue(forKey: connection) else { return }
                let outputs = state.hub.apply(.disconnected(client), at: now)
                state.connections[client] = nil
                var fields = [LogField("initiatedByPeer", .bool(close.initiatedByPeer))]
                if let code = close.code { fields.append(LogField("code", .int(Int(code)))) }
                logger.log(LogRecord(.info, "disconnect", client: client, fields))
                perform(outputs, state: &state, server: server, since: arrived)
            }
        }
    }

    /// Carries out `outputs`; `arrived` is when the event that caused them
    /// reached the router (the start of each broadcast's fan-out latency).
    private func perform(_ outputs: [RoomOutput], state: inout State, server: WebSocketServer,
                         since arrived: ContinuousClock.Instant) {
        for output in outputs {
            switch output {
            case let .send(message, client):
                guard let connection = state.connections[client] else { continue }
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
                    if let connection = state.connections[member] { recipients.append(connection) }
                }
                let watchers = state.hub.watchers
                guard !recipients.isEmpty || !watchers.isEmpty else { continue }
                let bytes = codec.encode(message)
                if !recipients.isEmpty {
                    let encoded = frame(bytes)
                    server.send(encoded, to: recipients)
                    state.metrics.broadcast(fanOut: arrived.duration(to: .now))
                    state.metrics.sent(message, bytes: encoded.count, recipients: recipients.count)
                }
                relay(bytes, seq: message.seq, room: room, to: nil, observers: watchers, state: &state, server: server)
            case let .log(record):
                logger.log(record)
            case let .persist(record):
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
    private func relay(_ message: [UInt8], seq: Int, room: String?, to client: ClientID?, observers: [ClientID],
                       state: inout State, server: WebSocketServer) {
        let connections = observers.compactMap { state.connections[$0] }
        guard !connections.isEmpty else { return }
        let encoded = frame(codec.envelope(room: room, to: client, seq: seq, message: message))
        server.send(encoded, to: connections)
        state.metrics.relayed(bytes: encoded.count, recipients: connections.count)
    }

    /// Wraps encoded bytes into a frame that any number of connections share.
    private func frame(_ bytes: [UInt8]) -> OutboundFrame {
        bytes.withUnsafeBytes { OutboundFrame(kind: .text, copying: $0) }
    }
}
