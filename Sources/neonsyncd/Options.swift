import Glibc
import NeonCore
import NeonServer
import NeonTransport

/// neonsyncd's command line: every flag, its default and its help.
struct Options {
    var host = "127.0.0.1"
    var port = 7681
    var log: LogWriter.Destination = .standardOutput
    var logLevel: LogRecord.Level = .info
    var logContent = false
    var maxMessage = 8 * 1024 * 1024
    var limits = RoomLimits()
    var maxRooms = 10_000
    var maxOutbound = 8 * 1024 * 1024
    var dataDirectory = "neonsync-data"
    var secretFile: String?
    var insecureOpen = false
    var access = AccessPolicy()
    var idleTimeout: Duration? = .seconds(60)
    var tlsCertificate: String?
    var tlsKey: String?
    var allowedOrigins: [String] = []
    var redis: RedisEndpoint?
    var node: String?
    var redisPasswordFile: String?
    var snapshotEvery = 1000
    var nodeTimeout = 6
    /// `--reuse-port`: several nodes listen on one port (SO_REUSEPORT).
    var reusePort = false
    /// `--room-ttl`; nil when given 0. `roomTTLGiven` tells an explicit flag.
    var roomTTL: Duration? = .seconds(30 * 24 * 3600)
    var roomTTLGiven = false
    var showHelp = false
    /// `--unix`, `--unix-mode`, `--unix-group` (the group's id).
    var unixSocket: String?
    var unixMode: mode_t = 0o660
    var unixGroup: (name: String, id: gid_t)?

    /// The TLS files, when both flags were given.
    var tls: TLSConfiguration? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return TLSConfiguration(certificatePath: tlsCertificate, privateKeyPath: tlsKey)
    }

    static let help = """
    neonsyncd — the NeonSync live-sync server (WebSocket protocol neonsync.v1)

    USAGE: neonsyncd [options]

    OPTIONS:
      --host ADDR          address to listen on (default 127.0.0.1)
      --port N             TCP port for WebSocket and HTTP, 0 picks a free one
                           (default 7681); the bound port is logged at start
      --data DIR           where rooms, documents and acknowledged drafts are
                           kept (SQLite, WAL); created if missing, mode 700,
                           its files 600; a DIR or store others may read is
                           refused (default ./neonsync-data)
      --tls-cert FILE      serve wss:// (and HTTPS for /healthz and /metrics) on
                           the same port with this PEM certificate chain;
                           needs --tls-key (TLS 1.2 and later only)
      --tls-key FILE       the certificate's PEM private key, unencrypted
      --allow-origin ORIGIN
                           let web pages from ORIGIN (scheme://host[:port],
                           e.g. https://app.example.com) open connections;
                           repeatable; * allows every origin. Handshakes
                           with any other Origin header get 403; programs
                           that send no Origin (the terminal clients) are
                           never affected. Default: no web page may connect
      --unix PATH          also listen on a Unix domain socket at PATH (plain
                           ws://, same protocol; its connections count as
                           one address for --max-connections-per-ip).
                           Members connecting there are named by their
                           login name, shown to everyone as verified,
                           whatever their hello says (tokens still apply
                           with --secret-file). One node only. A stale
                           socket file is replaced; one a server still
                           listens on is refused (exit 1)
      --unix-mode MODE     the socket file's mode, octal (default 0660: the
                           owner and --unix-group may connect)
      --unix-group GROUP   the socket file's group (default: this user's)
      --log FILE|-         append JSON log lines to FILE (made mode 600), or
                           - for standard output (default -)
      --log-level LEVEL    debug, info, warn or error (default info)
      --log-content        also log what people wrote: document text in
                           "document" and the draft's text in "limit" lines
                           (off by default: logs name rooms and readers only)
      --max-message SIZE   largest frame accepted (default 8M); larger frames
                           get error message_too_large and close 1009
      --max-document SIZE  largest document accepted (default 4M)
      --max-draft N        longest shared draft, in characters (default 20000)
      --max-members N      members per room (default 10000)
      --max-rooms N        rooms per server (default 10000)
      --draft-limit N      character limit of new rooms' drafts (default 280)
      --room-ttl T         remove a room, with its document and draft, once
                           it has been empty for T: seconds, or a number with
                           s, m, h or d (default 30d; 0 keeps rooms forever).
                           Each removal is logged (room_expired). One node
                           only: rooms in a cluster's Redis are kept

    CLUSTER (several nodes serve the same rooms; docs/CLUSTER.md):
      --redis URL          redis://HOST:PORT[/DB]: join the cluster whose
                           rooms, documents and draft revisions live in this
                           Redis (run it with appendonly yes, appendfsync
                           always). Without it the server is one node on
                           its embedded SQLite store (--data)
      --node NAME          this node's name in logs, metrics and Redis
                           (default HOST:PORT); two live nodes cannot share
                           a name
      --redis-password-file FILE
                           the Redis password (AUTH), first line of FILE;
                           never on the command line
      --node-timeout S     a node whose heartbeat (every 2 s) stops for S
                           seconds is declared dead and its members leave
                           their rooms (default 6; 3 to 300)
      --snapshot-every N   store a room's whole state in Redis every N
                           events of the room and trim its log below the
                           previous one (default 1000)
      --reuse-port         let several nodes of this host listen on the same
                           --port (SO_REUSEPORT: the kernel spreads new
                           connections over them, so every core serves);
                           each needs its own --node. Needs --redis: without
                           it each process would keep rooms of its own

    ACCESS AND LIMITS:
      --secret-file FILE   require a room token in every hello, signed with
                           this secret (at least 16 bytes, mode 600); mint
                           tokens with neonsyncd token (see below)
      --insecure-open      serve a non-loopback --host without a secret:
                           anyone who reaches the port may join any room
                           (without it, neonsyncd refuses to start that way)
      --max-rate N         messages a second one connection may send on
                           average (default 100, 0 for no limit); over it
                           messages are dropped with error rate_limited and
                           a long run closes the connection (1008)
      --max-burst N        messages one connection may send at once above
                           the rate (default 200)
      --max-connections-per-ip N
                           open connections per client address (default 64,
                           0 for no limit); behind a proxy, give it
                           --trust-proxy so that clients are told apart
      --trust-proxy ADDR   a proxy in front of this server: an IP address or
                           a CIDR range (127.0.0.1, 10.0.0.0/8, fd00::/8);
                           repeatable. For connections from it, the client's
                           address is the one X-Forwarded-For names (without
                           it, Forwarded: for=), read from the right past
                           every trusted proxy; limits and logs use it.
                           From any other address those headers are ignored
      --hello-timeout S    seconds a new connection has to send its hello
                           before error hello_timeout and close 1008
                           (default 10, 0 to wait forever)
      --idle-timeout S     ping a connection silent for S/2 seconds, close it
                           when nothing (not even a pong) came for S
                           (default 60, 0 to keep idle connections)
      --max-outbound SIZE  most message bytes that may wait unsent to one
                           connection (default 8M: two documents of the
                           default --max-document). Position updates replace
                           their unsent predecessor and never pile up; a
                           reader whose backlog of other messages would pass
                           this is closed with 4008 (too slow) and resyncs
                           when it reconnects
      -h, --help           show this help

    neonsyncd token --secret-file FILE --room R --role ROLE [--ttl T]
      prints a room token (the last line of output) admitting room R (* for
      every room) as ROLE (presenter, reader or observer; a presenter token
      also admits readers and observers, a reader token observers) for T
      (e.g. 90s, 30m, 8h, 7d; default 8h). Clients pass it with --token-file FILE.

    SIZE is a number of bytes with an optional K or M suffix (1024-based).
    On the same port GET /healthz answers 200 ok (503 while a cluster node
    cannot reach Redis, when its WebSocket handshakes get 503 too) and
    GET /metrics serves Prometheus metrics. SIGINT/SIGTERM stop the server gracefully (close
    frames, exit 0); SIGHUP reopens the --log file.
    Exit status: 0 stopped, 1 cannot start (port taken, store unusable or
    readable by others, TLS certificate or key missing, unreadable, not PEM
    or not a pair), 2 bad flags.
    Protocol: docs/PROTOCOL.md; log events: docs/LOGS.md.
    """

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws(Problem) -> Options {
        var options = Options()
        var rest = arguments[...]
        func value(for flag: String) throws(Problem) -> String {
            guard let v = rest.popFirst() else {
                throw Problem(description: "\(flag) needs a value; see neonsyncd --help")
            }
            return v
        }
        while let arg = rest.popFirst() {
            var flag = arg
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                flag = String(arg[..<eq])
                rest.insert(String(arg[arg.index(after: eq)...]), at: rest.startIndex)
            }
            switch flag {
            case "-h", "--help": options.showHelp = true
            case "--host": options.host = try value(for: flag)
            case "--data": options.dataDirectory = try value(for: flag)
            case "--log-content": options.logContent = true
            case "--tls-cert": options.tlsCertificate = try value(for: flag)
            case "--tls-key": options.tlsKey = try value(for: flag)
            case "--allow-origin":
                let v = try value(for: flag)
                guard OriginPolicy.normalized(v) != nil else {
                    throw Problem(description: "--allow-origin \(v) is not an origin; write scheme://host[:port] with no path, e.g. https://app.example.com, or * for every origin")
                }
                options.allowedOrigins.append(v)
            case "--port":
                options.port = try integer(try value(for: flag), flag: flag, range: 0...65535)
            case "--log":
                let v = try value(for: flag)
                options.log = v == "-" ? .standardOutput : .file(v)
            case "--log-level":
                let v = try value(for: flag)
                guard let level = LogRecord.Level(rawValue: v) else {
                    throw Problem(description: "--log-level \(v) is not a level; use debug, info, warn or error")
                }
                options.logLevel = level
            case "--max-message": options.maxMessage = try size(try value(for: flag), flag: flag)
            case "--max-document": options.limits.maxDocumentBytes = try size(try value(for: flag), flag: flag)
            case "--max-draft":
                options.limits.maxDraftScalars = try integer(try value(for: flag), flag: flag, range: 1...10_000_000)
            case "--max-members":
                options.limits.maxMembers = try integer(try value(for: flag), flag: flag, range: 1...1_000_000)
            case "--max-rooms":
                options.maxRooms = try integer(try value(for: flag), flag: flag, range: 1...10_000_000)
            case "--max-outbound": options.maxOutbound = try size(try value(for: flag), flag: flag)
            case "--draft-limit":
                options.limits.draftLimit = try integer(try value(for: flag), flag: flag, range: 1...1_000_000)
            case "--secret-file": options.secretFile = try value(for: flag)
            case "--unix":
                let v = try value(for: flag)
                guard !v.isEmpty, v.utf8.count < 108 else {
                    throw Problem(description: "--unix \(v) is not a usable socket path; give a path of 1 to 107 bytes, such as /run/neonsync/neonsync.sock")
                }
                options.unixSocket = v
            case "--unix-mode":
                let v = try value(for: flag)
                guard let mode = mode_t(v, radix: 8), mode <= 0o777 else {
                    throw Problem(description: "--unix-mode \(v) is not a mode; give octal permission bits such as 0660 (owner and group) or 0600 (owner only)")
                }
                options.unixMode = mode
            case "--unix-group":
                let v = try value(for: flag)
                guard let group = getgrnam(v) else {
                    throw Problem(description: "--unix-group \(v) is not a group on this host; create it (groupadd \(v)) or name an existing one (see getent group)")
                }
                options.unixGroup = (v, group.pointee.gr_gid)
            case "--redis":
                let v = try value(for: flag)
                do {
                    options.redis = try RedisEndpoint(parsing: v)
                } catch {
                    throw Problem(description: error.description)
                }
            case "--node":
                let v = try value(for: flag)
                guard !v.isEmpty, v.count <= 64, !v.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
                    throw Problem(description: "--node \"\(v)\" is not a node name; use 1 to 64 characters without spaces, such as node-a or 10.0.0.5:7681")
                }
                options.node = v
            case "--redis-password-file": options.redisPasswordFile = try value(for: flag)
            case "--room-ttl":
                let v = try value(for: flag)
                if v == "0" {
                    options.roomTTL = nil
                } else if let seconds = TokenCommand.duration(v) {
                    options.roomTTL = .seconds(seconds)
                } else {
                    throw Problem(description: "--room-ttl \(v) is not a duration; use e.g. 90s, 12h or 30d (at most 366d), or 0 to keep rooms forever")
                }
                options.roomTTLGiven = true
            case "--node-timeout":
                options.nodeTimeout = try integer(try value(for: flag), flag: flag, range: 3...300)
            case "--snapshot-every":
                options.snapshotEvery = try integer(try value(for: flag), flag: flag, range: 10...1_000_000)
            case "--insecure-open": options.insecureOpen = true
            case "--reuse-port": options.reusePort = true
            case "--trust-proxy":
                let v = try value(for: flag)
                guard let range = AddressRange(v) else {
                    throw Problem(description: "--trust-proxy \(v) is not an address; give the IP address of a proxy in front of this server (127.0.0.1, ::1) or a CIDR range of them (10.0.0.0/8, fd00::/8)")
                }
                options.access.proxies.add(range)
            case "--max-rate":
                options.access.rate = Double(try integer(try value(for: flag), flag: flag, range: 0...1_000_000))
            case "--max-burst":
                options.access.burst = Double(try integer(try value(for: flag), flag: flag, range: 1...1_000_000))
            case "--max-connections-per-ip":
                options.access.maxConnectionsPerAddress = try integer(try value(for: flag), flag: flag, range: 0...10_000_000)
            case "--hello-timeout":
                let seconds = try integer(try value(for: flag), flag: flag, range: 0...3600)
                options.access.helloTimeout = seconds == 0 ? nil : .seconds(seconds)
            case "--idle-timeout":
                let seconds = try integer(try value(for: flag), flag: flag, range: 0...65535)
                guard seconds != 1 else {
                    throw Problem(description: "--idle-timeout 1 leaves no time to answer a ping; use 2 or more seconds, or 0 to keep idle connections")
                }
                options.idleTimeout = seconds == 0 ? nil : .seconds(seconds)
            default:
                throw Problem(description: "unknown option \(arg); see neonsyncd --help")
            }
        }
        if (options.tlsCertificate == nil) != (options.tlsKey == nil) {
            let missing = options.tlsCertificate == nil ? "--tls-cert" : "--tls-key"
            throw Problem(description: "--tls-cert and --tls-key go together: add \(missing) to serve wss://, or drop the other to serve ws://")
        }
        if options.secretFile == nil, !options.insecureOpen, !isLoopback(options.host) {
            throw Problem(description: "--host \(options.host) would let anyone who reaches it join any room; give --secret-file FILE to require room tokens, or --insecure-open to serve it open anyway")
        }
        if options.redis == nil, let flag = options.node != nil ? "--node"
            : options.redisPasswordFile != nil ? "--redis-password-file"
            : options.snapshotEvery != 1000 ? "--snapshot-every"
            : options.nodeTimeout != 6 ? "--node-timeout" : nil {
            throw Problem(description: "\(flag) only applies to a cluster node; add --redis redis://HOST:PORT to join one, or drop \(flag)")
        }
        if options.redis != nil, options.unixSocket != nil {
            throw Problem(description: "--unix serves one node's members under their verified login names; a cluster's nodes cannot vouch for each other's — drop --unix, or run without --redis")
        }
        if options.reusePort {
            guard options.redis != nil else {
                throw Problem(description: "--reuse-port lets several processes share one port, and without --redis each would keep rooms of its own: people sent to different processes would never meet. Add --redis redis://HOST:PORT to make them nodes of one cluster, or drop --reuse-port")
            }
            guard options.port != 0 else {
                throw Problem(description: "--reuse-port shares one port between nodes, but --port 0 picks a different free port for each; give the port with --port N")
            }
            guard ["", "*", "localhost"].contains(options.host) || IPAddress(options.host) != nil else {
                throw Problem(description: "--reuse-port needs --host as an IP address (such as 127.0.0.1, 0.0.0.0 or ::), not \(options.host)")
            }
            guard options.node != nil else {
                throw Problem(description: "--reuse-port runs several nodes on one HOST:PORT, the default node name, and a cluster refuses two live nodes of one name; give each its own --node NAME (e.g. --node \(Self.hostName())-1)")
            }
        }
        if options.redis != nil, options.roomTTLGiven {
            throw Problem(description: "--room-ttl applies to one node's rooms; a cluster's rooms live in Redis and are kept — drop --room-ttl, or run without --redis")
        }
        if options.unixSocket == nil, let flag = options.unixMode != 0o660 ? "--unix-mode" : options.unixGroup != nil ? "--unix-group" : nil {
            throw Problem(description: "\(flag) sets the Unix socket's permissions; add --unix PATH to listen on one, or drop \(flag)")
        }
        if options.limits.maxDocumentBytes > options.maxMessage {
            throw Problem(description: "--max-document (\(options.limits.maxDocumentBytes) bytes) is larger than --max-message (\(options.maxMessage) bytes), so no document that large could arrive; raise --max-message")
        }
        return options
    }

    /// This host's name, for examples in messages.
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "host" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// 127.0.0.0/8, ::1 and localhost: only this machine can connect.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func integer(_ text: String, flag: String, range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw Problem(description: "\(flag) \(text) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    private static func size(_ text: String, flag: String) throws(Problem) -> Int {
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1024; digits = digits.dropLast()
        case "M", "m": scale = 1024 * 1024; digits = digits.dropLast()
        default: break
        }
        guard let n = Int(digits), n > 0, n <= (1 << 30) / scale else {
            throw Problem(description: "\(flag) \(text) is not a size; use bytes with an optional K or M suffix, e.g. 4M (at most 1024M)")
        }
        return n * scale
    }
}
