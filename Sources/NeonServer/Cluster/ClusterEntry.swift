import NeonCore

/// One event in a room's log in Redis (stream `neonsync:{room}:log`, entry
/// ID `n-0`): every node applies a room's entries in this one order, so the
/// same event yields the same `seq` and state on every node.
struct ClusterEntry: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// A client message (`message` holds its JSON, token removed).
        case message = "m"
        /// The client's connection closed.
        case bye = "b"
        /// Node incarnation `origin` is gone (killed, or lost Redis too long):
        /// every member it had in the room leaves.
        case gone = "g"
    }

    /// The entry's position in the room's log, from 1.
    var index: Int
    var kind: Kind
    var client: String
    /// The incarnation (generation number) of the node that appended it.
    var origin: Int
    /// The origin node's wall clock when the event happened, ns since 1970.
    var time: Int64
    var message: String

    /// The stream fields this entry is stored as.
    var fields: [String] {
        ["k", kind.rawValue, "c", client, "o", String(origin), "t", String(time), "m", message]
    }

    /// Reads one stream entry (`[id, [field, value, …]]`).
    init?(_ reply: RedisReply) {
        guard let pair = reply.array, pair.count == 2, let id = pair[0].text,
              let index = Int(id.prefix { $0 != "-" }), let flat = pair[1].array else { return nil }
        var values: [String: String] = [:]
        var i = 0
        while i + 1 < flat.count {
            if let key = flat[i].text { values[key] = flat[i + 1].text ?? "" }
            i += 2
        }
        guard let kind = values["k"].flatMap(Kind.init(rawValue:)), let origin = values["o"].flatMap({ Int($0) }),
              let time = values["t"].flatMap({ Int64($0) }) else { return nil }
        self.init(index: index, kind: kind, client: values["c"] ?? "", origin: origin, time: time,
                  message: values["m"] ?? "")
    }

    /// Reads a published entry: index (from 1) and values joined by U+001F.
    init?(published payload: [UInt8]) {
        let parts = payload.split(separator: 0x1F, maxSplits: 5, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard parts.count == 6, let index = Int(parts[0]), index >= 1, let kind = Kind(rawValue: parts[1]),
              let origin = Int(parts[3]), let time = Int64(parts[4]) else { return nil }
        self.init(index: index, kind: kind, client: parts[2], origin: origin, time: time, message: parts[5])
    }

    init(index: Int = 0, kind: Kind, client: String, origin: Int, time: Int64, message: String = "") {
        self.index = index; self.kind = kind; self.client = client; self.origin = origin
        self.time = time; self.message = message
    }
}

extension ClusterEntry {
    /// An event as the room's log keeps it: the message as JSON, a hello
    /// without its token.
    init(_ entry: RoomEntry) {
        switch entry.event {
        case let .message(message):
            let json = String(decoding: WireCodec().encode(message.withoutToken), as: UTF8.self)
            self.init(kind: .message, client: entry.client.rawValue, origin: entry.origin,
                      time: entry.time.inNanoseconds, message: json)
        case .bye:
            self.init(kind: .bye, client: entry.client.rawValue, origin: entry.origin, time: entry.time.inNanoseconds)
        case .gone:
            self.init(kind: .gone, client: entry.client.rawValue, origin: entry.origin, time: entry.time.inNanoseconds)
        }
    }

    /// The event again; nil for a message that does not decode.
    func roomEntry(_ codec: WireCodec) -> RoomEntry? {
        let event: RoomEntry.Event
        switch kind {
        case .message:
            guard case let .success(decoded) = codec.decodeClient(message.utf8) else { return nil }
            event = .message(decoded)
        case .bye: event = .bye
        case .gone: event = .gone
        }
        return RoomEntry(event: event, client: ClientID(client), origin: origin, time: .nanoseconds(time), index: index)
    }
}

extension ClientMessage {
    /// The message as a room's log keeps it: a hello without its token.
    var withoutToken: ClientMessage {
        guard case let .hello(room, name, role, profile, draftRev, token, resume) = self, token != nil else { return self }
        return .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: nil, resume: resume)
    }
}

/// What the cluster link hands the service thread, in order.
enum ClusterDelivery: Sendable {
    /// The node took up `room`: its image at the last snapshot (nil: none
    /// yet, the room starts empty) and the entries after it. Replaces any
    /// replica the node had (after a gap in the log, too).
    case loaded(room: String, image: String?, entries: [ClusterEntry])
    /// The next entries of a room the node holds.
    case entries(room: String, [ClusterEntry])
    /// An entry could not be appended (Redis unreachable): the client is told.
    case failed(client: String, reason: String)
    /// Redis came or went.
    case redis(up: Bool, reason: String)
    /// Survivors reaped this node while it could not reach Redis: its
    /// members are gone from every room, so its connections must start over.
    case lostMembership
}
