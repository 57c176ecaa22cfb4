import NeonTransportCore

/// Which WebSocket upgrade requests become connections: the last look at a
/// request before libwebsockets answers 101 (LWS_CALLBACK_HTTP_CONFIRM_UPGRADE).
///
/// In this order: a request RFC 6455 refuses (no `Host`, no valid
/// `Sec-WebSocket-Key`, a version other than 13) gets 400 or 426 (see
/// ``HandshakeRefusal/check(host:key:version:)``); any while the server
/// cannot serve new connections 503; one whose `Origin` the policy does not
/// allow 403. Pure: the engine reads the headers and writes the answer.
struct HandshakeGate {
    let origins: OriginPolicy

    /// The headers the gate reads.
    struct Request: Equatable {
        var host: String?
        var key: String?
        var version: String?
        var origin: String?
    }

    enum Decision: Equatable {
        /// lws answers 101: the request becomes a connection.
        case proceed
        /// RFC 6455 refuses the request (logged as a warning).
        case malformed(HandshakeRefusal)
        /// 503: the server is stopping, or its delegate says it cannot
        /// serve new connections now.
        case unavailable(HandshakeRefusal)
        /// 403: the policy does not allow the request's `Origin` (`""`
        /// when it had none), which the delegate is told.
        case originRefused(origin: String)
    }

    /// Decides on `request`. `unavailableReason` is asked only for a
    /// request RFC 6455 allows, and only while the server is not stopping.
    func decide(_ request: Request, stopping: Bool, unavailableReason: () -> String?) -> Decision {
        if let refusal = HandshakeRefusal.check(host: request.host, key: request.key, version: request.version) {
            return .malformed(refusal)
        }
        if let reason = stopping ? Self.stopping : unavailableReason() {
            return .unavailable(Self.unavailable(reason))
        }
        guard origins.allows(request.origin) else { return .originRefused(origin: request.origin ?? "") }
        return .proceed
    }

    /// The reason a stopping server gives.
    static let stopping = "this server is stopping; connect again"

    /// While the server stops, or while its delegate says new connections
    /// cannot be served (a cluster node without Redis), a handshake is
    /// answered 503 with the reason, so that a client or a proxy in front
    /// goes to another server (nginx: `proxy_next_upstream http_503`).
    static func unavailable(_ reason: String) -> HandshakeRefusal {
        HandshakeRefusal(status: 503, phrase: "Service Unavailable", headers: ["retry-after: 1"], body: reason + "\n")
    }
}
