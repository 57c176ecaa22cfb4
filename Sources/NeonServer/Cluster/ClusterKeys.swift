/// Every Redis key cluster mode uses (docs/CLUSTER.md lists their
/// lifetimes). A room's keys carry the `{room}` hash tag, so that they stay
/// in one slot if the data is ever sharded over Redis Cluster.
package enum ClusterKeys {
    /// The number of a room's last entry (neonsync-bench's Redis load sums
    /// them). The append-only file keeps a number at least as high: the
    /// room's reservation (below), so that after a restart from it no
    /// number is handed out twice.
    package static func counter(_ room: String) -> String { "neonsync:{\(room)}:n" }
    /// The highest number a room's entries may have taken (docs/CLUSTER.md,
    /// "Events not kept"): written to the append-only file once per
    /// `ClusterScripts.reservation` entries, with the counter set to it
    /// there.
    static func reserved(_ room: String) -> String { "neonsync:{\(room)}:r" }
    /// The `run_id` of the Redis process that last numbered the room's
    /// entries (in memory only): when it is not this process's, Redis
    /// restarted since, and the counter is settled past the reservation.
    static func run(_ room: String) -> String { "neonsync:{\(room)}:run" }
    static func log(_ room: String) -> String { "neonsync:{\(room)}:log" }
    /// With replicas to confirm (`--redis-replicas`): the number of the
    /// room's last entry subscribers may be told of, when an entry after it
    /// waits for a replica (absent: every entry may; in memory only).
    static func visible(_ room: String) -> String { "neonsync:{\(room)}:v" }
    /// Rooms with entries waiting for a replica, scored by when the first
    /// began to wait (seconds since 1970; in memory only).
    static let held = "neonsync:held"
    static func snapshot(_ room: String) -> String { "neonsync:{\(room)}:snap" }
    /// Every room ever joined (for observers of every room).
    static let rooms = "neonsync:rooms"
    /// A shard's place in the cluster's list of Redis instances, "i/n".
    static let shard = "neonsync:shard"
    /// Hands out node incarnation numbers (on the first Redis).
    static let generation = "neonsync:generation"
    /// incarnation → node name, for every incarnation not yet reaped.
    static let incarnations = "neonsync:incarnations"
    /// The live incarnation of a node name; expires without heartbeats.
    static func node(_ name: String) -> String { "neonsync:node:\(name)" }
    /// Rooms whose last member left, scored by when (ms since 1970), for
    /// `--room-ttl`.
    static let idle = "neonsync:idle"
    /// Each room of `idle`: the number of the entry that left it empty.
    static let idleEntry = "neonsync:idle:entry"
    /// What a room's channel carries when the room was removed (`--room-ttl`).
    static let removedNotice = "removed"
    /// The rooms an incarnation had members in.
    static func incarnationRooms(_ generation: Int) -> String { "neonsync:gen:\(generation):rooms" }
    /// The channel each entry of a room's log is published on as it is appended.
    static func channel(_ room: String) -> String { "neonsync:{\(room)}:events" }
    /// The room of a channel name, nil for any other name.
    static func room(ofChannel channel: String) -> String? {
        guard channel.hasPrefix("neonsync:{"), channel.hasSuffix("}:events") else { return nil }
        return String(channel.dropFirst("neonsync:{".count).dropLast("}:events".count))
    }
}
