import Foundation
import NeonCore

/// Moves a stopped cluster's rooms from one list of Redis shards to
/// another (`neonsyncd reshard`): every room whose place changes
/// (`ShardPlacement`) has its keys (counter, reservation, log, image) copied with DUMP
/// and RESTORE to its new shard and deleted from the old one, with its
/// entries in the rooms set, the idle set (`--room-ttl`) and incarnations'
/// room sets; then each shard records its new place, and the first one
/// the incarnation counter. Adding a shard at the end of a list of n moves
/// about 1 / (n + 1) of the rooms, all to the new shard. Refuses while a
/// node is alive (its heartbeat key is there): nodes must be stopped, and
/// started again with the new list. Safe to run again after a failure: a
/// room's keys are deleted from the old shard only once they are on the
/// new one.
public enum ClusterReshard {
    public struct Summary: Sendable {
        /// Rooms on the old shards.
        public var rooms: Int
        /// Rooms whose shard changed (moved, or to be moved on a dry run).
        public var moved: Int
        /// Bytes of DUMP payloads copied.
        public var bytes: Int
        /// Rooms moved to each shard of the new list.
        public var perTarget: [Int]
    }

    /// Moves the rooms of `from` to where `to` places them; `dryRun` only
    /// counts. `progress` hears what it is doing.
    public static func run(from: [RedisEndpoint], to: [RedisEndpoint], password: String?, dryRun: Bool,
                           progress: (String) -> Void = { _ in }) throws(NeonError) -> Summary {
        guard from != to else {
            throw NeonError("--from and --to list the same shards in the same order: nothing would move")
        }
        var connections: [RedisEndpoint: RedisConnection] = [:]
        for endpoint in from + to where connections[endpoint] == nil {
            connections[endpoint] = try RedisConnection(endpoint, password: password, timeout: .seconds(5))
        }
        defer { for connection in connections.values { connection.close() } }
        // Each old shard is where the old list says.
        for (index, endpoint) in from.enumerated() {
            let place = try connections[endpoint]!.command(["GET", ClusterKeys.shard]).text
            let expected = "\(index + 1)/\(from.count)"
            guard place == expected || (place == nil && from.count == 1) else {
                throw NeonError("Redis at \(endpoint) is \(place.map { "shard \($0)" } ?? "no shard of a cluster yet"), not shard \(expected) as --from says: give --from the list the nodes run with, in its order")
            }
        }
        for endpoint in to where !from.contains(endpoint) {
            let place = try connections[endpoint]!.command(["GET", ClusterKeys.shard]).text
            let index = to.firstIndex(of: endpoint)!
            guard place == nil || place == "\(index + 1)/\(to.count)" else {
                throw NeonError("Redis at \(endpoint) is already shard \(place!) of a cluster; a shard to add must be a Redis of its own")
            }
        }
        // Nobody may write meanwhile.
        for endpoint in from {
            if let key = try scan(connections[endpoint]!, match: "neonsync:node:*").first {
                throw NeonError("node \"\(key.dropFirst("neonsync:node:".count))\" is still alive on \(endpoint) (its heartbeat key is there): stop every node first; a stopped node's key expires within its --node-timeout")
            }
        }
        var summary = Summary(rooms: 0, moved: 0, bytes: 0, perTarget: Array(repeating: 0, count: to.count))
        for (index, endpoint) in from.enumerated() {
            let source = connections[endpoint]!
            let rooms = try scan(source, match: "neonsync:{*}:n").compactMap(room(ofCounter:))
            summary.rooms += rooms.count
            let incarnations = try source.command(["HGETALL", ClusterKeys.incarnations]).array?.compactMap(\.text) ?? []
            progress("\(endpoint) (shard \(index + 1) of \(from.count)): \(rooms.count) rooms")
            for room in rooms {
                let target = ShardPlacement.shard(of: room, count: to.count)
                guard to[target] != endpoint else { continue }
                summary.moved += 1
                summary.perTarget[target] += 1
                if dryRun { continue }
                summary.bytes += try move(room, from: source, to: connections[to[target]]!, incarnations: incarnations)
            }
        }
        if !dryRun {
            try settle(from: from, to: to, connections: connections)
        }
        return summary
    }

    /// Copies `room`'s keys and memberships to `target`, then removes them
    /// from `source`; returns the bytes copied.
    private static func move(_ room: String, from source: RedisConnection, to target: RedisConnection,
                             incarnations: [String]) throws(NeonError) -> Int {
        let keys = [ClusterKeys.counter(room), ClusterKeys.reserved(room), ClusterKeys.run(room), ClusterKeys.log(room),
                    ClusterKeys.snapshot(room)]
        let dumps = try source.pipeline(keys.map { ["DUMP", $0] })
        // DUMP payloads are binary: RESTORE them byte for byte.
        var restores: [[[UInt8]]] = []
        for (key, dump) in zip(keys, dumps) {
            guard case let .string(payload) = dump else { continue }
            restores.append([Array("RESTORE".utf8), Array(key.utf8), Array("0".utf8), payload, Array("REPLACE".utf8)])
        }
        let restored = try target.pipeline(bytes: restores)
        if let failure = restored.first(where: { if case .error = $0 { true } else { false } }) {
            throw NeonError("Redis refused to restore room \(room)'s keys: \(failure)")
        }
        let bytes = restores.reduce(0) { $0 + $1[3].count }
        // Its memberships.
        var reads: [[String]] = [["SISMEMBER", ClusterKeys.rooms, room], ["ZSCORE", ClusterKeys.idle, room],
                                 ["HGET", ClusterKeys.idleEntry, room]]
        var pairs: [(generation: String, name: String)] = []
        var i = 0
        while i + 1 < incarnations.count {
            pairs.append((incarnations[i], incarnations[i + 1]))
            reads.append(["SISMEMBER", ClusterKeys.incarnationRooms(Int(incarnations[i]) ?? 0), room])
            i += 2
        }
        let found = try source.pipeline(reads)
        var writes: [[String]] = []
        var removals: [[String]] = [["DEL"] + keys]
        if found[0].integer == 1 {
            writes.append(["SADD", ClusterKeys.rooms, room])
            removals.append(["SREM", ClusterKeys.rooms, room])
        }
        if let score = found[1].text, let entry = found[2].text {
            writes += [["ZADD", ClusterKeys.idle, score, room], ["HSET", ClusterKeys.idleEntry, room, entry]]
            removals += [["ZREM", ClusterKeys.idle, room], ["HDEL", ClusterKeys.idleEntry, room]]
        }
        for (pair, member) in zip(pairs, found.dropFirst(3)) where member.integer == 1 {
            let set = ClusterKeys.incarnationRooms(Int(pair.generation) ?? 0)
            writes += [["HSET", ClusterKeys.incarnations, pair.generation, pair.name], ["SADD", set, room]]
            removals.append(["SREM", set, room])
        }
        if !writes.isEmpty { _ = try target.pipeline(writes) }
        _ = try source.pipeline(removals)
        return bytes
    }

    /// Every shard of `to` records its place; a shard left out of `to` no
    /// longer has one; the first shard of `to` hands out incarnations from
    /// past every number handed out before.
    private static func settle(from: [RedisEndpoint], to: [RedisEndpoint],
                               connections: [RedisEndpoint: RedisConnection]) throws(NeonError) {
        var generation = 0
        for endpoint in from {
            generation = max(generation, try connections[endpoint]!.command(["GET", ClusterKeys.generation]).integer ?? 0)
        }
        for endpoint in from where !to.contains(endpoint) {
            try connections[endpoint]!.command(["DEL", ClusterKeys.shard])
        }
        for (index, endpoint) in to.enumerated() {
            try connections[endpoint]!.command(["SET", ClusterKeys.shard, "\(index + 1)/\(to.count)"])
        }
        let first = connections[to[0]]!
        if (try first.command(["GET", ClusterKeys.generation]).integer ?? 0) < generation {
            try first.command(["SET", ClusterKeys.generation, String(generation)])
        }
    }

    /// Every key matching `pattern` (SCAN, so Redis is never blocked long).
    private static func scan(_ redis: RedisConnection, match pattern: String) throws(NeonError) -> [String] {
        var cursor = "0"
        var keys: [String] = []
        repeat {
            let reply = try redis.command(["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"])
            guard let parts = reply.array, parts.count == 2, let next = parts[0].text else {
                throw NeonError("Redis answered SCAN with \(reply)")
            }
            cursor = next
            keys += parts[1].array?.compactMap(\.text) ?? []
        } while cursor != "0"
        return keys
    }

    /// The room of a counter key `neonsync:{room}:n`.
    private static func room(ofCounter key: String) -> String? {
        guard key.hasPrefix("neonsync:{"), key.hasSuffix("}:n") else { return nil }
        return String(key.dropFirst("neonsync:{".count).dropLast("}:n".count))
    }
}
