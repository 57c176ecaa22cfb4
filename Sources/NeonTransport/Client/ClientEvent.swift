import NeonTransportCore

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
    /// A `wss://` connection was abandoned during the TLS handshake because
    /// the server's certificate failed verification. Last event; connecting
    /// again fails the same way until the trust settings or the server's
    /// certificate change.
    case untrusted(CertificateRejection)

    /// `true` for the last event of a connection (`.closed`, `.failed`,
    /// `.untrusted`).
    public var isFinal: Bool {
        switch self {
        case .closed, .failed, .untrusted: true
        case .connected, .received, .rejected: false
        }
    }
}
