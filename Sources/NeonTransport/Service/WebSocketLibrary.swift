import CLibWebSockets
import NeonTransportCore

/// The libwebsockets this process runs with.
public enum WebSocketLibrary {
    /// Its version as the shared library reports it, e.g. "4.1.6" (without
    /// the "-" a build with no git hash appends).
    public static var version: String {
        var text = String(cString: lws_get_library_version())
        while text.hasSuffix("-") { text.removeLast() }
        return text
    }
}

extension WebSocketLibrary {
    /// Traps unless every frame's headroom (``OutboundFrame``'s, a number in
    /// NeonTransportCore, which links no lws) is at least the `LWS_PRE` this
    /// build of the transport was compiled with: lws writes a frame's header
    /// into those bytes, and fewer would corrupt the allocation in front of
    /// the payload. Called on each service thread before its context exists.
    static func checkHeadroom() {
        let required = Int(neon_lws_pre())
        precondition(OutboundFrame.headroom >= required,
                     "OutboundFrame.headroom is \(OutboundFrame.headroom) bytes but libwebsockets needs LWS_PRE = \(required)")
    }
}
