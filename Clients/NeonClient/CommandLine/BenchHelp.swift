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
