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
