import NeonCore

/// One node: rooms at rest. A room nobody has been in for `--room-release`
/// leaves memory; the store keeps all of it (its document, its draft at
/// every acknowledged revision, its counting profile), as it does across
/// a restart. The next hello to it, or an observer who watches it, reads
/// it back (on the committer thread, after every record handed over
/// before, so it is read as last committed); the events that arrive for
/// it meanwhile wait, in order, and are applied once it is back
/// (`RestingRooms`). A cluster node orders every event in Redis instead.
extension Gateway {
    /// Places an event of `room` in the room's order. On one node its place
    /// is its arrival, so it is applied now, or waits while the room is
    /// read back from the store (asking for that when it rests); a cluster
    /// node hands it to Redis (`order`), and it comes back `ordered` on
    /// every node.
    mutating func sequence(_ entry: RoomEntry, room: String, hello: Bool, at clock: GatewayClock,
                           into out: inout [GatewayCommand]) {
        switch mode.single({ $0.arrive(entry, room: room, hello: hello) }) {
        case .applies: apply(entry, room: room, at: clock, into: &out)
        case .wakes: out.append(.restore(rooms: [room]))
        case .waits: break
        case nil: out.append(.order(entry, room: room, hello: hello))
        }
    }

    /// Asks for the resting rooms among `rooms` that are not on their way.
    mutating func wake(_ rooms: [String], into out: inout [GatewayCommand]) {
        let asked = mode.single { $0.wake(rooms) } ?? []
        guard !asked.isEmpty else { return }
        out.append(.restore(rooms: asked))
    }

    /// Rooms read back: held again, then what waited for each is applied.
    /// A room the store no longer has (none should be missing) starts new.
    mutating func restored(_ rooms: [RoomState], missing: [String], at clock: GatewayClock,
                           into out: inout [GatewayCommand]) {
        var back: [String] = []
        for room in rooms where mode.rests(room.name) {
            hub.restore(room)
            mode.single { $0.back(room.name) }
            back.append(room.name)
        }
        for name in missing where mode.single({ $0.back(name) }) == true { back.append(name) }
        for name in back {
            let waiting = mode.waiting(for: name)
            out.append(.log(LogRecord(.info, .roomRestored, room: name, [LogField("waiting", .int(waiting))])))
        }
        if !back.isEmpty, !hub.watchers.isEmpty {
            // One fresh overview per watcher for the whole batch, not one a room.
            for watcher in hub.watchers where back.contains(where: { hub.watchers(of: $0).contains(watcher) }) {
                route([.send(ServerMessage(seq: 0, .overview(hub.overview(for: watcher))), to: watcher)], into: &out)
            }
        }
        for name in back {
            for waited in mode.single({ $0.waited(for: name) }) ?? [] {
                apply(waited.entry, room: name, at: clock, into: &out)
            }
        }
    }

    /// Releases from memory the rooms empty, watched by nobody and idle
    /// past `--room-release`; rooms that hold nothing went when their last
    /// member left (`drop(blank:)`).
    mutating func putToRest(at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard let delay = configuration.roomRelease else { return }
        let now = clock.wallNanoseconds / 1_000_000
        let limit = delay.milliseconds
        let occupied = Set(connections.values.compactMap(\.room))
        for room in hub.rooms.keys.sorted() where hub.members(of: room).isEmpty && hub.watchers(of: room).isEmpty {
            let idle = now - (activity[room] ?? now)
            guard idle >= limit, !occupied.contains(room), hub.remove(emptyRoom: room) else { continue }
            mode.single { $0.rest(room) }
            out.append(.log(LogRecord(.info, .roomReleased, room: room, [
                LogField("idleSeconds", .int(Int(idle / 1000))), LogField("releaseSeconds", .int(Int(limit / 1000))),
                LogField("members", .int(0)),
            ])))
        }
    }
}
