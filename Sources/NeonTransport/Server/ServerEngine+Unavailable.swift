extension ServerEngine {
    /// While the server stops, or while its delegate says new connections
    /// cannot be served (a cluster node without Redis), a handshake is
    /// answered 503 with the reason, so that a client or a proxy in front
    /// goes to another server (nginx: `proxy_next_upstream http_503`).
    /// nil when handshakes may proceed.
    func unavailableRefusal() -> HandshakeRefusal? {
        guard let reason = shuttingDown ? "this server is stopping; connect again" : delegate?.unavailableReason() else {
            return nil
        }
        return HandshakeRefusal(status: 503, phrase: "Service Unavailable", headers: ["retry-after: 1"], body: reason + "\n")
    }
}
