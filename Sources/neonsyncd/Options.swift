import Glibc
import NeonCore
import NeonServer
import NeonTransport

/// neonsyncd's command line: every flag, its default and its help.
struct Options {
    var host = "127.0.0.1"
    var port = 7681
    /// `--threads`: service threads; the cores this process may run on.
    var threads = WebSocketServer.Configuration.availableCores
    /// `--event-loop`: how service threads wait for their sockets.
    var eventLoop = ServiceLoop.epoll
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
    /// `--redis-replicas`; nil: 1 for a Sentinel shard, else 0.
    var redisReplicas: Int?
    /// `--redis-replica-timeout`, in milliseconds.
    var redisReplicaTimeout = 1000
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

    /// Reads the flags by the rows of `rowGroups`, then checks them together.
    static func parse(_ arguments: [String]) throws(NeonError) -> Options {
        var options = Options()
        try OptionRow.read(arguments, by: rows, into: &options,
                           failing: { NeonError.usage($0.sentence(help: "neonsyncd --help")) },
                           positional: { _, word throws(NeonError) in
                               throw NeonError.usage("unknown option \(word); see neonsyncd --help")
                           })
        try options.checkTLSPair()
        try options.checkOpenHost()
        try options.checkClusterFlags()
        try options.checkReusePort()
        try options.checkUnixFlags()
        try options.checkRoomsPerAddress()
        options.access.maxRoomsPerAddress = options.maxRoomsPerAddress ?? max(options.maxRooms / 10, 1)
        try options.checkDocumentFitsMessage()
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
}
