/// How a node joins the cluster (`neonsyncd --redis … --node …`).
public struct ClusterConfiguration: Sendable {
    /// The cluster's Redis instances, its shards, in the order every node
    /// lists them: a room lives on one of them (`ShardPlacement`), and the
    /// first also hands out node incarnations.
    public var endpoints: [RedisEndpoint]
    /// From `--redis-password-file`, never the command line (every shard
    /// takes the same password).
    public var password: String?
    /// The node's name in logs, metrics and Redis; unique among live nodes.
    public var node: String
    /// How often the node renews its liveness key and looks for dead nodes.
    public var heartbeat: Duration
    /// How long the liveness key lives without renewal: a killed node's
    /// members are reported `left` within about this plus one heartbeat.
    public var ttl: Duration
    /// A room's image is stored every this many entries (the log below the
    /// previous image is trimmed).
    public var snapshotEvery: Int
    /// `--room-ttl`: a room empty and idle this long is removed from Redis
    /// (nil: rooms are kept).
    public var roomTTL: Duration?
    /// `--redis-replicas`: how many replicas must have an entry kept (a
    /// `WAIT`) before anyone is told of it and its sender gets an ack (nil:
    /// 1 for a shard named by Sentinels, 0 for another).
    public var replicas: Int?
    /// `--redis-replica-timeout`: how long a `WAIT` waits for them; past it
    /// the entry's sender is answered `unavailable`.
    public var replicaTimeout: Duration

    public init(endpoints: [RedisEndpoint], password: String? = nil, node: String,
                heartbeat: Duration = .seconds(2), ttl: Duration = .seconds(6), snapshotEvery: Int = 1000,
                roomTTL: Duration? = nil, replicas: Int? = nil, replicaTimeout: Duration = .seconds(1)) {
        precondition(!endpoints.isEmpty, "a cluster has at least one Redis")
        self.endpoints = endpoints; self.password = password; self.node = node
        self.heartbeat = heartbeat; self.ttl = ttl; self.snapshotEvery = snapshotEvery; self.roomTTL = roomTTL
        self.replicas = replicas; self.replicaTimeout = replicaTimeout
    }

    /// How many replicas confirm the entries of shard `shard`.
    func replicas(ofShard shard: Int) -> Int {
        replicas ?? (endpoints[shard].isSentinel ? 1 : 0)
    }

    public init(endpoint: RedisEndpoint, password: String? = nil, node: String,
                heartbeat: Duration = .seconds(2), ttl: Duration = .seconds(6), snapshotEvery: Int = 1000,
                roomTTL: Duration? = nil) {
        self.init(endpoints: [endpoint], password: password, node: node, heartbeat: heartbeat, ttl: ttl,
                  snapshotEvery: snapshotEvery, roomTTL: roomTTL)
    }

    /// How often each shard's writer looks for rooms past `roomTTL`: a
    /// quarter of it, from 1 s to a minute.
    var expirySweep: Duration? {
        roomTTL.map { min(max($0 / 4, .seconds(1)), .seconds(60)) }
    }

    /// The first Redis, which hands out incarnations.
    public var endpoint: RedisEndpoint { endpoints[0] }

    /// The list as `--redis` takes it, for logs and messages.
    public var redisList: String { endpoints.map(\.description).joined(separator: ",") }
}
