extension ServerMessage.Payload {
    /// For the latest-wins messages — a reader's place (`progress`), tab,
    /// follow state, draft cursor and pointer — the key a newer message of the same
    /// kind from the same reader shares with the one it makes obsolete.
    /// `nil` for ordered messages, which must all arrive in order.
    ///
    /// A server may skip an obsolete message that a slow connection has not
    /// been sent yet; that connection then sees a gap in `seq` where only
    /// such messages were (see docs/PROTOCOL.md, "Sequence numbers").
    public var coalescingKey: String? {
        switch self {
        case let .progress(info): "progress:\(info.id.rawValue)"
        case let .tab(info): "tab:\(info.id.rawValue)"
        case let .follow(info): "follow:\(info.id.rawValue)"
        case let .cursor(info): "cursor:\(info.id.rawValue)"
        case let .pointer(info): info.lead ? "pointer:lead" : "pointer:\(info.id.rawValue)"
        case let .output(info): "output:\(info.block)"
        case let .room(envelope): envelope.message.payload.coalescingKey.map { "relay:" + $0 }
        case .welcome, .joined, .left, .document, .edit, .ack, .limit, .error, .overview, .relay, .question, .summon: nil
        }
    }
}
