import NeonCore

/// One event of a room as its sequencer orders it: a client's message, its
/// connection closing, or a node going away with its members.
package struct RoomEntry: Equatable, Sendable {
    enum Event: Equatable, Sendable {
        case message(ClientMessage)
        case bye
        /// Every member of the node incarnation `origin` leaves.
        case gone
    }

    var event: Event
    var client: ClientID
    /// The server run (cluster: node incarnation) that ordered it.
    package var origin: Int
    /// The hub's time of the event.
    package var time: Duration
    /// Its position in the room's log (cluster), 0 on a single node.
    var index: Int = 0
    /// A hello whose name the server vouches for (`HubEvent.verifiedHello`).
    var verified = false
    /// A cluster node: the message's JSON as its client sent it, which the
    /// room's log keeps instead of encoding the message again (nil: encode).
    var text: String?
}

extension RoomEntry {
    /// A client's message as a node orders it: `text` is its JSON as the
    /// client sent it, which the room's log keeps.
    package init(message: ClientMessage, text: String, client: ClientID, origin: Int, time: Duration) {
        self.init(event: .message(message), client: client, origin: origin, time: time, text: text)
    }
}
