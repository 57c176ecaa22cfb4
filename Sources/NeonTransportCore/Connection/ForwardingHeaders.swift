/// The headers in which a proxy names the client it forwards: read from
/// every WebSocket handshake as they came, for the server to believe or
/// not (only a trusted proxy's word counts).
public struct ForwardingHeaders: Sendable, Equatable {
    /// `X-Forwarded-For`, repeated headers joined with commas.
    public var forwardedFor: String?
    /// RFC 7239 `Forwarded`.
    public var forwarded: String?

    public init(forwardedFor: String? = nil, forwarded: String? = nil) {
        self.forwardedFor = forwardedFor
        self.forwarded = forwarded
    }
}
