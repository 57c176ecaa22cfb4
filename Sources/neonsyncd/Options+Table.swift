import NeonCore

extension Options {
    /// Every flag of neonsyncd and where its value goes, in the groups
    /// `--help` and the man page show them: the one table `parse` reads.
    static let rowGroups: [(title: String?, rows: [OptionRow<Options>])] = [
        (nil, servingRows),
        ("CLUSTER (several nodes serve the same rooms; docs/CLUSTER.md)", clusterRows),
        ("ACCESS AND LIMITS", accessRows),
    ]

    private static let servingRows: [OptionRow<Options>] = [
        .value(OptionSpec("--host", value: "ADDR", help: "address to listen on (default 127.0.0.1)"), \.host, .text),
        .value(OptionSpec("--port", value: "N", help: """
            TCP port for WebSocket and HTTP, 0 picks a free one (default 7681); the bound port is logged at start
            """), \.port, .wholeNumber(in: 0...65535)),
        .value(OptionSpec("--threads", value: "N", help: """
            service threads that read and write connections, each serving its share of them while one more \
            thread orders every room's events (default: the cores this process may run on, as its CPU affinity says)
            """), \.threads, .wholeNumber(in: 1...256)),
        .value(OptionSpec("--event-loop", value: "KIND", help: """
            how service threads wait for their sockets: epoll (libev on epoll, a round costs only the ready             sockets) or poll (libwebsockets' own poll() over every socket); default epoll, which falls back             to poll when libwebsockets' libev plug-in (libwebsockets-evlib-ev) is missing
            """), \.eventLoop, eventLoop),
        .value(OptionSpec("--data", value: "DIR", help: """
            where rooms, documents and acknowledged drafts are kept (SQLite, WAL); created if missing, mode 700, \
            its files 600; a DIR or store others may read is refused (default ./neonsync-data)
            """), \.dataDirectory, .text),
        .optional(OptionSpec("--tls-cert", value: "FILE", help: """
            serve wss:// (and HTTPS for /healthz and /metrics) on the same port with this PEM certificate chain; \
            needs --tls-key (TLS 1.2 and later only)
            """), \.tlsCertificate, .text),
        .optional(OptionSpec("--tls-key", value: "FILE", help: "the certificate's PEM private key, unencrypted"), \.tlsKey, .text),
        .each(OptionSpec("--allow-origin", value: "ORIGIN", help: """
            let web pages from ORIGIN (scheme://host[:port], e.g. https://app.example.com) open connections; \
            repeatable; * allows every origin. Handshakes with any other Origin header get 403; programs that \
            send no Origin (the terminal clients) are never affected. Default: no web page may connect
            """), \.allowedOrigins, origin),
        .optional(OptionSpec("--unix", value: "PATH", help: """
            also listen on a Unix domain socket at PATH (plain ws://, same protocol; its connections count as \
            one address for --max-connections-per-ip). Members connecting there are named by their login name, \
            shown to everyone as verified, whatever their hello says (tokens still apply with --secret-file); \
            on a cluster node, on every node. A stale socket file is replaced; one a server still listens on is \
            refused (exit 1)
            """), \.unixSocket, socketPath),
        .value(OptionSpec("--unix-mode", value: "MODE", help: """
            the socket file's mode, octal (default 0660: the owner and --unix-group may connect)
            """), \.unixMode, mode),
        .optional(OptionSpec("--unix-group", value: "GROUP", help: "the socket file's group (default: this user's)"), \.unixGroup, group),
        .value(OptionSpec("--log", value: "FILE|-", help: """
            append JSON log lines to FILE (made mode 600), or - for standard output (default -)
            """), \.log, logDestination),
        .value(OptionSpec("--log-level", value: "LEVEL", help: "debug, info, warn or error (default info)",
                          choices: LogRecord.Level.allCases.map(\.rawValue)), \.logLevel, logLevel),
        .switch(OptionSpec("--log-content", help: """
            also log what people wrote: document text in "document" and the draft's text in "limit" lines \
            (off by default: logs name rooms and readers only)
            """), \.logContent),
        .value(OptionSpec("--max-message", value: "SIZE", help: """
            largest frame accepted (default 8M); larger frames get error message_too_large and close 1009
            """), \.maxMessage, size),
        .value(OptionSpec("--max-document", value: "SIZE", help: "largest document accepted (default 4M)"), \.limits.maxDocumentBytes, size),
        .value(OptionSpec("--max-draft", value: "N", help: "longest shared draft, in characters (default 20000)"), \.limits.maxDraftScalars, .wholeNumber(in: 1...10_000_000)),
        .value(OptionSpec("--max-members", value: "N", help: "members per room (default 10000)"), \.limits.maxMembers, .wholeNumber(in: 1...1_000_000)),
        .value(OptionSpec("--max-rooms", value: "N", help: "rooms per server (default 10000)"), \.maxRooms, .wholeNumber(in: 1...10_000_000)),
        .value(OptionSpec("--draft-limit", value: "N", help: "character limit of new rooms' drafts (default 280)"), \.limits.draftLimit, .wholeNumber(in: 1...1_000_000)),
        .value(OptionSpec("--room-ttl", value: "T", help: """
            remove a room, with its document and draft, once it has been empty for T: seconds, or a number \
            with s, m, h or d (default 30d; 0 keeps rooms forever). Each removal is logged (room_expired). On \
            a cluster node the room is removed from Redis, by whichever node finds it first
            """), \.roomTTL, duration(orZero: "0 to keep rooms forever", examples: "90s, 12h or 30d")),
        .value(OptionSpec("--room-release", value: "T", help: """
            let a room leave memory once nobody on this server has been in it, nor watched it, for T: seconds, \
            or a number with s, m, h or d (default 5m; 0 keeps every room in memory). Nothing is lost: its \
            document and draft stay in the store (SQLite; on a cluster node, Redis: the node unsubscribes) and \
            the next hello reads it back. Logged as room_released and room_restored
            """), \.roomRelease, duration(orZero: "0 to keep every room in memory", examples: "90s, 5m or 1h")),
    ]

    private static let clusterRows: [OptionRow<Options>] = [
        .optional(OptionSpec("--redis", value: "URL", help: """
            redis://HOST:PORT[/DB]: join the cluster whose rooms, documents and draft revisions live in this \
            Redis (run it with appendonly yes, appendfsync always). sentinel://HOST:PORT,HOST:PORT,HOST:PORT/NAME[/DB]: \
            the master the Sentinels monitor as NAME, followed through failovers, with what is kept acked only once \
            a replica has it (--redis-replicas). Several URLs joined by commas spread the \
            rooms over several Redis instances (shards; every node lists the same ones in the same order). \
            Without it the server is one node on its embedded SQLite store (--data)
            """), \.redis, redisEndpoints),
        .optional(OptionSpec("--redis-replicas", value: "N", help: """
            acknowledge an edit, a document or anything else kept only once N replicas of its shard have it \
            (WAIT), and tell nobody of it before (default 1 for a sentinel:// shard, 0 for a redis:// one; 0 to 5)
            """), \.redisReplicas, .wholeNumber(in: 0...5)),
        .value(OptionSpec("--redis-replica-timeout", value: "MS", help: """
            how long to wait for --redis-replicas replicas; past it the sender is answered unavailable and sends \
            again (default 1000; 10 to 60000)
            """), \.redisReplicaTimeout, .wholeNumber(in: 10...60_000)),
        .optional(OptionSpec("--node", value: "NAME", help: """
            this node's name in logs, metrics and Redis (default HOST:PORT); two live nodes cannot share a name
            """), \.node, nodeName),
        .optional(OptionSpec("--redis-password-file", value: "FILE", help: """
            the Redis password (AUTH), first line of FILE; never on the command line
            """), \.redisPasswordFile, .text),
        .value(OptionSpec("--node-timeout", value: "S", help: """
            a node whose heartbeat (every 2 s) stops for S seconds is declared dead and its members leave their \
            rooms (default 6; 3 to 300)
            """), \.nodeTimeout, .wholeNumber(in: 3...300)),
        .value(OptionSpec("--snapshot-every", value: "N", help: """
            store a room's whole state in Redis every N events of the room and trim its log below the previous \
            one (default 1000)
            """), \.snapshotEvery, .wholeNumber(in: 10...1_000_000)),
        .switch(OptionSpec("--reuse-port", help: """
            let several nodes of this host listen on the same --port (SO_REUSEPORT: the kernel spreads new \
            connections over them, so every core serves); each needs its own --node. Needs --redis: without it \
            each process would keep rooms of its own
            """), \.reusePort),
    ]

    private static let accessRows: [OptionRow<Options>] = [
        .optional(OptionSpec("--secret-file", value: "FILE", help: """
            require a room token in every hello, signed with this secret (at least 16 bytes, mode 600); mint \
            tokens with neonsyncd token (see below)
            """), \.secretFile, .text),
        .switch(OptionSpec("--insecure-open", help: """
            serve a non-loopback --host without a secret: anyone who reaches the port may join any room \
            (without it, neonsyncd refuses to start that way)
            """), \.insecureOpen),
        .value(OptionSpec("--max-rate", value: "N", help: """
            messages a second one connection may send on average (default 100, 0 for no limit); over it \
            messages are dropped with error rate_limited and a long run closes the connection (1008)
            """), \.access.rate, ValueParser<Int>.wholeNumber(in: 0...1_000_000).map { Double($0) }),
        .value(OptionSpec("--max-burst", value: "N", help: "messages one connection may send at once above the rate (default 200)"),
               \.access.burst, ValueParser<Int>.wholeNumber(in: 1...1_000_000).map { Double($0) }),
        .value(OptionSpec("--max-connections-per-ip", value: "N", help: """
            open connections per client address (default 64, 0 for no limit); behind a proxy, give it \
            --trust-proxy so that clients are told apart
            """), \.access.maxConnectionsPerAddress, .wholeNumber(in: 0...10_000_000)),
        .value(OptionSpec("--max-new-rooms-per-ip", value: "N", help: """
            new rooms one client address may create a minute, in bursts of up to N (default 60, 0 for no \
            limit); a hello past it gets error too_many_rooms, logged once a burst. Joining an existing room \
            is never limited by it. One node only: a cluster's nodes do not count rooms per address
            """), \.access.newRoomsPerMinute, .wholeNumber(in: 0...1_000_000)),
        .optional(OptionSpec("--max-rooms-per-ip", value: "N", help: """
            rooms one client address may have created and still alive at once (default a tenth of \
            --max-rooms, 0 for no limit; below --max-rooms), so that no address alone fills the server; a \
            hello past it gets error too_many_rooms. One node only
            """), \.maxRoomsPerAddress, .wholeNumber(in: 0...10_000_000)),
        OptionRow(OptionSpec("--trust-proxy", value: "ADDR", help: """
            a proxy in front of this server: an IP address or a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8); \
            repeatable. For connections from it, the client's address is the one X-Forwarded-For names \
            (without it, Forwarded: for=), read from the right past every trusted proxy; limits and logs use \
            it. From any other address those headers are ignored
            """)) { options, flag, text throws(NeonError) in
            options.access.proxies.add(try proxy(flag, text ?? ""))
        },
        .value(OptionSpec("--hello-timeout", value: "S", help: """
            seconds a new connection has to send its hello before error hello_timeout and close 1008 (default \
            10, 0 to wait forever)
            """), \.access.helloTimeout, seconds(in: 0...3600)),
        .value(OptionSpec("--idle-timeout", value: "S", help: """
            ping a connection silent for S/2 seconds, close it when nothing (not even a pong) came for S \
            (default 60, 0 to keep idle connections)
            """), \.idleTimeout, idleTimeout),
        .value(OptionSpec("--max-outbound", value: "SIZE", help: """
            most message bytes that may wait unsent to one connection (default 8M: two documents of the default \
            --max-document). Position updates replace their unsent predecessor and never pile up; a reader \
            whose backlog of other messages would pass this is closed with 4008 (too slow) and resyncs when it \
            reconnects
            """), \.maxOutbound, size),
        .switch(OptionSpec.help(), \.showHelp),
        .switch(OptionSpec("--version", help: """
            print the version, the commit it was built from and the versions of libwebsockets and cmark-gfm it \
            runs with
            """), \.showVersion),
    ]

    /// The groups as help and the man page show them.
    static var groups: [CommandLineSpec.OptionGroup] { rowGroups.map { .init($0.title, $0.rows.map(\.spec)) } }

    /// Every row, in one list.
    static var rows: [OptionRow<Options>] { rowGroups.flatMap(\.rows) }

    /// What neonsyncd says after its flags.
    static let notes = [
        """
        SIZE is a number of bytes with an optional K or M suffix (1024-based). On the same port GET /healthz \
        answers 200 ok (503 while a cluster node cannot reach Redis, when its WebSocket handshakes get 503 too) and \
        GET /metrics serves Prometheus metrics. SIGINT/SIGTERM stop the server gracefully (close frames, exit 0); \
        SIGHUP reopens the --log file.
        """,
        "Protocol: docs/PROTOCOL.md; log events: docs/LOGS.md.",
    ]

    /// Exit statuses, as `--help` ends with them.
    static let exitStatuses: [CommandLineSpec.Entry] = [
        .init("0", "stopped"),
        .init("1", "cannot start (port taken, store unusable or readable by others, TLS certificate or key missing, "
            + "unreadable, not PEM or not a pair)"),
        .init("2", "bad flags"),
    ]

    /// What `neonsyncd --help` prints.
    static var help: String {
        var out = ["neonsyncd — the NeonSync live-sync server (WebSocket protocol neonsync.v1)", "",
                   "USAGE: neonsyncd [options]"]
        for group in groups {
            out += ["", (group.title ?? "OPTIONS") + ":"]
            out += HelpText.table(group.options.map { ($0.usage, $0.help) }, width: 80)
        }
        for command in [TokenCommand.spec, ReshardCommand.spec, CommandLineSpec.generateCommand(program: "neonsyncd")] {
            out += ["", command.synopsis] + HelpText.wrap(command.summary, width: 80, indent: 2)
        }
        let statuses = exitStatuses.map { "\($0.term) \($0.text)" }.joined(separator: ", ")
        out.append("")
        out += HelpText.wrap(notes[0], width: 80, indent: 0)
        out += HelpText.wrap("Exit status: \(statuses).", width: 80, indent: 0)
        out += notes.dropFirst().flatMap { HelpText.wrap($0, width: 80, indent: 0) }
        return out.joined(separator: "\n")
    }
}
