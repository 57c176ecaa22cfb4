import CLibWebSockets

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

extension ServerEngine {
    /// The handshake's forwarding headers; nil when it has neither.
    static func forwardingHeaders(of wsi: OpaquePointer) -> ForwardingHeaders? {
        let headers = ForwardingHeaders(forwardedFor: header(WSI_TOKEN_X_FORWARDED_FOR, of: wsi),
                                        forwarded: customHeader("forwarded:", of: wsi))
        return headers.forwardedFor == nil && headers.forwarded == nil ? nil : headers
    }

    /// A header lws has no token for, by its lowercase name with the colon.
    private static func customHeader(_ name: String, of wsi: OpaquePointer) -> String? {
        let count = Int32(name.utf8.count)
        let length = lws_hdr_custom_length(wsi, name, count)
        guard length > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        let copied = lws_hdr_custom_copy(wsi, &buffer, Int32(buffer.count), name, count)
        guard copied >= 0 else { return nil }
        return String(decoding: buffer[..<Int(copied)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension ServiceContext {
    /// The proxy headers of `connection`'s handshake; nil without any, or
    /// when it is not open. Read during its ``ServerEvent/connected(_:peer:peerUID:)``
    /// event: lws lets go of a handshake's headers after it.
    public func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders? {
        guard let wsi = engine.sessions[connection]?.wsi else { return nil }
        return ServerEngine.forwardingHeaders(of: wsi)
    }
}
