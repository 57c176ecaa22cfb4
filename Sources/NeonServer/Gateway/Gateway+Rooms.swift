import NeonCore
import NeonTransportCore

/// Rooms: every event that changes a room takes its place in the room's
/// order and is then applied to the hub. On one node its place is its
/// arrival, and it is applied at once; in a cluster the room's log in Redis
/// orders it, and it comes back as `ordered`.
extension Gateway {
    /// An admitted message: a hello to a room goes to that room's order, and
    /// so does everything the connection sends after it; what concerns no
    /// room (watching every room, a bad room name, a message before any
    /// hello, a second hello) is answered here.
    /// `text` is the message as it arrived, which a cluster's log keeps as
    /// it is when nothing in it changes (a hello loses its token and, on
    /// the Unix socket, takes the login name: it is encoded again).
    mutating func order(_ message: ClientMessage, text: String? = nil, from connection: ConnectionID,
                        at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard let info = connections[connection] else { return }
        let client = info.client
        var room = info.room
        var hello = false
        var message = message
        if let login = info.verifiedName,
           case let .hello(room, _, role, profile, draftRev, token, resume, notes) = message {
            // On the Unix socket the member is who the kernel says, whatever
            // the hello claims.
            message = .hello(room: room, name: login, role: role, profile: profile, draftRev: draftRev,
                             token: token, resume: resume, notes: notes)
        }
        if case let .hello(name, _, _, _, _, _, _, _) = message {
            if let current = room ?? (hub.watchers.contains(client) ? Hub.everyRoom : nil) {
                return route(hub.apply(.rejected(client, ProtocolError(.alreadyJoined,
                    "you already joined room \"\(current)\"; open another connection to join another room")), at: clock.hub),
                             into: &out)
            }
            if name == Hub.everyRoom || Hub.problem(withRoom: name) != nil {
                route(hub.apply(.received(client, message), at: clock.hub), into: &out)
                noteJoined(client, into: &out)
                return takeUpWatched(client, scope: nil, into: &out)
            }
            let held = hub.rooms[name] != nil || mode.rests(name)
            if !held, hub.rooms.count + mode.restingCount >= configuration.maxRooms {
                return route(hub.apply(.rejected(client, ProtocolError(.serverFull,
                    "this server holds its maximum of \(configuration.maxRooms) rooms; join an existing room or try later")),
                                       at: clock.hub), into: &out)
            }
            // One node: a room it does not hold is a new room. A cluster node
            // cannot tell a new room from one it has not taken up from Redis
            // yet, so its rooms are not counted per address.
            if !held, mode.countsNewRooms {
                let rooms = hub.rooms
                if case let .refused(error, first) = roomQuota.admit(name, from: info.address, at: clock.monotonic,
                                                                     exists: { rooms[$0] != nil }) {
                    // Said to every attempt, logged once a burst.
                    return route(first ? hub.apply(.rejected(client, error), at: clock.hub)
                                       : [.send(ServerMessage(seq: 0, .error(error)), to: client)], into: &out)
                }
            }
            room = name
            hello = true
            connections[connection]?.room = name
        }
        guard let room else {
            return route(hub.apply(.received(client, message), at: clock.hub), into: &out)
        }
        let logged: String? = if mode.entriesCarryText, !hello { text } else { nil }
        sequence(RoomEntry(event: .message(message), client: client, origin: configuration.incarnation,
                           time: clock.hub, verified: hello && info.verifiedName != nil, text: logged),
                 room: room, hello: hello, at: clock, into: &out)
    }

    /// Applies one ordered event of `room` to the hub. Log lines are
    /// written by the node the event came from; a cluster node whose event
    /// reaches a multiple of `snapshotEvery` stores the room's image.
    mutating func apply(_ entry: RoomEntry, room: String, at clock: GatewayClock, into out: inout [GatewayCommand]) {
        let local = entry.origin == configuration.incarnation
        if mode.measuresDeliveryLag {
            // Another node's clock: saturate rather than trap on any time.
            let (lag, overflow) = clock.wallNanoseconds.subtractingReportingOverflow(entry.time.inNanoseconds)
            metrics.delivered(lag: .nanoseconds(overflow ? (lag < 0 ? .max : 0) : max(lag, 0)))
        }
        switch entry.event {
        case let .message(message):
            let existed = hub.rooms[room] != nil
            let before = if case .hello = message { hub.members(of: room) } else { [ClientID]() }
            route(hub.apply(entry.verified ? .verifiedHello(entry.client, message) : .received(entry.client, message),
                            at: entry.time), local: local, into: &out)
            closeReplaced(before, in: room, into: &out)
            if local, !existed, hub.rooms[room] != nil, let connection = clients[entry.client],
               let address = connections[connection]?.address {
                roomQuota.created(room, by: address)
            }
            if case .hello = message, hub.sessions[entry.client] == room {
                touch(room, storing: hub.members(of: room).count == 1, at: clock, into: &out)
            }
            if local, case .hello = message {
                noteJoined(entry.client, into: &out)
                if hub.sessions[entry.client] == nil, let connection = clients[entry.client] {
                    connections[connection]?.room = nil
                }
            }
        case .bye:
            route(hub.apply(.disconnected(entry.client), at: entry.time), local: local, into: &out)
            if !drop(blank: room, into: &out) {
                touch(room, storing: hub.members(of: room).isEmpty, at: clock, into: &out)
            }
        case .gone:
            let prefix = "c\(entry.origin)-"
            for member in hub.members(of: room) where member.rawValue.hasPrefix(prefix) {
                route(hub.apply(.disconnected(member), at: entry.time), into: &out)
            }
        }
        // Cluster: the room's --room-ttl counts in Redis from the entry that
        // left it empty (said by the node whose client left; by every node
        // for a node that went).
        if mode.marksEmptiedRooms, configuration.roomTTL != nil, entry.index > 0,
           (entry.event == .bye && local) || entry.event == .gone, hub.rooms[room] != nil, hub.members(of: room).isEmpty {
            out.append(.emptied(room: room, index: entry.index, atMilliseconds: entry.time.inNanoseconds / 1_000_000))
        }
        if local, let every = mode.snapshotEvery, entry.index > 0, entry.index % every == 0,
           let image = hub.rooms[room]?.image {
            out.append(.snapshot(room: room, index: entry.index, image))
        }
    }

    /// A hello with a member's `resume` secret took that member's place
    /// (`Hub`): the member's connection, when it is one of this node's and
    /// still open, is closed (4013) so its client joins again. Usually the
    /// replaced connection is dead already; but the hello of a connection
    /// its client gave up on may arrive after the hello of the one that
    /// replaced it, and then the live connection, no longer in the room,
    /// would hear nothing more and have every edit refused.
    private mutating func closeReplaced(_ before: [ClientID], in room: String, into out: inout [GatewayCommand]) {
        for member in before where hub.sessions[member] == nil {
            guard let connection = clients[member], connections[connection]?.room == room else { continue }
            connections[connection]?.room = nil
            out.append(.close(connection, code: CloseCode.rejoin,
                              reason: "another connection of this session joined the room; reconnect", room: nil))
        }
    }

    /// Someone joined or left `room` now: its idle time starts again. The
    /// time is stored when the room turns busy or empty (`storing`), which
    /// is what its time-to-live counts from.
    private mutating func touch(_ room: String, storing: Bool, at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard hub.rooms[room] != nil else { return }
        let now = clock.wallNanoseconds / 1_000_000
        activity[room] = now
        if storing { out.append(.persist(.roomActive(room: room, atMilliseconds: now), room: room)) }
    }

    /// Removes `room` when its last member left and it holds nothing
    /// (`RoomState.isBlank`), on a node of its own; returns whether it did.
    private mutating func drop(blank room: String, into out: inout [GatewayCommand]) -> Bool {
        guard mode.dropsBlankRooms, hub.rooms[room]?.isBlank == true, hub.remove(emptyRoom: room) else { return false }
        activity[room] = nil
        out.append(.log(LogRecord(.info, .roomDropped, room: room, [])))
        out.append(.persist(.roomRemoved(room: room), room: room))
        return true
    }

    /// Removes the rooms that are empty and idle past `--room-ttl`, resting
    /// or not: their document and draft go too (a typo's room does not
    /// live forever); releases from memory those idle past `--room-release`.
    mutating func sweep(at clock: GatewayClock, into out: inout [GatewayCommand]) {
        let rooms = hub.rooms
        let mode = mode
        roomQuota.prune(at: clock.monotonic, exists: { rooms[$0] != nil || mode.rests($0) })
        switch mode {
        case .single:
            expire(at: clock, into: &out)
            putToRest(at: clock, into: &out)
        case let .cluster(rooms):
            releaseUnused(rooms, at: clock, into: &out)
        }
    }

    /// One node: removes the rooms empty and idle past `--room-ttl`.
    private mutating func expire(at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard let ttl = configuration.roomTTL else { return }
        let now = clock.wallNanoseconds / 1_000_000
        let limit = ttl.milliseconds
        let atRest = mode.restingIdle
        let candidates = hub.rooms.keys.filter { hub.members(of: $0).isEmpty } + atRest
        for room in candidates.sorted() {
            let idle = now - (activity[room] ?? now)
            guard idle >= limit, mode.single({ $0.expire(room) }) == true || hub.remove(emptyRoom: room) else { continue }
            activity[room] = nil
            out.append(.log(LogRecord(.info, .roomExpired, room: room, [
                LogField("idleSeconds", .int(Int(idle / 1000))), LogField("ttlSeconds", .int(Int(limit / 1000))),
            ])))
            out.append(.persist(.roomRemoved(room: room), room: room))
        }
    }

    /// After a room was taken up again, this node's connections that had
    /// joined it but are not members as the store has it (Redis lost the
    /// room's history) start over: closed with 4013, they reconnect and
    /// join anew.
    mutating func dropStrays(in room: String, into out: inout [GatewayCommand]) {
        let sessions = hub.sessions
        reset(room, where: { sessions[$0.client] == nil }, leaving: false,
              reason: "the room's history was lost in Redis; reconnect", into: &out)
    }

    /// Every connection of this node that joined `room` starts over:
    /// closed with 4013 (`reason`), it leaves the room as any closed
    /// connection does, reconnects and joins anew.
    mutating func resetMembers(of room: String, reason: String, into out: inout [GatewayCommand]) {
        reset(room, where: { _ in true }, leaving: true, reason: reason, into: &out)
    }

    /// Closes the matching members of `room` with 4013; those the room
    /// no longer has are forgotten at once (`leaving` false), the others
    /// leave it when their connection closes.
    private mutating func reset(_ room: String, where matches: (ConnectionInfo) -> Bool, leaving: Bool, reason: String,
                                into out: inout [GatewayCommand]) {
        for (connection, info) in connections.sorted(by: { $0.key < $1.key })
        where info.room == room && info.joined && matches(info) {
            if !leaving { connections[connection]?.room = nil }
            out.append(.log(LogRecord(.warn, .roomReset, room: room, client: info.client, [
                LogField("code", .int(Int(CloseCode.rejoin))),
            ])))
            out.append(.close(connection, code: CloseCode.rejoin, reason: reason, room: nil))
        }
    }
}
