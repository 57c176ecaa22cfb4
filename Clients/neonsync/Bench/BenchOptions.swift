import NeonClient
import NeonCore
import NeonSystem

/// `neonsync bench SCENARIO` and its flags.
struct BenchOptions {
    enum Scenario: String, CaseIterable {
        case follow, coread, draft, relay, connect, rooms, churn
    }

    /// What the server at `--server` speaks.
    enum Peer: String, CaseIterable {
        /// neonsyncd (subprotocol neonsync.v1).
        case neonsync
        /// libwebsockets-test-server's `lws-mirror-protocol`: every message
        /// goes back to every client of the same mirror instance.
        case lwsMirror = "lws-mirror"
        /// Any server that sends every message to every client (the Python
        /// `websockets` broadcast server in bench/): no subprotocol.
        case raw
    }

    var scenario: Scenario
    var server = CommandOption.defaultServer
    var peer = Peer.neonsync
    /// Followers, readers, watchers or connections, by scenario.
    var count: Int
    var editors = 4
    var senders = 1
    /// Events per second (per presenter, reader, editor; in total for relay);
    /// 0 for relay: as fast as each sender's window allows.
    var rate: Double
    var duration: Double = 10
    var size = 64
    /// Messages (relay) or scrolls (rooms) in flight with --rate 0.
    var window = 32
    /// Connections (connect) or readers (rooms) per room.
    var perRoom = 100
    /// rooms: how many rooms.
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
    /// Handshakes in progress at once while connecting.
    var ramp = 256
    /// Microseconds the client context pauses after each service round.
    var servicePause = 0

    /// Every flag: the table `parse` reads and the help lists.
    static let table = [
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
        OptionSpec("--rate", value: "R", help: "events per second: follow 60, coread 2 per reader, draft 10 per editor, relay 0 (saturate), connect 0 (connections per second; 0 = as fast as accepted), rooms 0 (scrolls per second over all rooms; 0 = saturate)"),
        OptionSpec("--window", value: "W", help: "with --rate 0: relay, messages in flight per sender (default 32); rooms, scrolls in flight per room (default 1)"),
        OptionSpec("--duration", value: "S", help: "seconds of measurement (connect: of holding) (default 10)"),
        OptionSpec("--size", value: "B", help: "relay: bytes per message frame (default 64)"),
        OptionSpec("--rooms", value: "N", help: "rooms: how many rooms (default 100); churn: how many rooms to go through, one reader each (default 10000)"),
        OptionSpec("--per-room", value: "P", help: "connect: connections per room (default 100); rooms: readers per room (default 2)"),
        OptionSpec("--room", value: "R", help: "room name prefix (default bench-PID)"),
        OptionSpec("--server-pid", value: "PID", help: "sample that process's CPU time and RSS (/proc) and report them with the figures; a list PID,PID,… sums them (and gives each one's CPU)"),
        OptionSpec("--redis-pid", value: "PID", help: "cluster runs: sample the cluster's redis-server CPU time; follow and coread report it per broadcast, rooms per event; a list PID,PID,… (one per shard) sums them and gives each one's"),
        OptionSpec("--ramp", value: "K", help: "handshakes in progress at once while connecting (default 256)"),
        OptionSpec("--service-pause", value: "US", help: "microseconds to pause after each round of the client's event loop, so each poll finds more sockets ready (less load-generator CPU, up to US more latency; default 0)"),
        OptionSpec.help(),
    ]

    /// What `neonsync bench --help` prints.
    static var usage: String {
        ([header, "", "OPTIONS:"] + HelpText.table(table.map { ($0.usage, $0.help) }, width: 80) + ["", footer])
            .joined(separator: "\n")
    }

    /// The help above the options: the scenarios.
    static let header = """
    neonsync bench — a load generator for neonsyncd (and, for relay, for other
    WebSocket servers): thousands of connections in one process, latency
    percentiles measured on every delivery

    USAGE:
      neonsync bench follow  [--followers N] [--rate R] [--duration S]
          one presenter scrolls R times a second; N readers follow. Latency:
          the presenter's scroll sent → each follower's progress received
      neonsync bench coread  [--readers N] [--rate R] [--duration S]
          N readers each scroll R times a second; everyone sees everyone
      neonsync bench draft   [--editors E] [--watchers W] [--rate R] [--duration S]
          E editors each edit the shared draft R times a second (one edit in
          flight each); W readers watch. Latency: edit sent → edit received
      neonsync bench relay   [--connections N] [--senders S] [--size B]
                             [--rate R | --window W] [--duration S] [--peer P]
          S of N connections send B-byte messages that the server relays to
          all N (the senders too); R in total per second, or with R = 0 (the
          default) as fast as each sender's window of W messages in flight
          allows. Latency: sent → received, embedded in every message
      neonsync bench connect [--connections N] [--per-room P] [--duration S]
          open N connections (joined as readers, P to a room), then hold them
          idle for S seconds. Latency: connect → welcome
      neonsync bench rooms   [--rooms N] [--per-room P] [--rate R | --window W]
                             [--duration S]
          N rooms of P readers; every event is one member's scroll, broadcast
          to its room. R scrolls a second over all rooms, or with R = 0 (the
          default) W in flight per room: the most events a second the
          servers (and a cluster's Redis) carry. A --server list places each
          room whole on one server. Latency: scroll sent → progress received
      neonsync bench churn   [--rooms N] [--ramp K]
          N rooms, each joined by one reader who leaves once welcomed, K at a
          time: rooms a server takes up and lets go (--room-release); with
          --server-pid its memory before and after. Latency: connect → welcome

    """

    /// The help below the options: the server's limits, the output, the exit statuses.
    static let footer = """
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
      neonsync bench follow --followers 500 --rate 60 --duration 20 --server-pid $(pidof neonsyncd)
    """

    /// Parses the arguments after `bench`; nil when they ask for the help
    /// (`usage`).
    static func parse(_ arguments: [String]) throws(NeonError) -> BenchOptions? {
        var rest = arguments[...]
        guard let first = rest.popFirst() else {
            throw NeonError.usage("bench needs a scenario: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")); see neonsync bench --help")
        }
        if first == "-h" || first == "--help" {
            return nil
        }
        guard let scenario = Scenario(rawValue: first) else {
            throw NeonError.usage("unknown bench scenario \(first); use \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")) (see neonsync bench --help)")
        }
        var options = BenchOptions(scenario: scenario, count: Self.defaultCount(scenario), rate: Self.defaultRate(scenario))
        if scenario == .rooms {
            options.perRoom = 2
            options.window = 1
        }
        if scenario == .churn { options.rooms = 10_000 }
        if let server = ProcessEnvironment()[CommandOption.serverEnvironment] { options.server = server }
        options.token = ProcessEnvironment()[CommandOption.tokenEnvironment]
        var tokenFromFile = false
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(rest, by: table)
        } catch {
            throw NeonError.usage(error.sentence(context: " for neonsync bench \(scenario.rawValue)",
                                                      help: "neonsync bench --help"))
        }
        for argument in read {
            let flag: String, value: String
            switch argument {
            case let .positional(word):
                throw NeonError.usage("unknown option \(word) for neonsync bench \(scenario.rawValue); see neonsync bench --help")
            case let .option(option, nil) where option.flag == "--help":
                return nil
            case let .option(option, given):
                flag = option.flag
                value = given ?? ""
            }
            switch flag {
            case "--server": options.server = value
            case "--token":
                guard !value.isEmpty else { throw NeonError.usage("--token needs a value; see neonsync bench --help") }
                options.token = value
                options.tokenOnCommandLine = true
            case "--token-file":
                do {
                    options.token = try PrivateFile.roomToken(value)
                } catch {
                    throw error.exiting(with: NeonError.usageStatus)
                }
                tokenFromFile = true
            case "--peer":
                guard let peer = Peer(rawValue: value) else {
                    throw NeonError.usage("--peer needs one of \(Peer.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                options.peer = peer
            case "--followers": options.count = try whole(flag, value, for: [.follow], scenario, minimum: 1)
            case "--readers": options.count = try whole(flag, value, for: [.coread], scenario, minimum: 1)
            case "--watchers": options.count = try whole(flag, value, for: [.draft], scenario, minimum: 0)
            case "--connections": options.count = try whole(flag, value, for: [.relay, .connect], scenario, minimum: 1)
            case "--editors": options.editors = try whole(flag, value, for: [.draft], scenario, minimum: 1)
            case "--senders": options.senders = try whole(flag, value, for: [.relay], scenario, minimum: 1)
            case "--window": options.window = try whole(flag, value, for: [.relay, .rooms], scenario, minimum: 1)
            case "--per-room": options.perRoom = try whole(flag, value, for: [.connect, .rooms], scenario, minimum: 1)
            case "--rooms": options.rooms = try whole(flag, value, for: [.rooms, .churn], scenario, minimum: 1)
            case "--ramp": options.ramp = try whole(flag, value, for: Scenario.allCases, scenario, minimum: 1)
            case "--service-pause": options.servicePause = try whole(flag, value, for: Scenario.allCases, scenario, minimum: 0)
            case "--size":
                options.size = try whole(flag, value, for: [.relay], scenario, minimum: 1)
            case "--rate":
                guard let rate = Double(value), rate >= 0, rate.isFinite else {
                    throw NeonError.usage("--rate needs a number of events per second ≥ 0, e.g. --rate 60")
                }
                options.rate = rate
            case "--duration":
                guard let seconds = Double(value), seconds > 0, seconds <= 86_400 else {
                    throw NeonError.usage("--duration needs a number of seconds above 0, e.g. --duration 10")
                }
                options.duration = seconds
            case "--room": options.room = value
            case "--redis-pid":
                options.redisPIDs = try pids(flag, value, example: "$(pidof redis-server | tr ' ' ,)")
            case "--server-pid":
                options.serverPIDs = try pids(flag, value, example: "$(pidof neonsyncd | tr ' ' ,)")
            default:
                throw NeonError.usage("unknown option \(flag) for neonsync bench \(scenario.rawValue); see neonsync bench --help")
            }
        }
        if options.tokenOnCommandLine, tokenFromFile {
            throw NeonError.usage("--token and --token-file both give the token; give one, preferably --token-file FILE")
        }
        if options.rate == 0, [.follow, .coread, .draft].contains(scenario) {
            throw NeonError.usage("--rate must be above 0 for \(scenario.rawValue); e.g. --rate \(Int(defaultRate(scenario)))")
        }
        if options.peer != .neonsync, ![.relay, .connect].contains(scenario) {
            throw NeonError.usage("--peer \(options.peer.rawValue) works with relay and connect only; \(scenario.rawValue) needs neonsyncd")
        }
        if scenario == .relay, options.senders > options.count {
            throw NeonError.usage("--senders (\(options.senders)) cannot exceed --connections (\(options.count))")
        }
        return options
    }

    static func defaultCount(_ scenario: Scenario) -> Int {
        switch scenario {
        case .follow: 100
        case .coread: 50
        case .draft: 100
        case .relay: 500
        case .connect: 1000
        case .rooms, .churn: 100
        }
    }

    static func defaultRate(_ scenario: Scenario) -> Double {
        switch scenario {
        case .follow: 60
        case .coread: 2
        case .draft: 10
        case .relay, .connect, .rooms, .churn: 0
        }
    }

    /// A list of process ids, `PID[,PID…]`.
    private static func pids(_ flag: String, _ value: String, example: String) throws(NeonError) -> [Int32] {
        let pids = value.split(separator: ",", omittingEmptySubsequences: false).map { Int32($0) }
        guard !pids.isEmpty, pids.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw NeonError.usage("\(flag) \(value) is not a list of process ids; give PID or PID,PID,… (commas, no spaces), e.g. \(flag) \(example)")
        }
        return pids.compactMap { $0 }
    }

    private static func whole(_ flag: String, _ value: String, for scenarios: [Scenario], _ scenario: Scenario,
                              minimum: Int) throws(NeonError) -> Int {
        guard scenarios.contains(scenario) else {
            throw NeonError.usage("\(flag) belongs to neonsync bench \(scenarios.map(\.rawValue).joined(separator: " or ")); see neonsync bench --help")
        }
        guard let number = Int(value), number >= minimum, number <= 1_000_000 else {
            throw NeonError.usage("\(flag) needs a whole number from \(minimum) to 1000000, e.g. \(flag) \(max(minimum, 10))")
        }
        return number
    }
}
