import NeonCore
import NeonTransportCore

/// What the gateway is told: the transport's connection events, and what
/// the room sequencer hands back.
package enum GatewayEvent: Sendable {
    /// `verifiedName`: the peer's login name, on the Unix socket;
    /// `forwarding`: the handshake's proxy headers, believed only from a
    /// trusted proxy.
    case connected(ConnectionID, peer: String, verifiedName: String? = nil, forwarding: ForwardingHeaders? = nil)
    case received(WebSocketMessage, from: ConnectionID)
    case rejected(InboundRejection, from: ConnectionID)
    case timer(ConnectionID)
    case disconnected(ConnectionID, WebSocketClose)
    /// A room's next events, in the room's order: apply them.
    case ordered(room: String, [RoomEntry])
    /// The room as the sequencer holds it (its image, nil for a new room,
    /// and the events after it): take it up, replacing any copy.
    /// Entries up to `applied` were applied before (the room is taken up
    /// again with its history intact): they rebuild it without being sent.
    case loaded(room: String, image: RoomImage?, entries: [RoomEntry], applied: Int = 0)
    /// One node: resting rooms read back from the store, built off the
    /// service thread (their documents parsed); `missing` were not there.
    case restored([RoomState], missing: [String])
    /// Cluster: something read back from Redis for `room` (an entry, or its
    /// image) could not be decoded: `source` (publish, log, image), the
    /// entry's number when known, why, and what the node did about it.
    case undecodable(room: String, source: String, index: Int?, reason: String, action: String)
    /// Cluster: this node removed `room` from Redis, empty and idle past
    /// `--room-ttl`.
    case expired(room: String, idleSeconds: Int)
    /// Cluster: `room` was removed from Redis (by any node): the replica
    /// goes; a hello later starts it anew.
    case removed(room: String)
    /// An event of `client` could not be ordered (the store is away).
    case unavailable(client: ClientID, reason: String)
    /// The sequencer's store (a Redis of the cluster, `name`) went away or
    /// came back.
    case store(up: Bool, name: String, reason: String)
    /// The Sentinels of a Redis of the cluster (`name`) promoted another
    /// master (`HOST:PORT`; `from` nil when not known).
    case storeFailover(name: String, from: String?, to: String)
    /// This node was dropped from the cluster while cut off (from the
    /// Redis that is `shard` of several; nil: the only one): its members in
    /// that Redis's rooms are gone everywhere, so their connections start over.
    case membershipLost(shard: Int? = nil)
    /// Time to remove rooms empty and idle past `--room-ttl`.
    case sweep

    /// `forwarding`: the proxy headers of a connection's handshake.
    init(_ event: ServerEvent, forwarding: ForwardingHeaders? = nil) {
        switch event {
        case let .connected(connection, peer, uid):
            self = .connected(connection, peer: peer, verifiedName: uid.map(LoginName.of), forwarding: forwarding)
        case let .received(message, connection): self = .received(message, from: connection)
        case let .rejected(rejection, connection): self = .rejected(rejection, from: connection)
        case let .timer(connection): self = .timer(connection)
        case let .disconnected(connection, close): self = .disconnected(connection, close)
        }
    }
}

/// The times the gateway needs, read once per event by the executor.
struct GatewayClock: Sendable {
    /// Monotonic, for rate limits.
    var monotonic: Duration
    /// The hub's clock (see `Executor.hubTime`).
    var hub: Duration
    /// Wall-clock nanoseconds since 1970: token expiry, cluster lag.
    var wallNanoseconds: Int64
}
