/// How a node joins the cluster (`neonsyncd --redis … --node …`).
public struct ClusterConfiguration: Sendable {
    public var endpoint: RedisEndpoint
    /// From `--redis-password-file`, never the command line.
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
    /// A room none of the node's connections has used this long is let go
    /// of (unsubscribed, forgotten; Redis keeps it); nil keeps every room.
    public var roomRelease: Duration?

    public init(endpoint: RedisEndpoint, password: String? = nil, node: String,
                heartbeat: Duration = .seconds(2), ttl: Duration = .seconds(6), snapshotEvery: Int = 1000,
                roomRelease: Duration? = .seconds(60)) {
        self.endpoint = endpoint; self.password = password; self.node = node
        self.heartbeat = heartbeat; self.ttl = ttl; self.snapshotEvery = snapshotEvery
        self.roomRelease = roomRelease
    }
}
