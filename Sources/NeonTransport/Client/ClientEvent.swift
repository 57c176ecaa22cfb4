/// Something that happened on one client connection. Delivered to the
/// connection's handler on the client context's service thread, in order.
public enum ClientEvent: Sendable, Equatable {
    /// The WebSocket handshake completed; frames sent earlier go out now.
    case connected
    /// A whole message arrived (reassembled; text validated as UTF-8).
    case received(WebSocketMessage)
    /// An inbound message broke a rule; `.closed` with its code follows.
    case rejected(InboundRejection)
    /// The connection ended after `.connected`. Last event.
    case closed(WebSocketClose)
    /// The connection never opened (refused, handshake rejected, timed out,
    /// context stopped). Last event.
    case failed(String)

    /// `true` for the last event of a connection (`.closed`, `.failed`).
    public var isFinal: Bool {
        switch self {
        case .closed, .failed: true
        case .connected, .received, .rejected: false
        }
    }
}
