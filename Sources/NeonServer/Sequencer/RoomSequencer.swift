import NeonCore

/// Decides the order of each room's events and keeps what was
/// acknowledged: on one node arrival order plus SQLite (`LocalSequencer`),
/// in a cluster Redis (`ClusterLink`). The executor hands it events and records
/// on the service thread; what comes back later arrives through `deliver`
/// and is applied on the service thread too.
package protocol RoomSequencer: AnyObject, Sendable {
    /// Whether an event is durable as soon as it is ordered (the cluster's
    /// log in Redis); otherwise `persist` records are committed and the
    /// commands of their room after them wait for `durable`.
    var durableOnceOrdered: Bool { get }
    /// Starts its threads; `deliver` runs on them and must hand its value
    /// to the service thread.
    func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void)
    /// Places an event of `room` in the room's order; it comes back
    /// through `deliver` as `ordered`. A hello also makes the node take the
    /// room up. Only a cluster's gateway asks: on one node arrival order is
    /// the order, and the gateway applies its events as they arrive.
    func order(_ entry: RoomEntry, room: String, hello: Bool)
    /// Commits `records` (ticket `ticket`, in increasing order); `durable`
    /// reports each ticket once it and every earlier one are kept.
    func persist(_ records: [PersistRecord], ticket: Int)
    /// Holds `room` (nil: every room there is) for observers to watch;
    /// on one node every room is always held.
    func takeUp(_ room: String?)
    /// One node: reads rooms released from memory back from the store,
    /// after every record handed over before, and delivers them as
    /// `restored` (a cluster takes rooms up from Redis instead).
    func restore(_ rooms: [String])
    /// Stops holding `room`: nobody on this node uses it (cluster; Redis
    /// keeps it, and a later hello takes it up again). On one node nothing.
    func release(_ room: String)
    /// Entry `index` left `room` empty (cluster: its `--room-ttl` counts
    /// from then, in Redis). On one node nothing: the gateway keeps time.
    func emptied(_ room: String, index: Int, atMilliseconds: Int64)
    /// Keeps the room's whole state as of entry `index` (cluster).
    func snapshot(_ room: String, index: Int, image: RoomImage)
    /// Waits until every record handed over is kept (one node: committed
    /// and reported durable; a cluster's events are durable once ordered).
    func flush()
    /// The health of the store behind it for `/metrics`: a cluster node's
    /// link to Redis; nil for one node (its commits are the gateway's
    /// metrics).
    var storeHealth: StoreHealth? { get }
    /// Finishes what was handed over (commits, appends) and stops its
    /// threads; safe from any thread, any number of times, at once (every
    /// caller returns once they have ended, or their bounded wait passed).
    @discardableResult
    func stop() -> SequencerStop
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
