import Glibc
import NeonCore
import NeonServer
import NeonSystem
import NeonTransport

/// neonsyncd: flags → configuration → serve until SIGINT/SIGTERM.
enum Daemon {
    /// Runs the daemon and returns its exit status: 0 after a graceful
    /// stop or --help, 1 when the server cannot start, 2 for bad flags.
    /// Every error it ends with is printed the one way, `NeonError.report`.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "token" {
            return TokenCommand.run(Array(arguments.dropFirst()))
        }
        if arguments.first == "reshard" {
            return ReshardCommand.run(Array(arguments.dropFirst()))
        }
        do {
            return try serve(arguments)
        } catch {
            return error.report(as: "neonsyncd")
        }
    }

    /// Parses the flags, starts the server and serves until it is stopped.
    private static func serve(_ arguments: [String]) throws(NeonError) -> Int32 {
        // Before any thread starts: every thread inherits the block, and the
        // signal thread alone takes these signals (`SignalThread`).
        SignalThread.blockStopSignals()
        if arguments.first == "generate" {
            switch Options.spec.generated(Array(arguments.dropFirst()), version: BuildStamp.version, date: BuildStamp.date) {
            case let .text(text):
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                return 0
            case let .problem(sentence):
                throw NeonError.usage(sentence)
            }
        }
        var options = try Options.parse(arguments)
        if options.showHelp {
            print(Options.help)
            return 0
        }
        if options.showVersion {
            print(BuildStamp.versionText(program: "neonsyncd", libwebsockets: WebSocketLibrary.version))
            return 0
        }
        if let file = options.secretFile {
            do {
                options.access.secret = try TokenSecret.load(path: file)
            } catch {
                throw error.at("--secret-file").exiting(with: NeonError.usageStatus)
            }
        }
        var cluster: ClusterConfiguration?
        if let endpoints = options.redis {
            var password: String?
            if let file = options.redisPasswordFile {
                do {
                    password = try RedisPassword.load(path: file)
                } catch {
                    throw error.at("--redis-password-file").exiting(with: NeonError.usageStatus)
                }
            }
            cluster = ClusterConfiguration(endpoints: endpoints, password: password,
                                           node: options.node ?? "\(options.host):\(options.port)",
                                           heartbeat: .seconds(min(2, options.nodeTimeout / 3)),
                                           ttl: .seconds(options.nodeTimeout), snapshotEvery: options.snapshotEvery,
                                           roomTTL: options.roomTTL, replicas: options.redisReplicas,
                                           replicaTimeout: .milliseconds(options.redisReplicaTimeout))
        }
        let logger: LogWriter
        do {
            logger = try LogWriter(destination: options.log, minimumLevel: options.logLevel, includeContent: options.logContent,
                                   node: cluster?.node)
        } catch {
            throw error.exiting(with: NeonError.usageStatus)
        }
        // libwebsockets' own lines go into the JSON log (debug), never raw to
        // the terminal: the operator reads one sentence per problem.
        TransportLog.route(.quiet) { level, line in
            let name = level.contains(.error) ? "error" : level.contains(.warning) ? "warn" : "notice"
            logger.log(LogRecord(.debug, .lws, [LogField("severity", .string(name)), LogField("line", .string(line))]))
        }
        // Handled before the server starts: a stop asked for while it starts
        // (its start line may already be out) waits until it has started.
        let stops = StopGate()
        installSignalHandlers(stops: stops, logger: logger)
        let server: SyncServer
        var link: ClusterLink?
        if let cluster {
            do {
                link = try ClusterLink(cluster)
            } catch {
                let failure = NeonError(error)
                logger.log(LogRecord(.error, .startFailed, [LogField("error", .string(failure.description))]))
                throw failure
            }
        }
        if let path = options.unixSocket {
            do {
                try UnixSocketFile.clearStale(path)
            } catch {
                throw error.at("--unix")
            }
        }
        // The one choice of mode: a node of a cluster on Redis, or one node
        // over its SQLite store.
        let deployment: Deployment
        if let link {
            deployment = .cluster(link)
        } else {
            try SQLiteStore.checkPrivate(directory: options.dataDirectory)
            deployment = .single(try SQLiteStore(directory: options.dataDirectory))
        }
        do throws(NeonError) {
            server = try SyncServer(
                configuration: .init(
                    transport: .init(host: options.host, port: options.port, maxMessageSize: options.maxMessage,
                                     tls: options.tls, idleTimeout: options.idleTimeout,
                                     origins: OriginPolicy(allowing: options.allowedOrigins),
                                     maxOutboundBytes: options.maxOutbound, unixSocketPath: options.unixSocket,
                                     sharesPort: options.reusePort, threads: options.threads,
                                     eventLoop: options.eventLoop),
                    gateway: .init(policy: options.access, maxRooms: options.maxRooms, roomTTL: options.roomTTL,
                                   roomRelease: options.roomRelease),
                    limits: options.limits),
                logger: logger, deployment: deployment)
            // The socket file is made owner-only, then opened up to --unix-mode.
            let umaskBefore = umask(0o077)
            defer { umask(umaskBefore) }
            try server.start()
        } catch {
            deployment.abandon()
            throw error
        }
        if let path = options.unixSocket {
            do {
                try UnixSocketFile.setPermissions(path, mode: options.unixMode, group: options.unixGroup)
            } catch {
                server.stop(reason: "unix socket")
                throw error.at("--unix")
            }
        }
        // From here SIGINT and SIGTERM stop the server on the signal thread
        // (`SyncServer.stop`, the one way it stops), and the main thread
        // waits for that stop to finish.
        stops.serve(server)
        StandardStreams.write("neonsyncd: listening on \(options.tls == nil ? "ws" : "wss")://\(urlHost(options.host)):\(server.port ?? options.port)/ "
                              + "(\(cluster.map { "cluster \($0.redisList), node \($0.node)" } ?? "data \(options.dataDirectory)"))"
                              + (options.unixSocket.map { " and on the Unix socket \($0)" } ?? "") + "\n", to: STDERR_FILENO)
        server.waitUntilStopped()
        return 0
    }

    /// SIGINT/SIGTERM stop gracefully; SIGHUP reopens the log file.
    private static func installSignalHandlers(stops: StopGate, logger: LogWriter) {
        signal(SIGPIPE, SIG_IGN)
        SignalThread.start { number in
            switch number {
            case SIGINT:
                stops.request("SIGINT")
            case SIGTERM:
                stops.request("SIGTERM")
            default:
                do throws(NeonError) {
                    try logger.reopen()
                    logger.log(LogRecord(.info, .logReopened, [LogField("reason", .string("SIGHUP"))]))
                } catch {
                    _ = error.report(as: "neonsyncd")
                }
            }
        }
    }

    /// An address as it goes in a URL (IPv6 in brackets).
    private static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
