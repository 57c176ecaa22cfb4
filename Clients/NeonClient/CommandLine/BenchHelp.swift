import NeonCore

/// What `neonsync bench` takes: its scenarios. The load itself is
/// neonsync-bench's (Sources/NeonLoad); `neonsync bench` runs it.
public enum BenchScenario: String, CaseIterable, Sendable {
    case follow, coread, draft, relay, connect, rooms, churn, redis
}

/// `neonsync bench`'s command line as `--help`, the man page and the
/// completions show it: the one table neonsync-bench parses, kept here with
/// every other command's so that neonsync documents and completes it
/// whether neonsync-bench is installed or not.
public enum BenchHelp {
    /// The name neonsync runs neonsync-bench under (its argv[0]), which
    /// neonsync-bench then calls itself by in its output and its errors.
    public static let launchedName = "neonsync bench"

    /// The words `neonsync bench` takes first: the scenarios, and `core`.
    public static let words = BenchScenario.allCases.map(\.rawValue) + ["core"]

    /// Every flag: the table neonsync-bench parses and the help lists.
    public static let table = [
        OptionSpec("--server", value: "URL", help: "ws://HOST:PORT/ or unix:PATH of the server (default \(CommandOption.defaultServer), or $\(CommandOption.serverEnvironment)); a list URL1,URL2,… (commas, no spaces) spreads the connections round-robin over the URLs (follow: the presenter on URL1, the followers dealt over all). No failover here: a dropped connection fails the run. Except for connect and rooms (which places each room whole on one URL), every connection joins one room, so the URLs must reach the same rooms: nodes of one cluster (neonsyncd --redis), or one server's several addresses"),
        OptionSpec("--token-file", value: "FILE", help: "the room token a server with a secret requires: the first line of FILE, which only you may read (chmod 600 FILE); or $\(CommandOption.tokenEnvironment)"),
        OptionSpec("--token", value: "T", help: "the token on the command line, where other users see it (ps); warns. Prefer --token-file FILE"),
        OptionSpec("--peer", value: "P", help: "what --server speaks: neonsync (default), lws-mirror (libwebsockets-test-server; relay and connect only) or raw (a plain broadcast server, e.g. bench/broadcast_server.py)"),
        OptionSpec("--followers", value: "N", help: "follow: followers (default 100)"),
        OptionSpec("--readers", value: "N", help: "coread: readers (default 50)"),
        OptionSpec("--editors", value: "E", help: "draft: editors (default 4)"),
        OptionSpec("--watchers", value: "W", help: "draft: watching readers (default 100)"),
        OptionSpec("--connections", value: "N", help: "relay (default 500), connect (default 1000)"),
        OptionSpec("--senders", value: "S", help: "relay: sending connections (default 1)"),
        OptionSpec("--rate", value: "R", help: "events per second: follow 60, coread 2 per reader, draft 10 per editor, relay 0 (saturate), connect 0 (connections per second; 0 = as fast as accepted), rooms 0 (scrolls per second over all rooms; 0 = saturate), redis 0 (events per second over all rooms; 0 = saturate)"),
        OptionSpec("--window", value: "W", help: "with --rate 0: relay, messages in flight per sender (default 32); rooms, scrolls in flight per room (default 1); redis, events in flight per room (default 1)"),
        OptionSpec("--duration", value: "S", help: "seconds of measurement (connect: of holding) (default 10)"),
        OptionSpec("--size", value: "B", help: "relay: bytes per message frame (default 64)"),
        OptionSpec("--rooms", value: "N", help: "rooms: how many rooms (default 100); churn: how many rooms to go through, one reader each (default 10000); redis: rooms the events are spread over (default 1000)"),
        OptionSpec("--per-room", value: "P", help: "connect: connections per room (default 100); rooms: readers per room (default 2)"),
        OptionSpec("--room", value: "R", help: "room name prefix (default bench-PID)"),
        OptionSpec("--server-pid", value: "PID", help: "sample that process's CPU time and RSS (/proc) and report them with the figures; a list PID,PID,… sums them (and gives each one's CPU)"),
        OptionSpec("--redis-pid", value: "PID", help: "cluster runs: sample the cluster's redis-server CPU time; follow and coread report it per broadcast, rooms per event; a list PID,PID,… (one per shard) sums them and gives each one's"),
        OptionSpec("--redis", value: "URL", help: "redis: the cluster's Redis, redis://HOST:PORT[/DB], or the shards' URLs joined by commas as neonsyncd --redis takes them (default redis://127.0.0.1:6379). Use a Redis of its own: the run leaves its rooms' keys behind"),
        OptionSpec("--redis-password-file", value: "FILE", help: "redis: the Redis password (AUTH), the first line of FILE"),
        OptionSpec("--ramp", value: "K", help: "handshakes in progress at once while connecting (default 256)"),
        OptionSpec("--service-pause", value: "US", help: "microseconds to pause after each round of the client's event loop, so each poll finds more sockets ready (less load-generator CPU, up to US more latency; default 0)"),
        OptionSpec.help(),
    ]

    /// The man page's and the completions' entry for `neonsync bench`.
    public static let command = CommandLineSpec.Command(
        name: "bench", synopsis: "neonsync bench SCENARIO [OPTIONS]",
        summary: "a load generator for neonsyncd: thousands of connections in one process, latency percentiles "
            + "measured on every delivery; also what a cluster's Redis carries, and the core's micro-benchmarks. "
            + "SCENARIO is \(words.joined(separator: ", ")). It runs neonsync-bench, found beside neonsync or in "
            + "../libexec/neonsync (the neonsync-bench package)",
        groups: [.init(nil, table)], choices: words)

    /// What `neonsync bench --help` (`program` "neonsync bench") and
    /// `neonsync-bench --help` print.
    public static func usage(program: String) -> String {
        ([header(program), "", "OPTIONS:"] + HelpText.table(table.map { ($0.usage, $0.help) }, width: 80)
            + ["", footer(program)]).joined(separator: "\n")
    }

    /// The help above the options: the scenarios.
    static func header(_ program: String) -> String {
        let indent = String(repeating: " ", count: program.count)
        return """
        \(program) — a load generator for neonsyncd (and, for relay, for other
        WebSocket servers): thousands of connections in one process, latency
        percentiles measured on every delivery

        USAGE:
          \(program) follow  [--followers N] [--rate R] [--duration S]
              one presenter scrolls R times a second; N readers follow. Latency:
              the presenter's scroll sent → each follower's progress received
          \(program) coread  [--readers N] [--rate R] [--duration S]
              N readers each scroll R times a second; everyone sees everyone
          \(program) draft   [--editors E] [--watchers W] [--rate R] [--duration S]
              E editors each edit the shared draft R times a second (one edit in
              flight each); W readers watch. Latency: edit sent → edit received
          \(program) relay   [--connections N] [--senders S] [--size B]
          \(indent)         [--rate R | --window W] [--duration S] [--peer P]
              S of N connections send B-byte messages that the server relays to
              all N (the senders too); R in total per second, or with R = 0 (the
              default) as fast as each sender's window of W messages in flight
              allows. Latency: sent → received, embedded in every message
          \(program) connect [--connections N] [--per-room P] [--duration S]
              open N connections (joined as readers, P to a room), then hold them
              idle for S seconds. Latency: connect → welcome
          \(program) rooms   [--rooms N] [--per-room P] [--rate R | --window W]
          \(indent)         [--duration S]
              N rooms of P readers; every event is one member's scroll, broadcast
              to its room. R scrolls a second over all rooms, or with R = 0 (the
              default) W in flight per room: the most events a second the
              servers (and a cluster's Redis) carry. A --server list places each
              room whole on one server. Latency: scroll sent → progress received
          \(program) churn   [--rooms N] [--ramp K]
              N rooms, each joined by one reader who leaves once welcomed, K at a
              time: rooms a server takes up and lets go (--room-release); with
              --server-pid its memory before and after. Latency: connect → welcome
          \(program) redis   [--redis URL[,URL…]] [--rooms N] [--rate R | --window W]
          \(indent)         [--duration S]
              no server and no WebSockets: scrolls appended to N rooms' logs in a
              cluster's Redis and read back with a node's own writer and reader,
              so that Redis, not the nodes, is the limit: the events a second it
              carries and its CPU per event, per shard. Latency: appended → read
              back
          \(program) core    [reducer|layout|render|highlight]…
              the core's micro-benchmarks, in this process (all four when none is
              named): the room reducer, parsing and layout, a client frame,
              highlighting. Wall-clock figures: build in release mode

        """
    }

    /// The help below the options: the server's limits, the output, the exit statuses.
    static func footer(_ program: String) -> String {
        """
        neonsyncd limits connections per address and messages per connection;
        every bench connection comes from one address, so start it with
        --max-connections-per-ip 0 --max-rate 0 (scripts/bench-compare.sh does).

        OUTPUT: a progress line on standard error while it runs, a table on
        standard output, and as the last line one JSON object with the figures
        (p50_ms, p90_ms, p99_ms, max_ms, delivered, msgs_per_s, ...).
        Exit status: 0 done, 1 the run failed (no server, refused, lost
        connections), 2 bad usage (or a --token-file that group or others can
        read, or that is missing or empty).

        EXAMPLE:
          \(program) follow --followers 500 --rate 60 --duration 20 --server-pid $(pidof neonsyncd)
        """
    }
}
