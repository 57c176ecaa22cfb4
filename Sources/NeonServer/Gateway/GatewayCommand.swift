import NeonCore
import NeonTransportCore

/// What the gateway asks the executor to do, in order.
enum GatewayCommand: Equatable, Sendable {
    /// Queue encoded bytes to connections (one frame for all of them).
    case deliver(Delivery)
    /// Close a connection after what was queued to it.
    case close(ConnectionID, code: UInt16, reason: String, room: String?)
    /// Set (nil: cancel) a connection's timer.
    case setTimer(ConnectionID, Duration?)
    case log(LogRecord)
    /// Cluster: hand an event of `room` to the sequencer, which decides
    /// its place in the room's log (a hello also makes the node take the
    /// room up); it comes back as `ordered`. One node never asks: arrival
    /// order is the order, and the gateway applies the event itself.
    case order(RoomEntry, room: String, hello: Bool)
    /// An observer watches from outside: the node takes up `room`, or
    /// every room of the cluster (nil), so that it has them to show.
    case takeUp(room: String?)
    /// One node: read these resting rooms back from the store, after
    /// every record handed over before (they come back as `restored`).
    case restore(rooms: [String])
    /// Cluster: this node let go of `room` (nobody here used it for
    /// `--room-release`): stop reading its log; Redis keeps it.
    case release(room: String)
    /// Make a record durable before the commands of its room after it.
    case persist(PersistRecord, room: String)
    /// Cluster: entry `index` left `room` empty at `atMilliseconds`; its
    /// `--room-ttl` counts from then (in Redis, which removes it).
    case emptied(room: String, index: Int, atMilliseconds: Int64)
    /// Store the room's whole state as of entry `index` (cluster).
    case snapshot(room: String, index: Int, RoomImage)
}

/// Encoded bytes for some connections, and what they count as.
struct Delivery: Equatable, Sendable {
    var bytes: [UInt8]
    /// Latest-wins messages: a newer one with the same key replaces it in
    /// a slow connection's backlog.
    var coalescingKey: String?
    var to: [ConnectionID]
    /// The room it belongs to: it waits behind that room's pending commits.
    var room: String?
    /// A room broadcast (its fan-out time is measured).
    var isBroadcast: Bool
}
