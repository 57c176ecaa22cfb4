import NeonCore

extension ClusterDelivery {
    /// The delivery as the gateway takes it, from the Redis `redis`
    /// (`shard` of a cluster of several; nil for one).
    func gatewayEvent(redis: String, shard: Int? = nil) -> GatewayEvent {
        switch self {
        case let .loaded(room, image, entries, applied):
            return .loaded(room: room, image: image, entries: entries, applied: applied)
        case let .entries(room, entries):
            return .ordered(room: room, entries)
        case let .undecodable(room, problem, action):
            return .undecodable(room: room, source: problem.source.rawValue, index: problem.index,
                                reason: problem.reason, action: action)
        case let .expired(room, idleSeconds):
            return .expired(room: room, idleSeconds: idleSeconds)
        case let .removed(room):
            return .removed(room: room)
        case let .failed(client, reason):
            return .unavailable(client: ClientID(client), reason: reason)
        case let .redis(up, reason):
            return .store(up: up, name: redis, reason: reason)
        case let .failover(from, to):
            return .storeFailover(name: redis, from: from, to: to)
        case .lostMembership:
            return .membershipLost(shard: shard)
        }
    }
}
