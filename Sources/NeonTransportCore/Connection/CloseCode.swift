/// WebSocket close status codes (RFC 6455 §7.4.1) used by NeonTransport.
public enum CloseCode {
    /// 1000: the purpose of the connection has been fulfilled.
    public static let normal: UInt16 = 1000
    /// 1001: the server is going down or the client is navigating away.
    public static let goingAway: UInt16 = 1001
    /// 1002: the peer broke the WebSocket protocol.
    public static let protocolError: UInt16 = 1002
    /// 1007: a text message was not valid UTF-8.
    public static let invalidPayload: UInt16 = 1007
    /// 1008: the message broke the application's policy.
    public static let policyViolation: UInt16 = 1008
    /// 1009: a message was larger than the configured limit.
    public static let messageTooBig: UInt16 = 1009
    /// 1011: the endpoint hit an unexpected condition.
    public static let internalError: UInt16 = 1011
    /// Rejoin: a cluster node lost its place in the cluster (or Redis lost
    /// the room), so the connection must start over; reconnect and resync.
    /// (4013 rather than 1013, which libwebsockets 4.1 clients refuse.)
    public static let rejoin: UInt16 = 4013
    /// 4008 (application range): the peer read too slowly; more than the
    /// configured backlog waited unsent, so the backlog was dropped.
    /// The client should reconnect and resync.
    public static let tooSlow: UInt16 = 4008
}

/// How a WebSocket connection ended.
public struct WebSocketClose: Sendable, Equatable, CustomStringConvertible {
    /// The close code carried by the close frame that ended the connection
    /// (sent by the peer, or by this side when it closed first); `nil` when
    /// the connection ended without a close frame (dropped, reset, refused).
    public var code: UInt16?
    /// The UTF-8 reason from the same close frame; empty when none was given.
    public var reason: String
    /// `true` when the peer sent the first close frame, or dropped the
    /// connection without one; `false` when this side closed first.
    public var initiatedByPeer: Bool

    public init(code: UInt16?, reason: String = "", initiatedByPeer: Bool) {
        self.code = code
        self.reason = reason
        self.initiatedByPeer = initiatedByPeer
    }

    public var description: String {
        let who = initiatedByPeer ? "peer" : "local"
        guard let code else { return "closed without a close frame (\(who))" }
        return reason.isEmpty ? "closed \(code) (\(who))" : "closed \(code) \"\(reason)\" (\(who))"
    }
}
