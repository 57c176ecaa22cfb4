import NeonCore

/// One event in a room's log in Redis (stream `neonsync:{room}:log`, entry
/// ID `n-0`): every node applies a room's entries in this one order, so the
/// same event yields the same `seq` and state on every node.
struct ClusterEntry: Equatable, Sendable {
    enum Kind: String, Sendable {
        /// A client message (`message` holds its JSON, token removed).
        case message = "m"
        /// A hello whose name the origin node vouches for (its member came
        /// in on the Unix socket, `--unix`: the name is the login name the
        /// kernel gave); every node applies it as verified.
        case verifiedHello = "v"
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
        guard case let .success(entry) = Self.stored(reply) else { return nil }
        self = entry
    }

    /// Reads a published entry: index (from 1) and values joined by U+001F.
    init?(published payload: [UInt8]) {
        guard case let .success(entry) = Self.published(payload) else { return nil }
        self = entry
    }

    /// One stream entry (`[id, [field, value, …]]`), or what is wrong with it.
    static func stored(_ reply: RedisReply) -> Result<ClusterEntry, UndecodableEntryError> {
        guard let pair = reply.array, pair.count == 2, let id = pair[0].text else {
            return .failure(UndecodableEntryError(.log, index: nil, "it is not a stream entry (an ID and its fields)"))
        }
        guard let index = Int(id.prefix { $0 != "-" }), index >= 1 else {
            return .failure(UndecodableEntryError(.log, index: nil, "its ID \"\(id.prefix(40))\" does not start with an entry number"))
        }
        guard let flat = pair[1].array else {
            return .failure(UndecodableEntryError(.log, index: index, "it has no fields"))
        }
        var values: [String: String] = [:]
        var i = 0
        while i + 1 < flat.count {
            if let key = flat[i].text { values[key] = flat[i + 1].text ?? "" }
            i += 2
        }
        guard let kind = values["k"].flatMap(Kind.init(rawValue:)) else {
            return .failure(UndecodableEntryError(.log, index: index, "its kind k=\(Self.quoted(values["k"])) is not m, v, b or g"))
        }
        guard let origin = values["o"].flatMap({ Int($0) }), let time = values["t"].flatMap({ Int64($0) }) else {
            return .failure(UndecodableEntryError(.log, index: index,
                                        "its origin o=\(Self.quoted(values["o"])) or time t=\(Self.quoted(values["t"])) is not a number"))
        }
        return .success(ClusterEntry(index: index, kind: kind, client: values["c"] ?? "", origin: origin, time: time,
                                     message: values["m"] ?? ""))
    }

    /// A published entry (index from 1 and values joined by U+001F), or
    /// what is wrong with it.
    static func published(_ payload: [UInt8]) -> Result<ClusterEntry, UndecodableEntryError> {
        let parts = payload.split(separator: 0x1F, maxSplits: 5, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard let first = parts.first, let index = Int(first), index >= 1 else {
            return .failure(UndecodableEntryError(.publish, index: nil, "it does not start with an entry number"))
        }
        guard parts.count == 6 else {
            return .failure(UndecodableEntryError(.publish, index: index, "it has \(parts.count) of the 6 values an entry has"))
        }
        guard let kind = Kind(rawValue: parts[1]) else {
            return .failure(UndecodableEntryError(.publish, index: index, "its kind \(Self.quoted(parts[1])) is not m, v, b or g"))
        }
        guard let origin = Int(parts[3]), let time = Int64(parts[4]) else {
            return .failure(UndecodableEntryError(.publish, index: index,
                                        "its origin \(Self.quoted(parts[3])) or time \(Self.quoted(parts[4])) is not a number"))
        }
        return .success(ClusterEntry(index: index, kind: kind, client: parts[2], origin: origin, time: time,
                                     message: parts[5]))
    }

    /// A value for a sentence: quoted and cut short, or "missing".
    private static func quoted(_ value: String?) -> String {
        guard let value else { return "missing" }
        return "\"" + (value.count > 40 ? value.prefix(40) + "…" : value) + "\""
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
            let json = entry.text ?? String(decoding: WireCodec().encode(message.withoutToken), as: UTF8.self)
            self.init(kind: entry.verified ? .verifiedHello : .message, client: entry.client.rawValue, origin: entry.origin,
                      time: entry.time.inNanoseconds, message: json)
        case .bye:
            self.init(kind: .bye, client: entry.client.rawValue, origin: entry.origin, time: entry.time.inNanoseconds)
        case .gone:
            self.init(kind: .gone, client: entry.client.rawValue, origin: entry.origin, time: entry.time.inNanoseconds)
        }
    }

    /// The event again; nil for a message that does not decode.
    func roomEntry(_ codec: WireCodec) -> RoomEntry? {
        try? decoded(codec, from: .log).get()
    }

    /// The event again, or why it cannot be applied (read from `source`).
    func decoded(_ codec: WireCodec, from source: UndecodableEntryError.Source) -> Result<RoomEntry, UndecodableEntryError> {
        let event: RoomEntry.Event
        switch kind {
        case .message, .verifiedHello:
            switch codec.decodeClient(message.utf8) {
            case let .success(decoded): event = .message(decoded)
            case let .failure(error):
                return .failure(UndecodableEntryError(source, index: index, "its message does not decode (\(error.message))"))
            }
        case .bye: event = .bye
        case .gone: event = .gone
        }
        return .success(RoomEntry(event: event, client: ClientID(client), origin: origin, time: .nanoseconds(time),
                                  index: index, verified: kind == .verifiedHello))
    }
}

/// An entry or image read back from Redis that this node cannot apply, and
/// why: logged as `entry_undecodable`, never passed over in silence.
package struct UndecodableEntryError: Error, Equatable, Sendable {
    enum Source: String, Sendable {
        /// The copy published on the room's channel.
        case publish
        /// The entry in the room's log (read by the load script or XRANGE).
        case log
        /// The room's image (`neonsync:{room}:snap`).
        case image
    }

    var source: Source
    /// The entry's number (an image's: the entry it was taken after); nil
    /// when even that cannot be read.
    var index: Int?
    var reason: String

    init(_ source: Source, index: Int?, _ reason: String) {
        self.source = source; self.index = index; self.reason = reason
    }
}

extension ClientMessage {
    /// The message as a room's log keeps it: a hello without its token.
    var withoutToken: ClientMessage {
        guard case let .hello(room, name, role, profile, draftRev, token, resume, notes) = self, token != nil else { return self }
        return .hello(room: room, name: name, role: role, profile: profile, draftRev: draftRev, token: nil, resume: resume,
                      notes: notes)
    }
}

/// What the cluster link hands the service thread, in order. Entries and
/// images are decoded on the reader thread, before the room's index moves
/// past them.
package enum ClusterDelivery: Sendable {
    /// The node took up `room`: its image at the last snapshot (nil: none
    /// yet, the room starts empty) and the entries after it. Replaces any
    /// replica the node had (after a gap in the log, too); entries up to
    /// `applied` were handed over before.
    case loaded(room: String, image: RoomImage?, entries: [RoomEntry], applied: Int)
    /// The next entries of a room the node holds.
    case entries(room: String, [RoomEntry])
    /// Something read back for `room` could not be decoded; `action` says
    /// what the reader did about it.
    case undecodable(room: String, UndecodableEntryError, action: String)
    /// This node removed `room` from Redis: empty and idle past `--room-ttl`.
    case expired(room: String, idleSeconds: Int)
    /// `room` was removed from Redis (by any node): the replica goes.
    case removed(room: String)
    /// An entry could not be appended (Redis unreachable): the client is told.
    case failed(client: String, reason: String)
    /// Redis came or went.
    case redis(up: Bool, reason: String)
    /// The Sentinels promoted another master of a shard (`HOST:PORT`s).
    case failover(from: String?, to: String)
    /// Survivors reaped this node while it could not reach Redis: its
    /// members are gone from every room, so its connections must start over.
    case lostMembership
}
