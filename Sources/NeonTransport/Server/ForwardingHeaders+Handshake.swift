import CLibWebSockets
import NeonTransportCore

extension ForwardingHeaders {
    /// The handshake's forwarding headers; nil when it has neither.
    init?(of wsi: OpaquePointer) {
        self.init(forwardedFor: RequestHeaders.value(WSI_TOKEN_X_FORWARDED_FOR, of: wsi),
                  forwarded: RequestHeaders.custom("forwarded:", of: wsi))
        if forwardedFor == nil && forwarded == nil { return nil }
    }
}

extension ServiceContext {
    /// The proxy headers of `connection`'s handshake; nil without any, or
    /// when it is not open. Read during its ``ServerEvent/connected(_:peer:peerUID:)``
    /// event: lws lets go of a handshake's headers after it.
    public func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders? {
        guard let wsi = engine.connections[connection]?.wsi else { return nil }
        return ForwardingHeaders(of: wsi)
    }
}
