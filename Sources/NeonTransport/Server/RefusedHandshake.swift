import NeonTransportCore

/// A WebSocket handshake the server answered with 403 because of its
/// `Origin` header.
public struct RefusedHandshake: Sendable, Equatable {
    /// The remote IP address.
    public var peer: String
    /// The `Origin` header it carried.
    public var origin: String
    /// Its proxy headers naming a client, as sent (nil without any).
    public var forwarding: ForwardingHeaders?

    public init(peer: String, origin: String, forwarding: ForwardingHeaders? = nil) {
        self.peer = peer
        self.origin = origin
        self.forwarding = forwarding
    }
}
