import Foundation
import NeonCore
import NeonTransport
import Synchronization

/// The NeonSync server: rooms (the NeonCore hub) on a libwebsockets
/// transport. Transport events become hub events; hub outputs become frames
/// (each broadcast encoded once) and log lines. It computes nothing itself.
public final class SyncServer: Sendable {
    /// The server's configuration: each component's own value, built
    /// once (`neonsyncd` builds them from its flags), none a copy of
    /// another's fields.
    public struct Configuration: Sendable {
        /// Where and how it listens: the WebSocket transport's value (its
        /// message and backlog limits are the ones the gateway reports).
        public var transport: WebSocketServer.Configuration
        /// Admission, rooms and their lifetimes: the gateway's value.
        package var gateway: Gateway.Configuration
        /// What one room may hold: the hub's value.
        public var limits: RoomLimits

        package init(transport: WebSocketServer.Configuration = Configuration.defaultTransport, gateway: Gateway.Configuration = .init(),
                     limits: RoomLimits = RoomLimits()) {
            self.transport = transport
            self.gateway = gateway
            self.limits = limits
        }

        /// The transport a server has unless told otherwise: 127.0.0.1:7681,
        /// messages and backlogs up to 8 MiB, idle connections pinged at
        /// 30 s and closed at 60 s, no browser origins.
        package static let defaultTransport = WebSocketServer.Configuration(
            port: 7681, subprotocol: "neonsync.v1", maxMessageSize: 8 * 1024 * 1024, idleTimeout: .seconds(60),
            maxOutboundBytes: 8 * 1024 * 1024)
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
        transport = WebSocketServer(configuration: configuration.transport, delegate: executor)
    }

    /// The gateway a server starts with, in its deployment's `mode`: its
    /// hub holds the rooms `stored` (what one node's store kept; a cluster
    /// node takes its rooms up from Redis), its client ids carry
    /// `incarnation`. It reports the transport's message and backlog limits.
    package static func gateway(_ configuration: Configuration, mode: Gateway.Mode, stored: [StoredRoom],
                                incarnation: Int) -> Gateway {
        let codec = WireCodec()
        // A cluster node's hub holds what its clients take up; the gateway
        // counts its rooms against --max-rooms.
        let hubRooms = if case .cluster = mode { Int.max } else { configuration.gateway.maxRooms }
        let hub = Hub(limits: configuration.limits, maxRooms: hubRooms,
                      restoring: stored.map { RoomSnapshot($0, codec: codec) })
        var settings = configuration.gateway
        settings.incarnation = incarnation
        settings.maxMessageBytes = configuration.transport.maxMessageSize
        settings.maxOutboundBytes = configuration.transport.maxOutboundBytes
        return Gateway(hub: hub, configuration: settings, mode: mode,
            activity: Dictionary(stored.compactMap { room in room.activeMilliseconds.map { (room.name, $0) } },
                                 uniquingKeysWith: { first, _ in first }))
    }

    /// Listens and serves on the transport's service threads; returns once
    /// listening.
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
        let rooms = configuration.gateway
        let every = [deployment.sweepsExpiredRooms ? rooms.roomTTL : nil, rooms.roomRelease].compactMap { $0 }
            .map { min(max(Double($0.components.seconds) / 4, 0.5), 60) }.min()
        let heap = heap
        sweeper.start(every: every ?? 60) {
            transport.execute { context in executor.apply(.event(.sweep), through: context) }
            heap.trimIfDue()
        }
        let fields = [
            LogField("host", .string(configuration.transport.host)), LogField("port", .int(port ?? 0)),
            LogField("threads", .int(configuration.transport.threads)),
            LogField("eventLoop", .string(transport.eventLoop?.rawValue ?? "")),
            LogField("protocol", "neonsync.v1"), LogField("version", .string(BuildStamp.version)),
            LogField("restoredRooms", .int(restoredRooms)),
            LogField("tokens", .bool(configuration.gateway.policy.secret != nil)),
            LogField("tls", .bool(configuration.transport.tls != nil)),
            LogField("origins", .string(configuration.transport.origins.allowed.sorted().joined(separator: " "))),
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
    /// `stop` has finished. Should the service threads end by themselves, it
    /// stops the rest of the server the same way (reason `service`).
    public func waitUntilStopped() {
        transport.waitUntilStopped()
        stop(reason: "service")
    }
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
