import NeonCore

extension WriterState {
    /// Whether the beat script's answer says this incarnation is out of
    /// the cluster: survivors reaped it while its key had expired (2), or
    /// another incarnation holds the node's name (-1).
    static func lostMembership(beat reply: RedisReply) -> Bool {
        reply.integer == 2 || reply.integer == -1
    }

    /// The incarnations `HGETALL neonsync:incarnations` lists, but
    /// `generation`: each one's number and node name.
    static func others(in reply: RedisReply, than generation: Int) -> [(generation: String, name: String)] {
        let all = reply.array ?? []
        var others: [(generation: String, name: String)] = []
        var i = 0
        while i + 1 < all.count {
            if let g = all[i].text, let name = all[i + 1].text, g != String(generation) { others.append((g, name)) }
            i += 2
        }
        return others
    }

    /// The incarnations of `others` whose node's liveness key (`live`, the
    /// replies of a `GET` each) no longer names them: dead, to be reaped.
    static func dead(_ others: [(generation: String, name: String)], live: [RedisReply]) -> [String] {
        zip(others, live).filter { $0.1.text != $0.0.generation }.map(\.0.generation)
    }

    /// The rooms the expire script removed, as the node is told of them
    /// (idle since the time it answers, ms, until `now`), and whether it
    /// looked at as many records as it was allowed (`limit`: more may wait).
    static func expired(_ reply: RedisReply, now: Int64, limit: Int) -> (removed: [ClusterDelivery], more: Bool) {
        let flat = reply.array ?? []
        var removed: [ClusterDelivery] = []
        var i = 1
        while i + 1 < flat.count {
            if let room = flat[i].text, let since = flat[i + 1].text.flatMap({ Double($0) }) {
                removed.append(.expired(room: room, idleSeconds: Int((Double(now) - since) / 1000)))
            }
            i += 2
        }
        return (removed, (flat.first?.integer ?? 0) >= limit)
    }
}
