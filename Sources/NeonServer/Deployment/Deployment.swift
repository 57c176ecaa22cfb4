import NeonCore

/// How a server is deployed, chosen once where it starts (`neonsyncd`):
/// one node over its own store, or a node of a cluster whose rooms live in
/// Redis. Each case carries what only it uses; a new backend is one more
/// case (and its folder), not a flag.
public enum Deployment: Sendable {
    /// One node (`--data`): its rooms kept in `store`, committed on a
    /// committer thread (`LocalSequencer`).
    case single(any RoomStore)
    /// A node of a cluster (`--redis`): its rooms' logs in Redis, through
    /// `link`.
    case cluster(ClusterLink)

    /// What the deployment's own resources (the store, the link to Redis)
    /// hold is let go of without serving: for a server that failed to
    /// start.
    public func abandon() {
        switch self {
        case let .single(store): store.close()
        case let .cluster(link): link.stop()
        }
    }
}

/// A deployment as a server runs it: the sequencer the executor hands
/// commands to, and the threads behind it, started, flushed and stopped
/// with the server.
enum DeploymentRun: Sendable {
    case single(LocalSequencer, store: any RoomStore)
    case cluster(ClusterLink)

    /// The rooms the server starts with (a cluster node's come from
    /// Redis as they are asked for), the run's incarnation, and the
    /// gateway's part of the deployment.
    struct Start {
        var stored: [StoredRoom]
        var incarnation: Int
        var mode: Gateway.Mode
    }

    /// Opens what `deployment` needs to serve; reads the stored rooms and
    /// counts this start (one node).
    static func open(_ deployment: Deployment, logger: LogWriter, limits: RoomLimits) throws(NeonError) -> (Self, Start) {
        switch deployment {
        case let .single(store):
            let start = Start(stored: try store.loadRooms(), incarnation: try store.countStart(),
                              mode: .single(RestingRooms()))
            return (.single(LocalSequencer(store: store, logger: logger, limits: limits), store: store), start)
        case let .cluster(link):
            let mode = Gateway.Mode.cluster(ClusterRooms(shards: link.configuration.endpoints.count,
                                                         snapshotEvery: link.configuration.snapshotEvery))
            return (.cluster(link), Start(stored: [], incarnation: link.generation, mode: mode))
        }
    }

    var sequencer: RoomSequencer {
        switch self {
        case let .single(committer, _): .committer(committer)
        case let .cluster(link): .log(link)
        }
    }

    /// Starts the sequencer's threads; `deliver` must hand its value to the
    /// service thread.
    func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        switch self {
        case let .single(committer, _): committer.start(deliver: deliver)
        case let .cluster(link): link.start(deliver: deliver)
        }
    }

    /// Waits until every record handed over is committed and reported (a
    /// cluster's events are durable once ordered: nothing to wait for).
    func flush() {
        if case let .single(committer, _) = self { committer.flush() }
    }

    /// Finishes what was handed over and ends the threads, then closes the
    /// store (one node); says why a cluster node could not leave.
    func stop(logger: LogWriter) {
        switch self {
        case let .single(committer, store):
            committer.stop()
            store.close()
        case let .cluster(link):
            if case let .storeUnreachable(why) = link.stop() {
                // Redis was gone on the way out: the node could not leave.
                logger.log(LogRecord(.error, .redisDown, [
                    LogField("redis", .string(link.configuration.redisList)),
                    LogField("reason", .string("stopped without leaving the cluster (\(why)); its members leave when its heartbeat expires, within --node-timeout")),
                ]))
            }
        }
    }

    /// What the start line says of the deployment.
    var startFields: [LogField] {
        switch self {
        case .single: []
        case let .cluster(link):
            [LogField("redis", .string(link.configuration.redisList)), LogField("generation", .int(link.generation))]
        }
    }

    /// Whether the gateway's sweeps remove rooms past `--room-ttl` (one
    /// node); a cluster's writers expire rooms in Redis.
    var sweepsExpiredRooms: Bool {
        if case .single = self { true } else { false }
    }
}
