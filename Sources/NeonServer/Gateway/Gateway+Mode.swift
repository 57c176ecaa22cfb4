extension Gateway {
    /// What the gateway keeps of its deployment, chosen once when the
    /// server starts: one node's rooms at rest in its store, or a cluster
    /// node's rooms taken up from Redis. Each part holds its own state and
    /// its own update; the gateway asks the part of its mode.
    package enum Mode: Equatable, Sendable {
        /// One node: arrival order is the order, and rooms idle past
        /// `--room-release` rest in the store (`RestingRooms`).
        case single(RestingRooms)
        /// A node of a cluster: the hub's clock is the wall clock, rooms
        /// are ordered in, taken up from and imaged to Redis
        /// (`ClusterRooms`).
        case cluster(ClusterRooms)

        /// Changes one node's part in place and returns what `change`
        /// returns; nil (and nothing changed) on a cluster node.
        @discardableResult
        mutating func single<Result>(_ change: (inout RestingRooms) -> Result) -> Result? {
            guard case var .single(rooms) = self else { return nil }
            // Let go of the payload first, so that `change` does not copy it.
            self = .cluster(ClusterRooms())
            defer { self = .single(rooms) }
            return change(&rooms)
        }

        /// Changes a cluster node's part in place and returns what `change`
        /// returns; nil (and nothing changed) on one node.
        @discardableResult
        mutating func cluster<Result>(_ change: (inout ClusterRooms) -> Result) -> Result? {
            guard case var .cluster(rooms) = self else { return nil }
            self = .single(RestingRooms())
            defer { self = .cluster(rooms) }
            return change(&rooms)
        }

        /// Whether `room` rests in one node's store.
        func rests(_ room: String) -> Bool {
            guard case let .single(rooms) = self else { return false }
            return rooms.resting.contains(room)
        }

        /// How many rooms rest in the store (none on a cluster node).
        var restingCount: Int {
            guard case let .single(rooms) = self else { return 0 }
            return rooms.resting.count
        }

        /// Whether the store behind the node is reachable: a cluster node
        /// reaches at least one of its Redis instances (the rooms of one
        /// that is down answer `unavailable`, the others carry on); one
        /// node's store always is (a failing commit ends the process).
        var storeUp: Bool {
            guard case let .cluster(rooms) = self else { return true }
            return rooms.storeUp
        }

        // What the gateway asks of its deployment; each answer is the mode's.

        /// One node counts the rooms each address makes (`--max-rooms-per-ip`):
        /// a room it does not hold is a new room. A cluster node cannot tell
        /// a new room from one it has not taken up from Redis yet.
        var countsNewRooms: Bool {
            if case .single = self { true } else { false }
        }

        /// A cluster's log entries carry the message's text, so the node that
        /// applies an entry logs what its sender's node received.
        var entriesCarryText: Bool {
            if case .cluster = self { true } else { false }
        }

        /// A cluster node measures how long entries take to come back from
        /// Redis (`neonsync_cluster_delivery_lag_seconds`).
        var measuresDeliveryLag: Bool {
            if case .cluster = self { true } else { false }
        }

        /// A cluster's `--room-ttl` counts in Redis from the entry that left a
        /// room empty, which the gateway marks (`emptied`).
        var marksEmptiedRooms: Bool {
            if case .cluster = self { true } else { false }
        }

        /// Every how many entries a cluster node stores a room's image; nil on
        /// one node, whose store keeps every record.
        var snapshotEvery: Int? {
            if case let .cluster(rooms) = self { rooms.snapshotEvery } else { nil }
        }

        /// One node removes a room once its last member left and it holds
        /// nothing; a cluster's rooms live in Redis until `--room-ttl`.
        var dropsBlankRooms: Bool {
            if case .single = self { true } else { false }
        }

        /// One node's rooms at rest, idle the longest first; none on a cluster node.
        var restingIdle: [String] {
            if case let .single(rooms) = self { rooms.idle } else { [] }
        }

        /// How many events wait for `room` to be read back from one node's
        /// store (0 on a cluster node).
        func waiting(for room: String) -> Int {
            if case let .single(rooms) = self { rooms.waiting(for: room) } else { 0 }
        }

        /// Whether a cluster node holds `room` as taken up from Redis (never on one node).
        func holdsTakenUp(_ room: String) -> Bool {
            if case let .cluster(rooms) = self { rooms.taken.states[room] == .held } else { false }
        }

        /// Whether a room's ordered entries are applied: on one node always; on
        /// a cluster node only for a room it holds.
        func appliesEntries(of room: String) -> Bool {
            if case let .cluster(rooms) = self { rooms.taken.states[room] == .held } else { true }
        }

        /// Whether a room's image that arrived is wanted without asking about
        /// the room: always on one node (its store answers only what it asked).
        var takesEveryImage: Bool {
            if case .single = self { true } else { false }
        }

        /// Whether a cluster node has asked for `room` or holds it.
        func asksFor(_ room: String) -> Bool {
            if case let .cluster(rooms) = self { rooms.taken.states[room] != nil } else { false }
        }

        /// The Redis shard of a cluster node that holds `room` (0 on one node).
        func shard(of room: String) -> Int {
            if case let .cluster(rooms) = self { rooms.shard(of: room) } else { 0 }
        }
    }
}
