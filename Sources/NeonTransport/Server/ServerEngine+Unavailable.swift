import CLibWebSockets

extension ServerEngine {
    /// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE, first: while the server stops, or
    /// while its delegate says new connections cannot be served, a handshake
    /// is answered 503 with the reason, and a proxy in front moves it to
    /// another server (nginx: `proxy_next_upstream http_503`). Returns 1 (the
    /// response was written), or nil to go on with the handshake.
    func refuseIfUnavailable(_ wsi: OpaquePointer) -> Int32? {
        guard let reason = shuttingDown ? "this server is stopping; connect again" : delegate?.unavailableReason() else {
            return nil
        }
        let body = reason + "\n"
        let response = OutboundFrame(binary: Array((
            "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
            + "content-length: \(body.utf8.count)\r\nretry-after: 1\r\nconnection: close\r\n\r\n" + body).utf8))
        let start = response.payloadStart.assumingMemoryBound(to: UInt8.self)
        _ = lws_write(wsi, start, response.count, LWS_WRITE_HTTP_HEADERS)
        return 1
    }
}
