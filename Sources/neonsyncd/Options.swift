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
    var access = AccessPolicy(newRoomsPerMinute: 60)
    /// `--max-rooms-per-ip`; nil: a tenth of --max-rooms.
    var maxRoomsPerAddress: Int?
    var idleTimeout: Duration? = .seconds(60)
    var tlsCertificate: String?
    var tlsKey: String?
    var allowedOrigins: [String] = []
    /// `--redis`: the cluster's Redis instances (one, or its shards).
    var redis: [RedisEndpoint]?
    var node: String?
    var redisPasswordFile: String?
    var snapshotEvery = 1000
    var nodeTimeout = 6
    /// `--reuse-port`: several nodes listen on one port (SO_REUSEPORT).
    var reusePort = false
    /// `--room-ttl`; nil when given 0.
    var roomTTL: Duration? = .seconds(30 * 24 * 3600)
    /// `--room-release`; nil when given 0.
    var roomRelease: Duration? = .seconds(300)
    var showHelp = false
    /// `--version`: print the version and the libraries' versions.
    var showVersion = false
    /// `--unix`, `--unix-mode`, `--unix-group` (the group's id).
    var unixSocket: String?
    var unixMode: mode_t = 0o660
    var unixGroup: (name: String, id: gid_t)?

    /// The TLS files, when both flags were given.
    var tls: TLSConfiguration? {
        guard let tlsCertificate, let tlsKey else { return nil }
        return TLSConfiguration(certificatePath: tlsCertificate, privateKeyPath: tlsKey)
    }

    static func parse(_ arguments: [String]) throws(NeonError) -> Options {
        var options = Options()
        let read: [OptionSpec.Argument]
        do {
            read = try OptionSpec.parse(arguments, by: table)
        } catch {
            throw NeonError.usage(error.sentence(help: "neonsyncd --help"))
        }
        for argument in read {
            let flag: String, value: String
            switch argument {
            case let .positional(word):
                throw NeonError.usage("unknown option \(word); see neonsyncd --help")
            case let .option(option, given):
                flag = option.flag
                value = given ?? ""
            }
            switch flag {
            case "--help": options.showHelp = true
            case "--version": options.showVersion = true
            case "--host": options.host = value
            case "--data": options.dataDirectory = value
            case "--log-content": options.logContent = true
            case "--tls-cert": options.tlsCertificate = value
            case "--tls-key": options.tlsKey = value
            case "--allow-origin":
                guard OriginPolicy.normalized(value) != nil else {
                    throw NeonError.usage("--allow-origin \(value) is not an origin; write scheme://host[:port] with no path, e.g. https://app.example.com, or * for every origin")
                }
                options.allowedOrigins.append(value)
            case "--port":
                options.port = try integer(value, flag: flag, range: 0...65535)
            case "--log":
                options.log = value == "-" ? .standardOutput : .file(value)
            case "--log-level":
                guard let level = LogRecord.Level(rawValue: value) else {
                    throw NeonError.usage("--log-level \(value) is not a level; use debug, info, warn or error")
                }
                options.logLevel = level
            case "--max-message": options.maxMessage = try size(value, flag: flag)
            case "--max-document": options.limits.maxDocumentBytes = try size(value, flag: flag)
            case "--max-draft":
                options.limits.maxDraftScalars = try integer(value, flag: flag, range: 1...10_000_000)
            case "--max-members":
                options.limits.maxMembers = try integer(value, flag: flag, range: 1...1_000_000)
            case "--max-rooms":
                options.maxRooms = try integer(value, flag: flag, range: 1...10_000_000)
            case "--max-outbound": options.maxOutbound = try size(value, flag: flag)
            case "--draft-limit":
                options.limits.draftLimit = try integer(value, flag: flag, range: 1...1_000_000)
            case "--secret-file": options.secretFile = value
            case "--unix":
                guard !value.isEmpty, value.utf8.count < 108 else {
                    throw NeonError.usage("--unix \(value) is not a usable socket path; give a path of 1 to 107 bytes, such as /run/neonsync/neonsync.sock")
                }
                options.unixSocket = value
            case "--unix-mode":
                guard let mode = mode_t(value, radix: 8), mode <= 0o777 else {
                    throw NeonError.usage("--unix-mode \(value) is not a mode; give octal permission bits such as 0660 (owner and group) or 0600 (owner only)")
                }
                options.unixMode = mode
            case "--unix-group":
                guard let group = getgrnam(value) else {
                    throw NeonError.usage("--unix-group \(value) is not a group on this host; create it (groupadd \(value)) or name an existing one (see getent group)")
                }
                options.unixGroup = (value, group.pointee.gr_gid)
            case "--redis":
                options.redis = try RedisEndpoint.list(parsing: value)
            case "--node":
                guard !value.isEmpty, value.count <= 64, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
                    throw NeonError.usage("--node \"\(value)\" is not a node name; use 1 to 64 characters without spaces, such as node-a or 10.0.0.5:7681")
                }
                options.node = value
            case "--redis-password-file": options.redisPasswordFile = value
            case "--room-ttl":
                if value == "0" {
                    options.roomTTL = nil
                } else if let seconds = TokenCommand.duration(value) {
                    options.roomTTL = .seconds(seconds)
                } else {
                    throw NeonError.usage("--room-ttl \(value) is not a duration; use e.g. 90s, 12h or 30d (at most 366d), or 0 to keep rooms forever")
                }
            case "--room-release":
                if value == "0" {
                    options.roomRelease = nil
                } else if let seconds = TokenCommand.duration(value) {
                    options.roomRelease = .seconds(seconds)
                } else {
                    throw NeonError.usage("--room-release \(value) is not a duration; use e.g. 90s, 5m or 1h (at most 366d), or 0 to keep every room in memory")
                }
            case "--node-timeout":
                options.nodeTimeout = try integer(value, flag: flag, range: 3...300)
            case "--snapshot-every":
                options.snapshotEvery = try integer(value, flag: flag, range: 10...1_000_000)
            case "--insecure-open": options.insecureOpen = true
            case "--reuse-port": options.reusePort = true
            case "--trust-proxy":
                guard let range = AddressRange(value) else {
                    throw NeonError.usage("--trust-proxy \(value) is not an address; give the IP address of a proxy in front of this server (127.0.0.1, ::1) or a CIDR range of them (10.0.0.0/8, fd00::/8)")
                }
                options.access.proxies.add(range)
            case "--max-rate":
                options.access.rate = Double(try integer(value, flag: flag, range: 0...1_000_000))
            case "--max-burst":
                options.access.burst = Double(try integer(value, flag: flag, range: 1...1_000_000))
            case "--max-new-rooms-per-ip":
                options.access.newRoomsPerMinute = try integer(value, flag: flag, range: 0...1_000_000)
            case "--max-rooms-per-ip":
                options.maxRoomsPerAddress = try integer(value, flag: flag, range: 0...10_000_000)
            case "--max-connections-per-ip":
                options.access.maxConnectionsPerAddress = try integer(value, flag: flag, range: 0...10_000_000)
            case "--hello-timeout":
                let seconds = try integer(value, flag: flag, range: 0...3600)
                options.access.helloTimeout = seconds == 0 ? nil : .seconds(seconds)
            case "--idle-timeout":
                let seconds = try integer(value, flag: flag, range: 0...65535)
                guard seconds != 1 else {
                    throw NeonError.usage("--idle-timeout 1 leaves no time to answer a ping; use 2 or more seconds, or 0 to keep idle connections")
                }
                options.idleTimeout = seconds == 0 ? nil : .seconds(seconds)
            default:
                throw NeonError.usage("unknown option \(flag); see neonsyncd --help")
            }
        }
        if (options.tlsCertificate == nil) != (options.tlsKey == nil) {
            let missing = options.tlsCertificate == nil ? "--tls-cert" : "--tls-key"
            throw NeonError.usage("--tls-cert and --tls-key go together: add \(missing) to serve wss://, or drop the other to serve ws://")
        }
        if options.secretFile == nil, !options.insecureOpen, !isLoopback(options.host) {
            throw NeonError.usage("--host \(options.host) would let anyone who reaches it join any room; give --secret-file FILE to require room tokens, or --insecure-open to serve it open anyway")
        }
        if options.redis == nil, let flag = options.node != nil ? "--node"
            : options.redisPasswordFile != nil ? "--redis-password-file"
            : options.snapshotEvery != 1000 ? "--snapshot-every"
            : options.nodeTimeout != 6 ? "--node-timeout" : nil {
            throw NeonError.usage("\(flag) only applies to a cluster node; add --redis redis://HOST:PORT to join one, or drop \(flag)")
        }
        if options.reusePort {
            guard options.redis != nil else {
                throw NeonError.usage("--reuse-port lets several processes share one port, and without --redis each would keep rooms of its own: people sent to different processes would never meet. Add --redis redis://HOST:PORT to make them nodes of one cluster, or drop --reuse-port")
            }
            guard options.port != 0 else {
                throw NeonError.usage("--reuse-port shares one port between nodes, but --port 0 picks a different free port for each; give the port with --port N")
            }
            guard ["", "*", "localhost"].contains(options.host) || IPAddress(options.host) != nil else {
                throw NeonError.usage("--reuse-port needs --host as an IP address (such as 127.0.0.1, 0.0.0.0 or ::), not \(options.host)")
            }
            guard options.node != nil else {
                throw NeonError.usage("--reuse-port runs several nodes on one HOST:PORT, the default node name, and a cluster refuses two live nodes of one name; give each its own --node NAME (e.g. --node \(Self.hostName())-1)")
            }
        }
        if options.unixSocket == nil, let flag = options.unixMode != 0o660 ? "--unix-mode" : options.unixGroup != nil ? "--unix-group" : nil {
            throw NeonError.usage("\(flag) sets the Unix socket's permissions; add --unix PATH to listen on one, or drop \(flag)")
        }
        if let held = options.maxRoomsPerAddress, held >= options.maxRooms, options.maxRooms > 1 {
            throw NeonError.usage("--max-rooms-per-ip \(held) would let one address fill all \(options.maxRooms) rooms (--max-rooms); give it a number below --max-rooms, or 0 for no limit")
        }
        options.access.maxRoomsPerAddress = options.maxRoomsPerAddress ?? max(options.maxRooms / 10, 1)
        if options.limits.maxDocumentBytes > options.maxMessage {
            throw NeonError.usage("--max-document (\(options.limits.maxDocumentBytes) bytes) is larger than --max-message (\(options.maxMessage) bytes), so no document that large could arrive; raise --max-message")
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

    static func integer(_ text: String, flag: String, range: ClosedRange<Int>) throws(NeonError) -> Int {
        guard let n = Int(text), range.contains(n) else {
            throw NeonError.usage("\(flag) \(text) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return n
    }

    private static func size(_ text: String, flag: String) throws(NeonError) -> Int {
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1024; digits = digits.dropLast()
        case "M", "m": scale = 1024 * 1024; digits = digits.dropLast()
        default: break
        }
        guard let n = Int(digits), n > 0, n <= (1 << 30) / scale else {
            throw NeonError.usage("\(flag) \(text) is not a size; use bytes with an optional K or M suffix, e.g. 4M (at most 1024M)")
        }
        return n * scale
    }
}
