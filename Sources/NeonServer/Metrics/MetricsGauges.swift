import NeonCore
import NeonTransportCore

/// What the server holds at the moment of a scrape: sampled on the service
/// thread when `/metrics` is served, never kept up to date per message.
struct MetricsGauges: Equatable, Sendable {
    var connections: Int
    var rooms: Int
    /// One node: rooms released from memory that the store keeps.
    var restingRooms = 0
    var readers: [Role: Int]
    var queuedFrames: Int
    var queuedBytes: Int
    /// Superseded position updates the transport dropped since start.
    var coalescedFrames = 0
    /// Sockets each service thread serves (connections and HTTP requests);
    /// with one thread, its open connections.
    var socketsPerThread: [Int] = []

    init(connections: Int = 0, rooms: Int = 0, readers: [Role: Int] = [:], queuedFrames: Int = 0, queuedBytes: Int = 0) {
        self.connections = connections; self.rooms = rooms; self.readers = readers
        self.queuedFrames = queuedFrames; self.queuedBytes = queuedBytes
    }

    /// Rooms and joined members by role from `hub`, with `connections` open;
    /// observers of every room count as observers.
    init(connections: Int, hub: Hub) {
        self.init(connections: connections, rooms: hub.rooms.count)
        if !hub.watchers.isEmpty { readers[.observer] = hub.watchers.count }
        for room in hub.rooms.values {
            for member in room.members.values { readers[member.role, default: 0] += 1 }
        }
    }

    mutating func add(_ depth: QueueDepth) {
        queuedFrames += depth.frames
        queuedBytes += depth.bytes
    }
}
