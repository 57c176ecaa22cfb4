import NeonCore
import NeonTransportCore

/// The server's pure state machine around the hub: who is connected, from
/// where, at what rate, with which token, in which room; which events go
/// to the room sequencer; who receives each output. Events in, commands
/// out (`GatewayCommand`), no I/O: the executor performs them.
package struct Gateway: Sendable {
    package struct Configuration: Sendable {
        /// Tokens, rates and per-address limits (`--secret-file`, `--rate`, …).
        var policy: AccessPolicy
        /// `--max-rooms`.
        var maxRooms: Int
        /// This run of the server (a start counted by its store, or a
        /// cluster node's incarnation from Redis): client ids are `c<it>-<n>`,
        /// so no id of one run is ever handed out by another, and the events
        /// it orders carry it. 0 (tests): ids are `c<n>`. Set by the server
        /// when it builds its gateway (`SyncServer.gateway`).
        var incarnation: Int
        /// The transport's backlog limit (`--max-outbound`), for the
        /// too_slow log line; the server sets it from the transport's
        /// configuration.
        var maxOutboundBytes: Int
        /// `--room-ttl`: an empty room idle this long is removed (nil: never).
        var roomTTL: Duration?
        /// `--room-release`: a room nobody on this node has used this long
        /// leaves memory; it lives on in the store (SQLite on one node,
        /// Redis for a cluster) until someone joins it again (nil: never).
        var roomRelease: Duration?
        /// The transport's message limit (`--max-message`), which every
        /// welcome announces; the server sets it from the transport's
        /// configuration.
        var maxMessageBytes: Int

        package init(policy: AccessPolicy = AccessPolicy(), maxRooms: Int = 10_000, incarnation: Int = 0,
                     maxOutboundBytes: Int = 8 * 1024 * 1024, roomTTL: Duration? = nil,
                     roomRelease: Duration? = nil, maxMessageBytes: Int = 8 * 1024 * 1024) {
            self.maxMessageBytes = maxMessageBytes
            self.roomTTL = roomTTL
            self.roomRelease = roomRelease
            self.policy = policy; self.maxRooms = maxRooms; self.incarnation = incarnation
            self.maxOutboundBytes = maxOutboundBytes
        }
    }

    let configuration: Configuration
    var hub: Hub
    /// Open connections with their client id, address, rate and room.
    var connections: [ConnectionID: ConnectionInfo] = [:]
    /// The connection of each client id of this server. Change it only
    /// through `connected` and `disconnected`, which empty `recipients`.
    var clients: [ClientID: ConnectionID] = [:]
    /// Each big room's connections on this server, as its last broadcast
    /// found them (`Gateway+Recipients.swift`); emptied whenever `clients`
    /// changes, so it never outlives a connection.
    var recipients = RecipientCache()
    /// Open connections per peer address.
    var perAddress: [String: Int] = [:]
    var metrics = ServerMetrics()
    /// One node's rooms at rest, or a cluster node's rooms in Redis.
    package var mode: Mode
    /// When someone last joined or left each room, ms since 1970.
    var activity: [String: Int64] = [:]
    /// New rooms per address (`--max-new-rooms-per-ip`, `--max-rooms-per-ip`).
    var roomQuota: RoomQuota
    let codec = WireCodec()

    package init(hub: Hub, configuration: Configuration = Configuration(), mode: Mode = .single(RestingRooms()),
                 activity: [String: Int64] = [:]) {
        self.hub = hub
        self.configuration = configuration
        self.mode = mode
        self.activity = activity
        roomQuota = RoomQuota(.init(perMinute: configuration.policy.newRoomsPerMinute,
                                    held: configuration.policy.maxRoomsPerAddress))
    }

    var policy: AccessPolicy { configuration.policy }

    /// Whether the store behind the node is reachable (`Mode.storeUp`).
    var storeUp: Bool { mode.storeUp }

    /// Handles one event at `clock`; returns what to do, in order.
    mutating func apply(_ event: GatewayEvent, at clock: GatewayClock) -> [GatewayCommand] {
        var out: [GatewayCommand] = []
        switch event {
        case let .connected(connection, peer, verifiedName, forwarding):
            connected(connection, peer: peer, verifiedName: verifiedName, forwarding: forwarding, at: clock, into: &out)
        case let .received(message, connection):
            received(message, from: connection, at: clock, into: &out)
        case let .rejected(rejection, connection):
            guard let client = connections[connection]?.client else { break }
            metrics.refusedFrame()
            let error = switch rejection {
            case let .messageTooBig(limit):
                ProtocolError(.messageTooLarge, "a frame was larger than this server's limit of \(limit) bytes; the connection will close (1009)")
            case .invalidUTF8:
                ProtocolError(.invalidUTF8, "a text frame was not valid UTF-8; the connection will close (1007)")
            }
            route(hub.apply(.rejected(client, error), at: clock.hub), waits: false, into: &out)
        case let .timer(connection):
            guard let info = connections[connection], !info.joined, let timeout = policy.helloTimeout else { break }
            refuse(connection, ProtocolError(.helloTimeout,
                "no hello within \(timeout.components.seconds) s of connecting; send hello {room, name, role} first thing"),
                   at: clock, into: &out)
        case let .disconnected(connection, close):
            disconnected(connection, close, at: clock, into: &out)
        case let .ordered(room, entries):
            guard applies(orderedOf: room) else { break }
            for entry in entries { apply(entry, room: room, at: clock, into: &out) }
        case let .loaded(room, image, entries, applied):
            guard takes(loaded: room, into: &out) else { break }
            let known = hub.rooms[room] != nil
            let seqBefore = hub.rooms[room]?.seq
            hub.adopt(room, image: image)
            for entry in entries {
                // Taken up again (a gap, a decoding failure): what was
                // applied before rebuilds the room without being sent twice.
                if entry.index <= applied {
                    var repeated: [GatewayCommand] = []
                    apply(entry, room: room, at: clock, into: &repeated)
                } else {
                    apply(entry, room: room, at: clock, into: &out)
                }
            }
            dropStrays(in: room, into: &out)
            // Redis restarted from its append-only file, which does not
            // keep scrolls and the like: rebuilt without them, the room's
            // seq went back, and its members here start over with a fresh
            // welcome rather than see numbers they have seen.
            if let seqBefore, let seqAfter = hub.rooms[room]?.seq, seqAfter < seqBefore {
                resetMembers(of: room, reason: "the server's store restarted and the room's latest places were not kept; reconnect",
                             into: &out)
            }
            if !known, hub.rooms[room] != nil { showNewRoom(room, into: &out) }
        case let .undecodable(room, source, index, reason, action):
            out.append(.log(LogRecord(.error, .entryUndecodable, room: room, [
                index.map { LogField("entry", .int($0)) }, LogField("source", .string(source)),
                LogField("reason", .string(reason)), LogField("action", .string(action)),
            ].compactMap { $0 })))
        case let .expired(room, idleSeconds):
            activity[room] = nil
            out.append(.log(LogRecord(.info, .roomExpired, room: room, [
                LogField("idleSeconds", .int(idleSeconds)),
                LogField("ttlSeconds", .int(Int((configuration.roomTTL ?? .zero).components.seconds))),
            ])))
        case let .removed(room):
            if mode.holdsTakenUp(room) {
                hub.adopt(room, image: nil)
                activity[room] = nil
            }
        case let .unavailable(client, reason):
            guard let connection = clients[client] else { break }
            if connections[connection]?.joined == false { connections[connection]?.room = nil }
            route(hub.apply(.rejected(client, ProtocolError(.unavailable,
                "this server cannot reach its cluster's store right now (\(reason)), so your last message was not applied; send it again in a moment or connect to another server",
                retryAfter: 1)),
                             at: clock.hub), into: &out)
        case let .store(up, name, reason):
            mode.cluster { $0.store(up: up, name: name) }
            out.append(.log(LogRecord(up ? .info : .error, up ? .redisUp : .redisDown, [
                LogField("redis", .string(name)), LogField("reason", .string(reason)),
            ])))
        case let .storeFailover(name, from, to):
            out.append(.log(LogRecord(.warn, .redisFailover, [
                LogField("redis", .string(name)), LogField("from", .string(from ?? "")), LogField("to", .string(to)),
            ])))
        case let .restored(rooms, missing):
            restored(rooms, missing: missing, at: clock, into: &out)
        case .sweep:
            sweep(at: clock, into: &out)
        case let .membershipLost(shard):
            // Of one Redis among several: only the members of its rooms.
            let lost = connections.filter { _, info in
                shard.map { shard in info.room.map { mode.shard(of: $0) == shard } ?? false } ?? true
            }.keys.sorted()
            out.append(.log(LogRecord(.warn, .membershipLost, [LogField("connections", .int(lost.count))])))
            for connection in lost {
                out.append(.close(connection, code: CloseCode.rejoin, reason: "cluster membership lost; reconnect", room: nil))
            }
        }
        mode.cluster { $0.noteTakeUps(out) }
        return out
    }

    /// Cluster: a room this node just took up is shown to the observers
    /// that may watch it, in a fresh overview.
    mutating func showNewRoom(_ room: String, into out: inout [GatewayCommand]) {
        for watcher in hub.watchers(of: room) {
            route([.send(ServerMessage(seq: 0, .overview(hub.overview(for: watcher))), to: watcher)], into: &out)
        }
    }

    /// A connection whose hello the hub accepted stops its hello timer.
    mutating func noteJoined(_ client: ClientID, into out: inout [GatewayCommand]) {
        guard let connection = clients[client], let info = connections[connection], !info.joined,
              hub.sessions[client] != nil || hub.watchers.contains(client) else { return }
        connections[connection]?.joined = true
        out.append(.setTimer(connection, nil))
    }

    /// Answers `error` (through the hub: the client, its observers and the
    /// log see it) and closes the connection with 1008 once it is written.
    mutating func refuse(_ connection: ConnectionID, _ error: ProtocolError, at clock: GatewayClock,
                         into out: inout [GatewayCommand]) {
        guard let info = connections[connection] else { return }
        route(hub.apply(.rejected(info.client, error), at: clock.hub), into: &out)
        out.append(.close(connection, code: CloseCode.policyViolation, reason: error.code.rawValue,
                          room: hub.sessions[info.client]))
    }
}
