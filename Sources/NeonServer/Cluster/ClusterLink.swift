import Foundation
import Glibc
import NeonCore
import Synchronization

/// A node's link to the cluster's Redis: appends the events of its clients
/// to their rooms' logs (the writer thread) and reads the logs of the rooms
/// it holds back in order (the reader thread), handing everything to the
/// service thread through `deliver`. Nothing here blocks the service thread.
public final class ClusterLink: RoomSequencer, Sendable {
    public let configuration: ClusterConfiguration
    /// This incarnation of the node: unique for the cluster's lifetime, part
    /// of every client id it hands out.
    public let generation: Int
    let writer: ClusterWriter
    let reader: ClusterReader

    /// Connects, claims the node name and registers this incarnation. Fails
    /// with a sentence when Redis cannot be reached or the name is taken.
    public init(_ configuration: ClusterConfiguration) throws(RedisFailure) {
        self.configuration = configuration
        let connection = try RedisConnection(configuration.endpoint, password: configuration.password)
        guard let generation = try connection.command(["INCR", ClusterKeys.generation]).integer else {
            throw RedisFailure("Redis at \(configuration.endpoint) did not hand out a node number (INCR \(ClusterKeys.generation)); is it a Redis server?")
        }
        let ttl = String(configuration.ttl.milliseconds)
        let claimed = try connection.command(["SET", ClusterKeys.node(configuration.node), String(generation), "NX", "PX", ttl])
        if claimed == .null {
            let pttl = try connection.command(["PTTL", ClusterKeys.node(configuration.node)]).integer ?? 0
            throw RedisFailure("another live node is already named \"\(configuration.node)\" in the cluster at \(configuration.endpoint) (its heartbeat expires within \(max(pttl, 0) / 1000 + 1) s if it is dead); give this node another --node name, or stop the other one first")
        }
        try connection.command(["HSET", ClusterKeys.incarnations, String(generation), configuration.node])
        self.generation = generation
        writer = ClusterWriter(configuration: configuration, generation: generation, connection: connection)
        reader = ClusterReader(configuration: configuration, generation: generation)
    }

    /// An event is durable once it is in the room's log in Redis.
    let durableOnceOrdered = true

    /// Starts both threads; what they read is decoded there (images,
    /// entries) and handed to `deliver`.
    func start(deliver: @escaping @Sendable (SequencerDelivery) -> Void) {
        let endpoint = configuration.endpoint.description
        let forward: @Sendable (ClusterDelivery) -> Void = { delivery in
            deliver(.event(delivery.gatewayEvent(redis: endpoint)))
        }
        writer.start(deliver: forward)
        reader.start(deliver: forward)
    }

    /// Appends the event to `room`'s log; it comes back, in the room's
    /// order, through the reader. A hello also takes the room up.
    func order(_ entry: RoomEntry, room: String, hello: Bool) {
        writer.submit(.append(room: room, entry: ClusterEntry(entry), hello: hello))
        if hello { reader.want(room) }
    }

    /// Reads `room`'s log from now on (nil: every room in the cluster).
    func takeUp(_ room: String?) {
        if let room { reader.want(room) } else { reader.wantEveryRoom() }
    }

    /// Never called: a node takes its rooms up from Redis (`takeUp`).
    func restore(_ rooms: [String]) {}

    /// Stops reading `room`'s log (unsubscribes); Redis keeps the room.
    func release(_ room: String) {
        reader.release(room)
    }

    /// Never called: `durableOnceOrdered`.
    func persist(_ records: [PersistRecord], ticket: Int) {}

    /// Stores `image` as the room's state after entry `index`.
    func snapshot(_ room: String, index: Int, image: RoomImage) {
        guard let data = try? JSONEncoder().encode(image) else { return }
        writer.submit(.snapshot(room: room, index: index, image: String(decoding: data, as: UTF8.self),
                                trimBelow: max(index - configuration.snapshotEvery, 0)))
    }

    /// Appends what is queued, leaves the cluster (its members' rooms get a
    /// `gone` entry at once instead of after the heartbeat expires), and
    /// ends both threads, each waited for a bounded time; says why it could
    /// not leave when Redis is gone. Safe from any thread, any number of
    /// times, at once.
    @discardableResult
    public func stop() -> SequencerStop {
        reader.requestStop()
        let written = writer.stop()
        let read = reader.stop()
        return written == .finished ? read : written
    }

    /// Nothing to wait for: an event is durable once it is in the log.
    func flush() {}

    /// Whether the writer's connection is up, and command round trips.
    var storeHealth: StoreHealth? {
        let health = writer.health.withLock { $0 }
        return StoreHealth(node: configuration.node, connected: health.connected, commandSeconds: health.commandSeconds)
    }
}

/// The cluster gauges for `/healthz` and `/metrics`.
struct ClusterHealth: Sendable {
    var connected = true
    var commandSeconds = Histogram.redisBuckets
}
