import NeonCore

/// Who orders a room's events and keeps what was acknowledged: the
/// executor hands it the gateway's commands on the service thread; what
/// comes back later arrives through the `deliver` it was started with and
/// is applied on the service thread too. One kind per deployment, each
/// implemented whole.
package enum RoomSequencer: Sendable {
    /// One node: arrival order is the order (the gateway applies each
    /// event as it arrives); records are committed, and the commands of
    /// their room after them wait for `durable`.
    case committer(any RoomCommitter)
    /// A node of a cluster: each room's log orders its events, which are
    /// durable once ordered.
    case log(any RoomLog)

    /// One node's committer: only one node's gateway asks for a restore.
    var committer: any RoomCommitter {
        guard case let .committer(committer) = self else {
            preconditionFailure("a cluster node's gateway takes rooms up from Redis; it never restores them from a store")
        }
        return committer
    }

    /// A cluster's log: only a cluster node's gateway orders, takes up,
    /// releases, empties and images rooms there.
    var log: any RoomLog {
        guard case let .log(log) = self else {
            preconditionFailure("one node's gateway applies events as they arrive; it has no room log")
        }
        return log
    }
}

/// One node's store behind its gateway (`LocalSequencer`): commits in
/// order, and reads rooms at rest back.
package protocol RoomCommitter: AnyObject, Sendable {
    /// Commits `records` (ticket `ticket`, in increasing order); `durable`
    /// reports each ticket once it and every earlier one are kept.
    func persist(_ records: [PersistRecord], ticket: Int)
    /// Reads rooms released from memory back from the store, after every
    /// record handed over before, and delivers them as `restored`.
    func restore(_ rooms: [String])
}

/// A cluster's rooms, each a log in a store every node shares
/// (`ClusterLink`: Redis).
package protocol RoomLog: AnyObject, Sendable {
    /// Places an event of `room` in the room's log; it comes back through
    /// `deliver` as `ordered`, on every node. A hello also makes the node
    /// take the room up.
    func order(_ entry: RoomEntry, room: String, hello: Bool)
    /// Holds `room` (nil: every room there is) for observers to watch.
    func takeUp(_ room: String?)
    /// Stops holding `room`: nobody on this node uses it (the log keeps
    /// it, and a later hello takes it up again).
    func release(_ room: String)
    /// Entry `index` left `room` empty: its `--room-ttl` counts from then.
    func emptied(_ room: String, index: Int, atMilliseconds: Int64)
    /// Keeps the room's whole state as of entry `index`.
    func snapshot(_ room: String, index: Int, image: RoomImage)
    /// The health of the shared store for `/metrics` (nil: not measured).
    var storeHealth: StoreHealth? { get }
}

/// How a sequencer's stop went, for the server to log.
public enum SequencerStop: Equatable, Sendable {
    /// What was handed over is kept, and its threads have ended.
    case finished
    /// The store could not be reached on the way out (a cluster node whose
    /// Redis is gone or does not answer): what had not reached it is lost
    /// to this node, and the node did not leave the cluster (its members
    /// leave when its heartbeat expires). `reason` says what failed.
    case storeUnreachable(reason: String)
}

/// What a sequencer hands the service thread.
package enum SequencerDelivery: Sendable {
    /// Something for the gateway: ordered events, a room taken up, a
    /// failure to order, the store coming or going.
    case event(GatewayEvent)
    /// Every ticket up to `through` is committed (in `took`).
    case durable(through: Int, took: Duration)
}

/// A remote store's health as `/metrics` shows it.
package struct StoreHealth: Sendable {
    /// One Redis of the cluster (a shard).
    struct Shard: Sendable {
        /// Its URL.
        var redis: String
        /// Whether this node's writer reaches it now.
        var connected: Bool
        /// Round trips of pipelined batches of commands to it.
        var commandSeconds: Histogram
        /// The server the writer is connected to (`HOST:PORT`), for a
        /// Sentinel shard the master; nil while not connected.
        var master: String? = nil
        /// Masters the Sentinels switched to since the node started.
        var failovers = 0
        /// Entries answered `unavailable` for want of a replica's `WAIT`.
        var unconfirmed = 0
    }

    /// The node name its families are labelled with.
    var node: String
    var shards: [Shard]

    /// Whether the writers reach every shard.
    var connected: Bool { shards.allSatisfy(\.connected) }

    /// Every shard's round trips together.
    var commandSeconds: Histogram {
        shards.dropFirst().reduce(shards[0].commandSeconds) { $0.merged(with: $1.commandSeconds) }
    }
}
