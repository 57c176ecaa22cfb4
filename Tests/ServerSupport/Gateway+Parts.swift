import NeonServer

/// What the tests read of the gateway's deployment part, by the names
/// they had when the parts of both modes were fields of the gateway.
extension Gateway {
    /// One node's rooms at rest (none on a cluster node).
    package var resting: Set<String> {
        if case let .single(rooms) = mode { rooms.resting } else { [] }
    }

    /// One node's rooms being read back, with what waits for each.
    package var waking: [String: [RestingRooms.Waiting]] {
        if case let .single(rooms) = mode { rooms.waking } else { [:] }
    }

    /// A cluster node's rooms asked for or held (none on one node).
    package var takenUp: TakenRooms {
        if case let .cluster(rooms) = mode { rooms.taken } else { TakenRooms() }
    }
}
