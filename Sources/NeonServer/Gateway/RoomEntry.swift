import NeonCore

/// One event of a room as its sequencer orders it: a client's message, its
/// connection closing, or a node going away with its members.
package struct RoomEntry: Equatable, Sendable {
    package enum Event: Equatable, Sendable {
        case message(ClientMessage)
        case bye
        /// Every member of the node incarnation `origin` leaves.
        case gone
    }

    package var event: Event
    package var client: ClientID
    /// The server run (cluster: node incarnation) that ordered it.
    package var origin: Int
    /// The hub's time of the event.
    package var time: Duration
    /// Its position in the room's log (cluster), 0 on a single node.
    package var index: Int = 0
    /// A hello whose name the server vouches for (`HubEvent.verifiedHello`).
    package var verified = false
    /// A cluster node: the message's JSON as its client sent it, which the
    /// room's log keeps instead of encoding the message again (nil: encode).
    package var text: String?

    package init(event: Event, client: ClientID, origin: Int, time: Duration, index: Int = 0, verified: Bool = false,
                 text: String? = nil) {
        self.event = event; self.client = client; self.origin = origin; self.time = time
        self.index = index; self.verified = verified; self.text = text
    }
}

extension RoomEntry {
    /// A client's message as a node orders it: `text` is its JSON as the
    /// client sent it, which the room's log keeps.
    package init(message: ClientMessage, text: String, client: ClientID, origin: Int, time: Duration) {
        self.init(event: .message(message), client: client, origin: origin, time: time, text: text)
    }
}
