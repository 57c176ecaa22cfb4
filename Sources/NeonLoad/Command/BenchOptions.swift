import NeonClient
import NeonCore
import NeonServer

/// `neonsync-bench SCENARIO` and its flags (the table is `BenchHelp.table`).
struct BenchOptions: Sendable {
    /// What the server at `--server` speaks.
    enum Peer: String, CaseIterable, Sendable {
        /// neonsyncd (subprotocol neonsync.v1).
        case neonsync
        /// libwebsockets-test-server's `lws-mirror-protocol`: every message
        /// goes back to every client of the same mirror instance.
        case lwsMirror = "lws-mirror"
        /// Any server that sends every message to every client (the Python
        /// `websockets` broadcast server in bench/): no subprotocol.
        case raw
    }

    var scenario: BenchScenario
    var server = CommandOption.defaultServer
    var peer = Peer.neonsync
    /// Followers, readers, watchers or connections, by scenario.
    var count: Int
    var editors = 4
    var senders = 1
    /// Events per second (per presenter, reader, editor; in total for relay,
    /// rooms and redis); 0 for relay, rooms and redis: as fast as each
    /// window allows.
    var rate: Double
    var duration: Double = 10
    var size = 64
    /// Messages (relay), scrolls (rooms) or events (redis) in flight with --rate 0.
    var window = 32
    /// Connections (connect) or readers (rooms) per room.
    var perRoom = 100
    /// rooms, churn, redis: how many rooms.
    var rooms = 100
    var room: String?
    /// The room token a server with a secret requires (`--token-file`,
    /// `--token` or `NEONSYNC_TOKEN`); sent in every neonsync hello.
    var token: String?
    /// `--token T` was given: the token is visible in `ps`; warn.
    var tokenOnCommandLine = false
    /// `--server-pid`: the servers (or nodes) to sample.
    var serverPIDs: [Int32] = []
    /// `--redis-pid`: the cluster's redis-servers (its shards) to sample.
    var redisPIDs: [Int32] = []
    /// redis: the cluster's Redis, one endpoint per shard (`--redis`).
    var redis = [RedisEndpoint(host: "127.0.0.1", port: 6379)]
    /// redis: the Redis password (`--redis-password-file`).
    var redisPassword: String?
    /// Handshakes in progress at once while connecting.
    var ramp = 256
    /// Microseconds the client context pauses after each service round.
    var servicePause = 0

    /// A scenario's options before its flags are read: its defaults.
    init(scenario: BenchScenario) {
        self.scenario = scenario
        count = Self.defaultCount(scenario)
        rate = Self.defaultRate(scenario)
        switch scenario {
        case .rooms:
            perRoom = 2
            window = 1
        case .churn:
            rooms = 10_000
        case .redis:
            rooms = 1000
            window = 1
        default:
            break
        }
    }

    static func defaultCount(_ scenario: BenchScenario) -> Int {
        switch scenario {
        case .follow: 100
        case .coread: 50
        case .draft: 100
        case .relay: 500
        case .connect: 1000
        case .rooms, .churn, .redis: 100
        }
    }

    static func defaultRate(_ scenario: BenchScenario) -> Double {
        switch scenario {
        case .follow: 60
        case .coread: 2
        case .draft: 10
        case .relay, .connect, .rooms, .churn, .redis: 0
        }
    }
}
