/// A message from the server. Every one carries the room's `seq`, which
/// increases by one per broadcast; messages to one client carry the current
/// value (see docs/PROTOCOL.md). A slow connection may be spared latest-wins
/// broadcasts a newer one made obsolete (see `coalescingKey`).
public struct ServerMessage: Equatable, Sendable {
    public enum Payload: Equatable, Sendable {
        case welcome(Welcome)
        case joined(ReaderInfo)
        case left(ReaderInfo)
        case document(DocumentPublished)
        case progress(ProgressInfo)
        case tab(TabInfo)
        case follow(FollowInfo)
        case edit(EditInfo)
        case cursor(CursorInfo)
        case ack(rev: Int)
        case limit(LimitInfo)
        case error(ProtocolError)
        /// To an observer of every room, instead of `welcome`.
        case overview(Overview)
        /// Another room's message relayed to an observer (see `RoomEnvelope`).
        indirect case room(RoomEnvelope)
        case relay(RelayInfo)
        /// A pointer was set, moved or cleared (added after v1).
        case pointer(PointerInfo)
        /// A question was asked, marked answered, or carried onto a new
        /// version of the document (added after v1).
        case question(QuestionInfo)
        /// A snippet's output, as the presenter's run made it so far (added after v1).
        case output(SnippetOutput)
        /// The presenter brought the detached followers back (added after v1).
        case summon(SummonInfo)
    }

    public var seq: Int
    public var payload: Payload

    public init(seq: Int, _ payload: Payload) {
        self.seq = seq
        self.payload = payload
    }

    /// The wire `type` of this message.
    public var type: String { payload.kind.rawValue }

    /// The server messages' wire `type`s, listed once: the decoder and the
    /// server's metrics read this (the order is the metrics' order).
    public enum Kind: String, CaseIterable, Sendable {
        case welcome, joined, left, document, progress, tab, follow, edit, cursor, ack, limit, error, relay, overview, pointer, room, question
        case output, summon
    }
}

extension ServerMessage.Payload {
    /// Which message this is: its wire `type`.
    public var kind: ServerMessage.Kind {
        switch self {
        case .welcome: .welcome
        case .joined: .joined
        case .left: .left
        case .document: .document
        case .progress: .progress
        case .tab: .tab
        case .follow: .follow
        case .edit: .edit
        case .cursor: .cursor
        case .ack: .ack
        case .limit: .limit
        case .error: .error
        case .relay: .relay
        case .overview: .overview
        case .pointer: .pointer
        case .room: .room
        case .question: .question
        case .output: .output
        case .summon: .summon
        }
    }
}

extension ServerMessage: Codable {
    enum Key: String, CodingKey { case type, seq, reader, rev, code, message, room, to, retryAfter }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(type, forKey: .type)
        try c.encode(seq, forKey: .seq)
        switch payload {
        case let .welcome(v): try v.encode(to: encoder)
        case let .joined(v), let .left(v): try c.encode(v, forKey: .reader)
        case let .document(v): try v.encode(to: encoder)
        case let .progress(v): try v.encode(to: encoder)
        case let .tab(v): try v.encode(to: encoder)
        case let .follow(v): try v.encode(to: encoder)
        case let .edit(v): try v.encode(to: encoder)
        case let .cursor(v): try v.encode(to: encoder)
        case let .ack(rev): try c.encode(rev, forKey: .rev)
        case let .limit(v): try v.encode(to: encoder)
        case let .relay(v): try v.encode(to: encoder)
        case let .pointer(v): try v.encode(to: encoder)
        case let .question(v): try v.encode(to: encoder)
        case let .output(v): try v.encode(to: encoder)
        case let .summon(v): try v.encode(to: encoder)
        case let .error(e):
            try c.encode(e.code.rawValue, forKey: .code)
            try c.encode(e.message, forKey: .message)
            try c.encodeIfPresent(e.retryAfter, forKey: .retryAfter)
        case let .overview(v): try v.encode(to: encoder)
        case let .room(v):
            try c.encode(v.room, forKey: .room)
            try c.encodeIfPresent(v.to, forKey: .to)
            try c.encode(v.message, forKey: .message)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        seq = try c.decode(Int.self, forKey: .seq)
        let type = try c.decode(String.self, forKey: .type)
        guard let kind = ServerMessage.Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "unknown server message type \(type)")
        }
        switch kind {
        case .welcome: payload = .welcome(try Welcome(from: decoder))
        case .joined: payload = .joined(try c.decode(ReaderInfo.self, forKey: .reader))
        case .left: payload = .left(try c.decode(ReaderInfo.self, forKey: .reader))
        case .document: payload = .document(try DocumentPublished(from: decoder))
        case .progress: payload = .progress(try ProgressInfo(from: decoder))
        case .tab: payload = .tab(try TabInfo(from: decoder))
        case .follow: payload = .follow(try FollowInfo(from: decoder))
        case .edit: payload = .edit(try EditInfo(from: decoder))
        case .cursor: payload = .cursor(try CursorInfo(from: decoder))
        case .ack: payload = .ack(rev: try c.decode(Int.self, forKey: .rev))
        case .limit: payload = .limit(try LimitInfo(from: decoder))
        case .relay: payload = .relay(try RelayInfo(from: decoder))
        case .pointer: payload = .pointer(try PointerInfo(from: decoder))
        case .question: payload = .question(try QuestionInfo(from: decoder))
        case .output: payload = .output(try SnippetOutput(from: decoder))
        case .summon: payload = .summon(try SummonInfo(from: decoder))
        case .error:
            let code = try c.decode(String.self, forKey: .code)
            guard let known = ErrorCode(rawValue: code) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .code, in: c, debugDescription: "unknown error code \(code)")
            }
            payload = .error(ProtocolError(known, try c.decode(String.self, forKey: .message),
                                           retryAfter: try c.decodeIfPresent(Int.self, forKey: .retryAfter)))
        case .overview: payload = .overview(try Overview(from: decoder))
        case .room:
            payload = .room(RoomEnvelope(room: try c.decodeIfPresent(String.self, forKey: .room),
                                         to: try c.decodeIfPresent(ClientID.self, forKey: .to),
                                         message: try c.decode(ServerMessage.self, forKey: .message)))
        }
    }
}
