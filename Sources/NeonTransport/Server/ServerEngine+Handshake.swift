import CLibWebSockets

extension ServerEngine {
    /// LWS_CALLBACK_HTTP_CONFIRM_UPGRADE: the last look at a WebSocket
    /// upgrade request before libwebsockets answers 101. A request RFC 6455
    /// refuses (no `Host`, no valid `Sec-WebSocket-Key`, a version other
    /// than 13) gets 400 or 426 (see ``HandshakeRefusal/check(host:key:version:)``),
    /// any while the server cannot serve new connections 503 (see
    /// `unavailableRefusal()`), one whose `Origin` the policy does not allow
    /// gets 403; none becomes a connection. Returning 1 tells lws the response was written; the
    /// connection then closes (the response says `connection: close`).
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        if let refusal = HandshakeRefusal.check(
            host: Self.header(WSI_TOKEN_HOST, of: wsi), key: Self.header(WSI_TOKEN_KEY, of: wsi),
            version: Self.header(WSI_TOKEN_VERSION, of: wsi)) {
            TransportLog.note(.warning, "refused a WebSocket upgrade from \(Self.peer(of: wsi)) "
                + "with \(refusal.status): \(refusal.body.dropLast())")
            return write(refusal, wsi)
        }
        if let refusal = unavailableRefusal() {
            return write(refusal, wsi)
        }
        let origin = Self.header(WSI_TOKEN_ORIGIN, of: wsi)
        guard !configuration.origins.allows(origin) else { return 0 }
        delegate?.refused(RefusedHandshake(peer: Self.peer(of: wsi), origin: origin ?? "",
                                           forwarding: Self.forwardingHeaders(of: wsi)))
        return write(.origin, wsi)
    }

    private func write(_ refusal: HandshakeRefusal, _ wsi: OpaquePointer) -> Int32 {
        let response = OutboundFrame(binary: refusal.response)
        let start = response.payloadStart.assumingMemoryBound(to: UInt8.self)
        _ = lws_write(wsi, start, response.count, LWS_WRITE_HTTP_HEADERS)
        return 1
    }

    /// A request header's value; `nil` when the request has none.
    static func header(_ token: lws_token_indexes, of wsi: OpaquePointer) -> String? {
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer[..<Int(copied)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The remote IP address, or "" when lws cannot tell.
    static func peer(of wsi: OpaquePointer) -> String {
        var peer = [CChar](repeating: 0, count: 64)
        return lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
    }
}
