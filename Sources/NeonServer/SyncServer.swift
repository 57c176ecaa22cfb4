import Foundation
import NeonCore
import NeonTransport
import Synchronization

/// The NeonSync server: rooms (the NeonCore hub) on a libwebsockets
/// transport. Transport events become hub events; hub outputs become frames
/// (each broadcast encoded once) and log lines. It computes nothing itself.
public final class SyncServer: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var maxMessageBytes: Int
        public var limits: RoomLimits
        public var maxRooms: Int
        /// Room tokens and per-connection limits.
        public var access: AccessPolicy
        /// Ping idle connections at half of it, close them after it; nil never.
        public var idleTimeout: Duration?
        /// Certificate and key to serve wss:// and HTTPS; `nil` for ws://.
        public var tls: TLSConfiguration?
        /// Which browser origins may open connections (none by default).
        public var origins: OriginPolicy
        /// Most bytes that may wait unsent to one connection before it is
        /// closed with 4008 (too slow); see `WebSocketServer.Configuration`.
        public var maxOutboundBytes: Int
        /// An empty room idle this long is removed with its document and
        /// draft; nil never (one node only).
        public var roomTTL: Duration?
        /// An empty room idle this long leaves memory and lives on in the
        /// store until someone joins it again; nil keeps rooms in memory.
        public var roomRelease: Duration?
        /// A Unix domain socket to listen on as well; its members' names are
        /// their login names, shown as verified.
        public var unixSocketPath: String?
        /// Other processes may listen on the same port (SO_REUSEPORT);
        /// the kernel spreads new connections over them.
        public var reusePort: Bool

        public init(host: String = "127.0.0.1", port: Int = 7681, maxMessageBytes: Int = 8 * 1024 * 1024,
                    limits: RoomLimits = RoomLimits(), maxRooms: Int = 10_000,
                    access: AccessPolicy = AccessPolicy(), idleTimeout: Duration? = .seconds(60),
                    tls: TLSConfiguration? = nil, origins: OriginPolicy = .noBrowsers,
                    maxOutboundBytes: Int = 8 * 1024 * 1024, roomTTL: Duration? = nil,
                    unixSocketPath: String? = nil, reusePort: Bool = false, roomRelease: Duration? = nil) {
            self.roomRelease = roomRelease
            self.unixSocketPath = unixSocketPath
            self.reusePort = reusePort
            self.roomTTL = roomTTL
            self.host = host; self.port = port; self.maxMessageBytes = maxMessageBytes
            self.limits = limits; self.maxRooms = maxRooms
            self.access = access; self.idleTimeout = idleTimeout
            self.tls = tls; self.origins = origins; self.maxOutboundBytes = maxOutboundBytes
        }
    }

    public let configuration: Configuration
    /// How many rooms came back from the store at start.
    public let restoredRooms: Int
    private let executor: Executor
    /// One node's committer over its store, or a cluster node's link.
    private let deployment: DeploymentRun
    private let logger: LogWriter
    private let transport: WebSocketServer
    /// Asks for sweeps: rooms idle past `roomTTL` go (one node), those
    /// unused for `--room-release` leave memory.
    private let sweeper = RoomSweeper()
    /// Hands freed heap back to the system after bursts (on the sweep timer).
    private let heap = HeapTrimmer()
    /// The one stop: run by the first `stop`, waited for by the others.
    private let stopping = StopOnce()

    /// A server deployed as `deployment`: one node with the rooms its
    /// store kept, or a node of a cluster, whose rooms live in Redis.
    public init(configuration: Configuration, logger: LogWriter, deployment: Deployment) throws(NeonError) {
        self.configuration = configuration
        let (run, start) = try DeploymentRun.open(deployment, logger: logger, limits: configuration.limits)
        self.deployment = run
        restoredRooms = start.stored.count
        let gateway = Self.gateway(configuration, mode: start.mode, stored: start.stored, incarnation: start.incarnation)
        self.logger = logger
        executor = Executor(gateway: gateway, logger: logger, sequencer: run.sequencer)
        transport = WebSocketServer(
            configuration: .init(host: configuration.host, port: configuration.port,
                                 subprotocol: "neonsync.v1", maxMessageSize: configuration.maxMessageBytes,
                                 tls: configuration.tls, idleTimeout: configuration.idleTimeout,
                                 origins: configuration.origins, maxOutboundBytes: configuration.maxOutboundBytes,
                                 unixSocketPath: configuration.unixSocketPath, sharesPort: configuration.reusePort),
            delegate: executor)
    }

    /// The gateway a server starts with, in its deployment's `mode`: its
    /// hub holds the rooms `stored` (what one node's store kept; a cluster
    /// node takes its rooms up from Redis), its client ids carry
    /// `incarnation`.
    package static func gateway(_ configuration: Configuration, mode: Gateway.Mode, stored: [StoredRoom],
                                incarnation: Int) -> Gateway {
        let codec = WireCodec()
        // A cluster node's hub holds what its clients take up; the gateway
        // counts its rooms against --max-rooms.
        let hubRooms = if case .cluster = mode { Int.max } else { configuration.maxRooms }
        let hub = Hub(limits: configuration.limits, maxRooms: hubRooms,
                      restoring: stored.map { RoomSnapshot($0, codec: codec) })
        return Gateway(hub: hub, configuration: .init(
            policy: configuration.access, maxRooms: configuration.maxRooms, incarnation: incarnation,
            maxOutboundBytes: configuration.maxOutboundBytes,
            roomTTL: configuration.roomTTL, roomRelease: configuration.roomRelease,
            maxMessageBytes: configuration.maxMessageBytes),
            mode: mode,
            activity: Dictionary(stored.compactMap { room in room.activeMilliseconds.map { (room.name, $0) } },
                                 uniquingKeysWith: { first, _ in first }))
    }

    /// Listens and serves on a service thread; returns once listening.
    public func start() throws(NeonError) {
        do {
            try transport.start()
        } catch {
            logger.log(LogRecord(.error, .startFailed, [LogField("error", .string(error.description))]))
            throw NeonError(error)
        }
        let transport = transport
        let executor = executor
        deployment.start { delivery in
            transport.execute { context in executor.apply(delivery, through: context) }
        }
        // Idle rooms past --room-ttl go (one node), those past
        // --room-release leave memory; what the room quota remembers of
        // addresses goes a minute after their last new room.
        let every = [deployment.sweepsExpiredRooms ? configuration.roomTTL : nil, configuration.roomRelease].compactMap { $0 }
            .map { min(max(Double($0.components.seconds) / 4, 0.5), 60) }.min()
        let heap = heap
        sweeper.start(every: every ?? 60) {
            transport.execute { context in executor.apply(.event(.sweep), through: context) }
            heap.trimIfDue()
        }
        let fields = [
            LogField("host", .string(configuration.host)), LogField("port", .int(port ?? 0)),
            LogField("protocol", "neonsync.v1"), LogField("version", .string(NeonSyncVersion.current)),
            LogField("restoredRooms", .int(restoredRooms)),
            LogField("tokens", .bool(configuration.access.secret != nil)),
            LogField("tls", .bool(configuration.tls != nil)),
            LogField("origins", .string(configuration.origins.allowed.sorted().joined(separator: " "))),
        ] + deployment.startFields
        logger.log(LogRecord(.info, .start, fields))
    }

    /// The bound port (the ephemeral one when configured with 0).
    public var port: Int? { transport.port }

    /// Stops gracefully: what was acknowledged is committed and its acks
    /// queued, close frames (1001) go to everyone, then the store's or
    /// Redis's threads finish and one node's store closes; returns then. The one way the server stops:
    /// safe from any thread, any number of times, at once; the first call
    /// stops it (and logs `stop` with its `reason`), every other returns
    /// once that stop has finished.
    public func stop(reason: String = "stop") {
        stopping.run {
            logger.log(LogRecord(.info, .stop, [LogField("reason", .string(reason))]))
            sweeper.stop()
            deployment.flush()
            transport.stop()
            deployment.stop(logger: logger)
        }
    }

    /// Blocks until the server has stopped, its commits included: until a
    /// `stop` has finished. Should the service thread end by itself, it
    /// stops the rest of the server the same way (reason `service`).
    public func waitUntilStopped() {
        transport.waitUntilStopped()
        stop(reason: "service")
    }
}

public enum NeonSyncVersion {
    public static let current = "0.1.0"
}

/// A server's one stop: the first caller of `run` performs it; every other
/// caller, at the same time or later, returns once it has been performed.
///
/// `@unchecked Sendable`: `phase` is guarded by `condition`; the stop
/// itself runs outside it, on the first caller's thread.
final class StopOnce: @unchecked Sendable {
    private enum Phase {
        case serving, stopping, stopped
    }

    private let condition = NSCondition()
    private var phase = Phase.serving

    /// Runs `stop` if no caller has before; else waits until it has run.
    func run(_ stop: () -> Void) {
        condition.lock()
        guard phase == .serving else {
            while phase != .stopped { condition.wait() }
            condition.unlock()
            return
        }
        phase = .stopping
        condition.unlock()
        stop()
        condition.lock()
        phase = .stopped
        condition.broadcast()
        condition.unlock()
    }
}
