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
    }
}
