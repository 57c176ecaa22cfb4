import NeonCore

/// One event of a room as its sequencer orders it: a client's message, its
/// connection closing, or a node going away with its members.
struct RoomEntry: Equatable, Sendable {
    enum Event: Equatable, Sendable {
        case message(ClientMessage)
        case bye
        /// Every member of the node incarnation `origin` leaves.
        case gone
    }

    var event: Event
    var client: ClientID
    /// The server run (cluster: node incarnation) that ordered it.
    var origin: Int
    /// The hub's time of the event.
    var time: Duration
    /// Its position in the room's log (cluster), 0 on a single node.
    var index: Int = 0
    /// A hello whose name the server vouches for (`HubEvent.verifiedHello`).
    var verified = false
    /// A cluster node: the message's JSON as its client sent it, which the
    /// room's log keeps instead of encoding the message again (nil: encode).
    var text: String?
}
