import NeonCore
import NeonTransportCore

/// Admission: the per-address cap, the hello timer, rate limits, tokens.
extension Gateway {
    /// A new connection: counted against its address's cap (over it, an
    /// error and close 1008), then given the hello timeout. Its address is
    /// the client's as a trusted proxy names it (`--trust-proxy`), else
    /// the peer's.
    mutating func connected(_ connection: ConnectionID, peer tcpPeer: String, verifiedName: String? = nil,
                            forwarding: ForwardingHeaders? = nil, at clock: GatewayClock,
                            into out: inout [GatewayCommand]) {
        let origin = policy.proxies.resolve(peer: tcpPeer, forwardedFor: forwarding?.forwardedFor,
                                            forwarded: forwarding?.forwarded)
        let peer = origin.address
        let number = connection.rawValue
        let run = configuration.incarnation
        let client = ClientID(run > 0 ? "c\(run)-\(number)" : "c\(number)")
        connections[connection] = ConnectionInfo(client: client, address: peer, bucket: policy.bucket(),
                                                 verifiedName: verifiedName)
        clients[client] = connection
        recipients.forget()
        perAddress[peer, default: 0] += 1
        metrics.connected()
        out.append(.log(LogRecord(.info, .connect, client: client, Self.originFields(origin))))
        let cap = policy.maxConnectionsPerAddress
        if cap > 0, perAddress[peer, default: 0] > cap {
            refuse(connection, ProtocolError(.tooManyConnections,
                "\(peer) already has \(cap) connections open, this server's limit per address; close some, or ask the operator to raise --max-connections-per-ip"),
                   at: clock, into: &out)
        } else if let timeout = policy.helloTimeout {
            out.append(.setTimer(connection, timeout))
        }
    }

    /// A message: rate-limited, decoded, admitted (tokens), then ordered
    /// in its room or answered here.
    mutating func received(_ message: WebSocketMessage, from connection: ConnectionID, at clock: GatewayClock,
                           into out: inout [GatewayCommand]) {
        guard let info = connections[connection] else { return }
        let client = info.client
        if var bucket = info.bucket {
            let allowed = bucket.take(at: clock.monotonic)
            connections[connection]?.bucket = bucket
            guard allowed else { return overRate(connection, at: clock, into: &out) }
            connections[connection]?.dropped = 0
        }
        let hubEvent: HubEvent
        switch message {
        case let .text(text):
            switch codec.decodeClient(text.utf8) {
            case let .success(decoded):
                metrics.received(bytes: text.utf8.count, decoded)
                switch admission(of: decoded, at: clock) {
                case let .refused(refusal):
                    return refuse(connection, refusal, at: clock, into: &out)
                case let .watch(name, scope):
                    hubEvent = .watch(client, name: name, scope: scope)
                case .admitted:
                    return order(decoded, text: text, from: connection, at: clock, into: &out)
                }
            case let .failure(error):
                metrics.received(bytes: text.utf8.count, nil)
                hubEvent = .rejected(client, error)
            }
        case let .binary(bytes):
            metrics.received(bytes: bytes.count, nil)
            hubEvent = .rejected(client, ProtocolError(.invalidMessage,
                "binary frames are not part of neonsync.v1; send each message as a UTF-8 JSON text frame"))
        }
        route(hub.apply(hubEvent, at: clock.hub), into: &out)
        noteJoined(client, into: &out)
        if case let .watch(_, _, scope) = hubEvent { takeUpWatched(client, scope: scope, into: &out) }
    }

    /// A new observer from outside rooms gets the rooms it may watch taken
    /// up: in a cluster from Redis, on one node the resting ones from the
    /// store (each arrives in a fresh overview as it loads).
    mutating func takeUpWatched(_ client: ClientID, scope: String?, into out: inout [GatewayCommand]) {
        guard hub.watchers.contains(client) else { return }
        switch mode {
        case let .single(rooms): wake(scope.map { [$0] } ?? rooms.resting.sorted(), into: &out)
        case .cluster: out.append(.takeUp(room: scope))
        }
    }

    /// The connection is gone: its bookkeeping goes at once; its leaving
    /// the room is an event of the room, ordered like the others.
    mutating func disconnected(_ connection: ConnectionID, _ close: WebSocketClose, at clock: GatewayClock,
                               into out: inout [GatewayCommand]) {
        guard let info = connections.removeValue(forKey: connection) else { return }
        let client = info.client
        clients[client] = nil
        recipients.forget()
        perAddress[info.address, default: 1] -= 1
        if perAddress[info.address] == 0 { perAddress[info.address] = nil }
        var fields = [LogField("initiatedByPeer", .bool(close.initiatedByPeer))]
        if let code = close.code { fields.append(LogField("code", .int(Int(code)))) }
        if close.code == CloseCode.tooSlow, !close.initiatedByPeer {
            metrics.closedTooSlow()
            out.append(.log(LogRecord(.warn, .tooSlow, client: client, [
                LogField("code", .int(Int(CloseCode.tooSlow))),
                LogField("maxOutbound", .int(configuration.maxOutboundBytes)),
            ])))
        }
        out.append(.log(LogRecord(.info, .disconnect, client: client, fields)))
        if let room = info.room {
            sequence(RoomEntry(event: .bye, client: client, origin: configuration.incarnation, time: clock.hub),
                     room: room, hello: false, at: clock, into: &out)
        } else {
            route(hub.apply(.disconnected(client), at: clock.hub), into: &out)
        }
    }

    /// A message over the connection's rate is dropped: the first of a run
    /// gets a `rate_limited` error, a long run closes the connection (1008).
    mutating func overRate(_ connection: ConnectionID, at clock: GatewayClock, into out: inout [GatewayCommand]) {
        guard let info = connections[connection] else { return }
        let dropped = info.dropped + 1
        connections[connection]?.dropped = dropped
        let rate = Int(policy.rate)
        if dropped == 1 {
            let error = ProtocolError(.rateLimited,
                "more than \(rate) messages a second (bursts of \(Int(policy.burst))); this message and any more until you slow down are dropped")
            route(hub.apply(.rejected(info.client, error), at: clock.hub), into: &out)
        } else if dropped == policy.dropsBeforeClose {
            refuse(connection, ProtocolError(.rateLimited,
                "\(dropped) messages in a row over \(rate) a second; closing this connection (1008)"),
                   at: clock, into: &out)
        }
    }

    /// What a decoded message may do.
    enum Admission {
        case admitted
        case refused(ProtocolError)
        /// An observer's hello to `"*"` with a token for one room: it
        /// watches every room the token allows, that one.
        case watch(name: String, scope: String)
    }

    /// Whether a decoded message may reach the hub: with a secret, a hello
    /// needs a token this server signed, unexpired, admitting its room and
    /// role; an observer's hello to `"*"` with a token for one room watches
    /// that room.
    func admission(of message: ClientMessage, at clock: GatewayClock) -> Admission {
        guard let secret = policy.secret, case let .hello(room, name, role, _, _, token, _, _) = message else { return .admitted }
        guard let token else {
            return .refused(ProtocolError(.unauthorized,
                "this server requires a room token; ask its operator for one (neonsyncd token) and pass it with --token-file FILE or NEONSYNC_TOKEN"))
        }
        switch RoomToken.verify(token, secret: secret, now: clock.wallNanoseconds / 1_000_000_000) {
        case let .failure(error):
            return .refused(error)
        case let .success(granted):
            if room == Hub.everyRoom, role == .observer, granted.room != Hub.everyRoom {
                return .watch(name: name, scope: granted.room)
            }
            guard granted.admits(room: room, role: role) else {
                let scope = granted.room == Hub.everyRoom ? "every room" : "room \"\(granted.room)\""
                return .refused(ProtocolError(.unauthorized,
                    "the token admits \(scope) as \(granted.role.rawValue) or below, not room \"\(room)\" as \(role.rawValue); ask for a token for that room and role"))
            }
            return .admitted
        }
    }
}

extension Gateway {
    /// Where a connection came from, for its log line: `peer`, with
    /// `proxy` when a trusted proxy named it, or `forwardedIgnored` when an
    /// untrusted peer sent forwarding headers.
    static func originFields(_ origin: ProxyTrust.Resolution) -> [LogField] {
        var fields = [LogField("peer", .string(origin.address))]
        if let proxy = origin.proxy { fields.append(LogField("proxy", .string(proxy))) }
        if origin.ignoredHeaders { fields.append(LogField("forwardedIgnored", .bool(true))) }
        return fields
    }
}
