import NeonCore

/// Cluster: which rooms this node reads from Redis, and letting go of the
/// ones nobody here uses. A node takes a room up for a hello or an observer
/// (an `order` with `hello`, a `takeUp`); once no connection of this node
/// (a member, a hello waiting for its room, an observer watching it from
/// outside) has used the room for `--room-release`, it releases it: the hub
/// forgets the room (with the members other nodes have in it) and the
/// reader stops reading its log. Redis keeps the room; the next hello here
/// takes it up again, as a node's first hello for a room does.
package struct TakenRooms: Equatable, Sendable {
    package enum State: Equatable, Sendable {
        /// Asked of the reader; the room's image is on the way.
        case asked
        /// Loaded: the room's entries are applied as they come.
        case held
    }

    package private(set) var states: [String: State] = [:]
    /// When a sweep first found each room unused here, ms since 1970.
    package private(set) var unusedSince: [String: Int64] = [:]

    package init() {}

    /// A hello or an observer here asked for `room`.
    mutating func ask(_ room: String) {
        if states[room] == nil { states[room] = .asked }
        unusedSince[room] = nil
    }

    /// `room`'s image arrived.
    mutating func hold(_ room: String) {
        states[room] = .held
    }

    /// Someone here uses `room`.
    mutating func used(_ room: String) {
        unusedSince[room] = nil
    }

    /// Since when `room` has been unused, `now` if this is the first sweep
    /// to find it so.
    mutating func unused(_ room: String, now: Int64) -> Int64 {
        if let since = unusedSince[room] { return since }
        unusedSince[room] = now
        return now
    }

    mutating func forget(_ room: String) {
        states[room] = nil
        unusedSince[room] = nil
    }
}

extension Gateway {
    /// Whether a room's ordered entries are applied: on one node always; on
    /// a cluster node only for a room it holds, not for one it let go of
    /// (entries the reader sent before it stopped reading the room) nor one
    /// whose image is still on the way (the image brings them).
    func applies(orderedOf room: String) -> Bool {
        mode.appliesEntries(of: room)
    }

    /// Whether a room's image is taken: on a cluster node, for a room it
    /// asked for or holds, or one an observer here may watch (an observer
    /// of every room has them arrive unasked). Any other (an image read
    /// before the room was let go of, or for an observer who has left since)
    /// is dropped, and the reader told to let go of that room too.
    mutating func takes(loaded room: String, into out: inout [GatewayCommand]) -> Bool {
        guard !mode.takesEveryImage else { return true }
        guard mode.asksFor(room) || !hub.watchers(of: room).isEmpty else {
            out.append(.release(room: room))
            return false
        }
        mode.cluster { $0.taken.hold(room) }
        return true
    }

    /// Releases the rooms unused here for `--room-release`: while an
    /// observer of every room is connected, none (it watches them all).
    /// Unused since the first sweep that found them so; sweeps come every
    /// quarter of `--room-release`.
    mutating func releaseUnused(_ rooms: ClusterRooms, at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard let delay = configuration.roomRelease, !rooms.taken.states.isEmpty else { return }
        let now = clock.wallNanoseconds / 1_000_000
        let watchesAll = hub.watchers.contains { hub.watchScopes[$0] == nil }
        var inUse = Set(connections.values.compactMap(\.room))
        inUse.formUnion(hub.watchScopes.values)
        for room in rooms.taken.states.keys.sorted() {
            if watchesAll || inUse.contains(room) {
                mode.cluster { $0.taken.used(room) }
                continue
            }
            let idle = now - (mode.cluster { $0.taken.unused(room, now: now) } ?? now)
            if idle >= delay.milliseconds { release(room, idle: idle, delay: delay, into: &out) }
        }
    }

    /// Forgets `room` here: the hub drops it with its members (all of
    /// other nodes), and the reader stops reading it.
    private mutating func release(_ room: String, idle: Int64, delay: Duration, into out: inout [GatewayCommand]) {
        let elsewhere = hub.members(of: room).count
        hub.adopt(room, image: nil)
        activity[room] = nil
        mode.cluster { $0.taken.forget(room) }
        out.append(.log(LogRecord(.info, .roomReleased, room: room, [
            LogField("idleSeconds", .int(Int(idle / 1000))),
            LogField("releaseSeconds", .int(Int(delay.milliseconds / 1000))),
            LogField("members", .int(elsewhere)),
        ])))
        out.append(.release(room: room))
    }
}
