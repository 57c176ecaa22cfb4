import Foundation
import NeonCore
import NeonTransport

/// Cluster mode: a room's events are not applied when they arrive but
/// appended to the room's log in Redis; every node that holds the room
/// applies the log's entries in its one order, so the hub of every node
/// computes the same `seq`, members and draft. Outputs go to this node's
/// connections only; log lines are written by the node the event came from.
extension Router {
    /// The hub's clock: time since start on one node; in a cluster, the
    /// wall clock, which every node shares for the events in the logs.
    func hubTime(_ instant: ContinuousClock.Instant) -> Duration {
        cluster == nil ? instant - epoch : .nanoseconds(wallClockNanoseconds())
    }

    /// A connection whose hello the hub accepted stops its hello timer.
    func noteJoined(_ client: ClientID, state: inout State, server: WebSocketServer) {
        guard let connection = state.clients[client], let info = state.connections[connection], !info.joined,
              state.hub.sessions[client] != nil || state.hub.watchers.contains(client) else { return }
        state.connections[connection]?.joined = true
        server.setTimer(for: connection, after: nil)
    }

    /// An admitted message in cluster mode: a hello to a room takes that
    /// room up and goes to its log, and so does everything the connection
    /// sends after it; what concerns no room (watching every room, a bad
    /// room name, a message before any hello) is answered here.
    func order(_ message: ClientMessage, from connection: ConnectionID, state: inout State, server: WebSocketServer,
               at now: Duration, since arrived: ContinuousClock.Instant) {
        guard let cluster, let info = state.connections[connection] else { return }
        let client = info.client
        var room = info.room
        var hello = false
        if case let .hello(name, _, _, _, _, _) = message {
            if let current = room ?? (state.hub.watchers.contains(client) ? Hub.everyRoom : nil) {
                perform(state.hub.apply(.rejected(client, ProtocolError(.alreadyJoined,
                    "you already joined room \"\(current)\"; open another connection to join another room")), at: now),
                        state: &state, server: server, since: arrived)
                return
            }
            if name == Hub.everyRoom || Hub.problem(withRoom: name) != nil {
                perform(state.hub.apply(.received(client, message), at: now), state: &state, server: server, since: arrived)
                noteJoined(client, state: &state, server: server)
                return
            }
            if state.hub.rooms[name] == nil, state.hub.rooms.count >= maxRooms {
                perform(state.hub.apply(.rejected(client, ProtocolError(.serverFull,
                    "this node holds its maximum of \(maxRooms) rooms; join an existing room, another node, or try later")), at: now),
                        state: &state, server: server, since: arrived)
                return
            }
            room = name
            hello = true
            state.connections[connection]?.room = name
            cluster.takeUp(name)
        }
        guard let room else {
            perform(state.hub.apply(.received(client, message), at: now), state: &state, server: server, since: arrived)
            return
        }
        let json = String(decoding: codec.encode(message.withoutToken), as: UTF8.self)
        cluster.append(ClusterEntry(kind: .message, client: client.rawValue, origin: cluster.generation,
                                    time: now.inNanoseconds, message: json), room: room, hello: hello)
    }

    /// What the cluster link hands over, on the service thread.
    func apply(_ delivery: ClusterDelivery) {
        guard let server = transport.withLock({ $0 }), let cluster else { return }
        state.withLock { state in
            switch delivery {
            case let .loaded(room, image, entries):
                let decoded = image.flatMap { try? JSONDecoder().decode(RoomImage.self, from: Data($0.utf8)) }
                state.hub.adopt(room, image: decoded)
                for entry in entries { apply(entry, room: room, state: &state, server: server, cluster: cluster) }
                dropStrays(in: room, state: &state, server: server)
            case let .entries(room, entries):
                for entry in entries { apply(entry, room: room, state: &state, server: server, cluster: cluster) }
            case let .failed(id, reason):
                let client = ClientID(id)
                guard let connection = state.clients[client] else { return }
                if state.connections[connection]?.joined == false { state.connections[connection]?.room = nil }
                perform(state.hub.apply(.rejected(client, ProtocolError(.unavailable,
                    "this server cannot reach its cluster's store right now (\(reason)), so your last message was not applied; send it again in a moment or connect to another server")),
                                        at: hubTime(.now)), state: &state, server: server, since: .now)
            case let .redis(up, reason):
                state.redisUp = up
                logger.log(LogRecord(up ? .info : .error, up ? "redis_up" : "redis_down", [
                    LogField("redis", .string(cluster.configuration.endpoint.description)),
                    LogField("reason", .string(reason)),
                ]))
            case .lostMembership:
                logger.log(LogRecord(.warn, "membership_lost", [
                    LogField("connections", .int(state.connections.count)),
                ]))
                for connection in state.connections.keys {
                    server.close(connection, code: CloseCode.rejoin, reason: "cluster membership lost; reconnect")
                }
            }
        }
    }

    /// After a room was taken up again, this node's connections that had
    /// joined it but are not members as Redis has it (Redis lost the room's
    /// history) start over: closed with 1013, they reconnect and join anew.
    private func dropStrays(in room: String, state: inout State, server: WebSocketServer) {
        for (connection, info) in state.connections
        where info.room == room && info.joined && state.hub.sessions[info.client] == nil {
            state.connections[connection]?.room = nil
            logger.log(LogRecord(.warn, "room_reset", room: room, client: info.client, [
                LogField("code", .int(Int(CloseCode.rejoin))),
            ]))
            server.close(connection, code: CloseCode.rejoin, reason: "the room's history was lost in Redis; reconnect")
        }
    }

    /// Applies one log entry of `room` to the hub.
    private func apply(_ entry: ClusterEntry, room: String, state: inout State, server: WebSocketServer,
                       cluster: ClusterLink) {
        let local = entry.origin == cluster.generation
        let time = Duration.nanoseconds(entry.time)
        let client = ClientID(entry.client)
        let started = ContinuousClock.now
        state.metrics.delivered(lag: .nanoseconds(max(wallClockNanoseconds() - entry.time, 0)))
        switch entry.kind {
        case .message:
            guard case let .success(message) = codec.decodeClient(entry.message.utf8) else { return }
            perform(state.hub.apply(.received(client, message), at: time), state: &state, server: server,
                    since: started, local: local)
            if local, case .hello = message {
                noteJoined(client, state: &state, server: server)
                if state.hub.sessions[client] == nil, let connection = state.clients[client] {
                    state.connections[connection]?.room = nil
                }
            }
        case .bye:
            perform(state.hub.apply(.disconnected(client), at: time), state: &state, server: server,
                    since: started, local: local)
        case .gone:
            let prefix = "c\(entry.origin)-"
            for member in state.hub.members(of: room) where member.rawValue.hasPrefix(prefix) {
                perform(state.hub.apply(.disconnected(member), at: time), state: &state, server: server, since: started)
            }
        }
        if local, entry.index % cluster.configuration.snapshotEvery == 0, let image = state.hub.rooms[room]?.image {
            cluster.snapshot(room, index: entry.index, image: image)
        }
    }
}

extension ClientMessage {
    /// The message as a room's log keeps it: a hello without its token.
    var withoutToken: ClientMessage {
        guard case let .hello(room, name, role, profile, draftRev, token) = self, token != nil else { return self }
        return .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: nil)
    }
}
