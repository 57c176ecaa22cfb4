import Foundation
import Glibc
import NeonCore
import NeonLock

/// A node's link to the cluster's Redis instances (one or more shards, each
/// holding the rooms `ShardPlacement` gives it): for each shard a writer
/// thread appends the events of its clients to their rooms' logs, and a
/// reader thread reads the logs of the rooms it holds back in order,
/// handing everything to the service thread through `deliver`. A shard
/// that is down costs only its rooms. Nothing here blocks the service
/// thread.
public final class ClusterLink: RoomLog, Sendable {
    public let configuration: ClusterConfiguration
    /// This incarnation of the node: unique for the cluster's lifetime, part
    /// of every client id it hands out.
    public let generation: Int
    /// One writer and one reader per shard, in the order of `configuration.endpoints`.
    let writers: [ClusterWriter]
    let readers: [ClusterReader]
    /// What this node appended, per client, until it comes back.
    let sent: any OwnMessages
    /// For each shard named by Sentinels, what follows its master (nil for
    /// a `redis://` shard).
    let watches: [SentinelWatch?]

    /// Connects to every shard, checks that each is where this node's list
    /// puts it, claims the node name on each and registers this
    /// incarnation. Fails with a sentence when a Redis cannot be reached,
    /// the list disagrees with the cluster's, or the name is taken.
    public convenience init(_ configuration: ClusterConfiguration) throws(NeonError) {
        try self.init(configuration, own: SentMessages())
    }

    /// The same, with `own` keeping what the link appends until its readers
    /// take it back (a node's is `SentMessages`).
    package init(_ configuration: ClusterConfiguration, own sent: any OwnMessages) throws(NeonError) {
        self.configuration = configuration
        var connections: [RedisConnection] = []
        for endpoint in configuration.endpoints {
            connections.append(try RedisConnection(endpoint, password: configuration.password))
        }
        let counted = try connections[0].command(["INCR", ClusterKeys.generation])
        if case let .error(message) = counted {
            let hint = message.hasPrefix("NOREPLICAS")
                ? "its replicas are not connected yet (min-replicas-to-write); start the node once they are"
                : "check what Redis says"
            throw NeonError("Redis at \(configuration.endpoint) refused to hand out a node number (INCR \(ClusterKeys.generation)): \(message); \(hint)")
        }
        guard let generation = counted.integer else {
            throw NeonError("Redis at \(configuration.endpoint) did not hand out a node number (INCR \(ClusterKeys.generation)); is it a Redis server?")
        }
        for (shard, connection) in connections.enumerated() {
            try Self.checkPlace(connection, shard: shard, configuration: configuration)
        }
        let ttl = String(configuration.ttl.milliseconds)
        for (shard, connection) in connections.enumerated() {
            let claimed = try connection.command(["SET", ClusterKeys.node(configuration.node), String(generation), "NX", "PX", ttl])
            if claimed == .null {
                let pttl = try connection.command(["PTTL", ClusterKeys.node(configuration.node)]).integer ?? 0
                throw NeonError("another live node is already named \"\(configuration.node)\" in the cluster at \(configuration.endpoints[shard]) (its heartbeat expires within \(max(pttl, 0) / 1000 + 1) s if it is dead); give this node another --node name, or stop the other one first")
            }
            try connection.command(["HSET", ClusterKeys.incarnations, String(generation), configuration.node])
        }
        for connection in connections { connection.close() }
        self.generation = generation
        writers = configuration.endpoints.indices.map { ClusterWriter(configuration: configuration, shard: $0, generation: generation) }
        self.sent = sent
        readers = configuration.endpoints.indices.map {
            ClusterReader(configuration: configuration, shard: $0, generation: generation, sent: sent)
        }
        watches = configuration.endpoints.enumerated().map { shard, endpoint in
            endpoint.isSentinel ? SentinelWatch(endpoint: endpoint, shard: shard) : nil
        }
    }

    /// Records on a shard its place in the cluster's list (`neonsync:shard`,
    /// "i/n", set by the first node that starts) and refuses a list that
    /// places it elsewhere: two nodes with different lists would keep a
    /// room's log on two shards.
    private static func checkPlace(_ redis: RedisConnection, shard: Int, configuration: ClusterConfiguration) throws(NeonError) {
        let place = "\(shard + 1)/\(configuration.endpoints.count)"
        try redis.command(["SET", ClusterKeys.shard, place, "NX"])
        let recorded = try redis.command(["GET", ClusterKeys.shard]).text ?? place
        guard recorded == place else {
            let parts = recorded.split(separator: "/")
            let said = parts.count == 2 ? "shard \(parts[0]) of \(parts[1])" : "\"\(recorded)\""
            throw NeonError("Redis at \(configuration.endpoints[shard]) is \(said) of this cluster, but --redis \(configuration.redisList) makes it shard \(shard + 1) of \(configuration.endpoints.count): give every node the same --redis list in the same order (changing the list moves rooms: docs/CLUSTER.md, \"More than one Redis\")")
        }
    }

    /// The index of `room`'s shard in `configuration.endpoints`.
    package func shard(of room: String) -> Int {
        ShardPlacement.shard(of: room, count: writers.count)
    }

    /// Starts every shard's threads; what they read is decoded there
    /// (images, entries) and handed to `deliver` as the gateway takes it.
    package func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        let names = configuration.endpoints.map(\.description)
        let shards = configuration.endpoints.count
        start { shard, delivery in
            deliver(.event(delivery.gatewayEvent(redis: names[shard], shard: shards == 1 ? nil : shard)))
        }
    }

    /// Starts every shard's writer and reader, which hand what they read and
    /// what they could not append to `deliver`, with the shard's index.
    package func start(shards deliver: @escaping @Sendable (Int, ClusterDelivery) -> Void) {
        for shard in configuration.endpoints.indices {
            let forward: @Sendable (ClusterDelivery) -> Void = { delivery in deliver(shard, delivery) }
            writers[shard].start(deliver: forward)
            readers[shard].start(deliver: forward)
            let writer = writers[shard], reader = readers[shard]
            watches[shard]?.start { old, new in
                writer.health.withLock { $0.failovers += 1 }
                writer.masterSwitched(to: new)
                reader.masterSwitched(to: new)
                forward(.failover(from: old.description, to: new.description))
            }
        }
    }

    /// Appends the event to `room`'s log; it comes back, in the room's
    /// order, through the reader. A hello also takes the room up.
    package func order(_ entry: RoomEntry, room: String, hello: Bool) {
        let shard = shard(of: room)
        let appended = ClusterEntry(entry)
        var kept = true
        if case let .message(message) = entry.event {
            sent.add(message, as: appended.message, of: appended.client)
            kept = message.isKeptByCluster
        }
        writers[shard].submit(.append(room: room, entry: appended, hello: hello, kept: kept))
        if hello { readers[shard].want(room) }
    }

    /// Reads `room`'s log from now on (nil: every room in the cluster).
    package func takeUp(_ room: String?) {
        if let room {
            readers[shard(of: room)].want(room)
        } else {
            for reader in readers { reader.wantEveryRoom() }
        }
    }

    /// Stops reading `room`'s log (unsubscribes); Redis keeps the room.
    /// This node has no member there, so its incarnation need not leave
    /// the room when it goes.
    package func release(_ room: String) {
        let shard = shard(of: room)
        readers[shard].release(room)
        writers[shard].submit(.released(room: room))
    }

    /// Entry `index` left `room` empty at `milliseconds`: the room's
    /// time-to-live (`--room-ttl`) counts from then.
    package func emptied(_ room: String, index: Int, atMilliseconds milliseconds: Int64) {
        writers[shard(of: room)].submit(.emptied(room: room, index: index, atMilliseconds: milliseconds))
    }

    /// Stores `image` as the room's state after entry `index`.
    package func snapshot(_ room: String, index: Int, image: RoomImage) {
        guard let data = try? JSONEncoder().encode(image) else { return }
        writers[shard(of: room)].submit(.snapshot(room: room, index: index, image: String(decoding: data, as: UTF8.self),
                                                  trimBelow: max(index - configuration.snapshotEvery, 0)))
    }

    /// Appends what is queued, leaves the cluster (its members' rooms get a
    /// `gone` entry at once instead of after the heartbeat expires), and
    /// ends every thread, the shards at once, each waited for a bounded
    /// time; says why it could not leave when a Redis is gone. Safe from
    /// any thread, any number of times, at once.
    @discardableResult
    public func stop() -> SequencerStop {
        for reader in readers { reader.requestStop() }
        for writer in writers { writer.requestStop() }
        for watch in watches { watch?.stop() }
        let written = writers.map { $0.stop() }
        let read = readers.map { $0.stop() }
        return (written + read).first { $0 != .finished } ?? .finished
    }

    /// Whether each writer's connection is up, and command round trips.
    package var storeHealth: StoreHealth? {
        let shards = writers.map { writer in
            let health = writer.health.withLock { $0 }
            return StoreHealth.Shard(redis: writer.endpoint.description, connected: health.connected,
                                     commandSeconds: health.commandSeconds, master: health.master,
                                     failovers: health.failovers, unconfirmed: health.unconfirmed)
        }
        return StoreHealth(node: configuration.node, shards: shards)
    }
}

/// The cluster gauges for `/healthz` and `/metrics`.
struct ClusterHealth: Sendable {
    var connected = true
    var commandSeconds = Histogram.redisBuckets
    /// The server the writer is connected to (`HOST:PORT`; nil while not).
    var master: String?
    /// Masters the Sentinels switched to since the node started.
    var failovers = 0
    /// Entries whose sender was answered `unavailable` because no replica
    /// confirmed them in time.
    var unconfirmed = 0
}

/// The messages a node appended, per client, in order, until each comes
/// back from Redis: the reader takes its own entries' messages from here
/// instead of decoding their JSON again (the same text decodes to the same
/// message, so a match by text is exact). A client's list goes when its
/// `bye` comes back, and never holds more than `limit`.
final class SentMessages: OwnMessages {
    private let byClient = Locked<[String: [(text: String, message: ClientMessage)]]>([:])
    static let limit = 256

    func add(_ message: ClientMessage, as text: String, of client: String) {
        byClient.withLock { lists in
            lists[client, default: []].append((text, message))
            if lists[client]!.count > Self.limit { lists[client]!.removeFirst() }
        }
    }

    /// The message `client` sent as `text`, taken from the list with the
    /// older ones (appends that Redis refused); nil when it is not there.
    func take(_ text: String, of client: String) -> ClientMessage? {
        byClient.withLock { lists in
            guard var list = lists[client] else { return nil }
            defer { lists[client] = list.isEmpty ? nil : list }
            while !list.isEmpty {
                let first = list.removeFirst()
                if first.text == text { return first.message }
            }
            return nil
        }
    }

    /// `client`'s connection closed, as its log says: nothing more comes back.
    func forget(_ client: String) {
        _ = byClient.withLock { $0.removeValue(forKey: client) }
    }
}
