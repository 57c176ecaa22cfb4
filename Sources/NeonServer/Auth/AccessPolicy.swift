import NeonCore

/// Who may connect and how much they may send: the server's room tokens and
/// per-connection limits. Each is a neonsyncd flag.
public struct AccessPolicy: Sendable {
    /// With a secret, every hello must carry a room token it signed.
    public var secret: TokenSecret?
    /// Messages a second one connection may send on average (0: no limit).
    public var rate: Double
    /// Messages one connection may send at once above the rate.
    public var burst: Double
    /// A connection that has not joined (or started watching) this long
    /// after its handshake is closed; nil waits forever.
    public var helloTimeout: Duration?
    /// Open connections one address may hold (0: no limit).
    public var maxConnectionsPerAddress: Int
    /// The proxies whose forwarding headers name the client's address
    /// (for limits and logs); everyone else's are ignored.
    public var proxies: ProxyTrust
    /// New rooms one address may create a minute (0: no limit).
    public var newRoomsPerMinute: Int
    /// Rooms one address may have created and still alive at once (0: no
    /// limit); below `--max-rooms`, so no address alone fills the server.
    public var maxRoomsPerAddress: Int

    public init(secret: TokenSecret? = nil, rate: Double = 100, burst: Double = 200,
                helloTimeout: Duration? = .seconds(10), maxConnectionsPerAddress: Int = 64,
                proxies: ProxyTrust = ProxyTrust(), newRoomsPerMinute: Int = 0, maxRoomsPerAddress: Int = 0) {
        self.proxies = proxies
        self.newRoomsPerMinute = newRoomsPerMinute
        self.maxRoomsPerAddress = maxRoomsPerAddress
        self.secret = secret
        self.rate = rate
        self.burst = burst
        self.helloTimeout = helloTimeout
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }

    /// A fresh bucket for a new connection, nil without a rate limit.
    func bucket() -> TokenBucket? {
        rate > 0 ? TokenBucket(rate: rate, burst: max(burst, 1)) : nil
    }

    /// Consecutive messages over the rate after which the connection is
    /// closed: twice the burst, at least 20.
    var dropsBeforeClose: Int { max(Int(burst) * 2, 20) }
}

/// What the router keeps about one connection besides its client id.
struct ConnectionInfo {
    let client: ClientID
    let address: String
    var bucket: TokenBucket?
    /// The login name of the user on the other end of the Unix socket;
    /// nil on TCP.
    var verifiedName: String? = nil
    /// Messages dropped in a row for being over the rate.
    var dropped = 0
    /// It said a hello the hub accepted (a room or every room).
    var joined = false
    /// Cluster mode: the room its hello went to, whose log carries every
    /// message of this connection (nil before a hello, or after a refused one).
    var room: String?
}
