import NeonCore

/// neonsync-bench's flags, each by name so that neonsync-bench can say
/// where its value goes.
extension BenchHelp {
    /// `--server`.
    public static let server = OptionSpec("--server", value: "URL", help: "ws://HOST:PORT/ or unix:PATH of the server (default \(CommandOption.defaultServer), or $\(CommandOption.serverEnvironment)); a list URL1,URL2,… (commas, no spaces) spreads the connections round-robin over the URLs (follow: the presenter on URL1, the followers dealt over all). No failover here: a dropped connection fails the run. Except for connect and rooms (which places each room whole on one URL), every connection joins one room, so the URLs must reach the same rooms: nodes of one cluster (neonsyncd --redis), or one server's several addresses")

    /// `--token-file`.
    public static let tokenFile = OptionSpec("--token-file", value: "FILE", help: "the room token a server with a secret requires: the first line of FILE, which only you may read (chmod 600 FILE); or $\(CommandOption.tokenEnvironment)")

    /// `--token`.
    public static let token = OptionSpec("--token", value: "T", help: "the token on the command line, where other users see it (ps); warns. Prefer --token-file FILE")

    /// `--peer`.
    public static let peer = OptionSpec("--peer", value: "P", help: "what --server speaks: neonsync (default), lws-mirror (libwebsockets-test-server; relay and connect only) or raw (a plain broadcast server, e.g. bench/broadcast_server.py)",
                                         choices: ["neonsync", "lws-mirror", "raw"])

    /// `--followers`.
    public static let followers = OptionSpec("--followers", value: "N", help: "follow: followers (default 100)")

    /// `--readers`.
    public static let readers = OptionSpec("--readers", value: "N", help: "coread: readers (default 50)")

    /// `--editors`.
    public static let editors = OptionSpec("--editors", value: "E", help: "draft: editors (default 4)")

    /// `--watchers`.
    public static let watchers = OptionSpec("--watchers", value: "W", help: "draft: watching readers (default 100)")

    /// `--connections`.
    public static let connections = OptionSpec("--connections", value: "N", help: "relay (default 500), connect (default 1000)")

    /// `--senders`.
    public static let senders = OptionSpec("--senders", value: "S", help: "relay: sending connections (default 1)")

    /// `--rate`.
    public static let rate = OptionSpec("--rate", value: "R", help: "events per second: follow 60, coread 2 per reader, draft 10 per editor, relay 0 (saturate), connect 0 (connections per second; 0 = as fast as accepted), rooms 0 (scrolls per second over all rooms; 0 = saturate), redis 0 (events per second over all rooms; 0 = saturate)")

    /// `--window`.
    public static let window = OptionSpec("--window", value: "W", help: "with --rate 0: relay, messages in flight per sender (default 32); rooms, scrolls in flight per room (default 1); redis, events in flight per room (default 1)")

    /// `--duration`.
    public static let duration = OptionSpec("--duration", value: "S", help: "seconds of measurement (connect: of holding) (default 10)")

    /// `--size`.
    public static let size = OptionSpec("--size", value: "B", help: "relay: bytes per message frame (default 64)")

    /// `--rooms`.
    public static let rooms = OptionSpec("--rooms", value: "N", help: "rooms: how many rooms (default 100); churn: how many rooms to go through, one reader each (default 10000); redis: rooms the events are spread over (default 1000)")

    /// `--per-room`.
    public static let perRoom = OptionSpec("--per-room", value: "P", help: "connect: connections per room (default 100); rooms: readers per room (default 2)")

    /// `--room`.
    public static let room = OptionSpec("--room", value: "R", help: "room name prefix (default bench-PID)")

    /// `--server-pid`.
    public static let serverPID = OptionSpec("--server-pid", value: "PID", help: "sample that process's CPU time and RSS (/proc) and report them with the figures; a list PID,PID,… sums them (and gives each one's CPU)")

    /// `--redis-pid`.
    public static let redisPID = OptionSpec("--redis-pid", value: "PID", help: "cluster runs: sample the cluster's redis-server CPU time; follow and coread report it per broadcast, rooms per event; a list PID,PID,… (one per shard) sums them and gives each one's")

    /// `--redis`.
    public static let redis = OptionSpec("--redis", value: "URL", help: "redis: the cluster's Redis, redis://HOST:PORT[/DB], or the shards' URLs joined by commas as neonsyncd --redis takes them (default redis://127.0.0.1:6379). Use a Redis of its own: the run leaves its rooms' keys behind")

    /// `--redis-password-file`.
    public static let redisPasswordFile = OptionSpec("--redis-password-file", value: "FILE", help: "redis: the Redis password (AUTH), the first line of FILE")

    /// `--ramp`.
    public static let ramp = OptionSpec("--ramp", value: "K", help: "handshakes in progress at once while connecting (default 256)")

    /// `--service-pause`.
    public static let servicePause = OptionSpec("--service-pause", value: "US", help: "microseconds to pause after each round of the client's event loop, so each poll finds more sockets ready (less load-generator CPU, up to US more latency; default 0)")

    /// `--help`.
    public static let showHelp = OptionSpec.help()

    /// Every flag: the table neonsync-bench parses and the help lists.
    public static let table = [
        server, tokenFile, token, peer, followers, readers, editors, watchers, connections, senders, rate, window,
        duration, size, rooms, perRoom, room, serverPID, redisPID, redis, redisPasswordFile, ramp, servicePause,
        showHelp,
    ]
}
