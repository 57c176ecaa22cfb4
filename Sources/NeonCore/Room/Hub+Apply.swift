extension Hub {
    /// Routes one connection event to its room at `time`.
    public mutating func apply(_ event: HubEvent, at time: Duration) -> [RoomOutput] {
        switch event {
        case let .received(id, message):
            return receive(message, from: id, at: time)
        case let .verifiedHello(id, message):
            return receive(message, from: id, verified: true, at: time)
        case let .rejected(id, error):
            return refuse(id, error)
        case let .watch(id, name, scope):
            if let current = sessions[id] ?? (watchers.contains(id) ? Self.everyRoom : nil) {
                return refuse(id, ProtocolError(.alreadyJoined,
                    "you already joined room \"\(current)\"; open another connection to join another room"))
            }
            return watch(id, name: name, role: .observer, scope: scope)
        case let .disconnected(id):
            if let index = watchers.firstIndex(of: id) {
                watchers.remove(at: index)
                watchScopes[id] = nil
                return []
            }
            guard let room = sessions.removeValue(forKey: id) else { return [] }
            return rooms[room]?.apply(.left(id), at: time) ?? []
        }
    }

    private mutating func receive(_ message: ClientMessage, from id: ClientID, verified: Bool = false,
                                  at time: Duration) -> [RoomOutput] {
        if case let .hello(room, name, role, profile, draftRev, _, resume, notes) = message {
            return hello(id, room: room, name: name, role: role, profile: profile ?? .graphemes, draftRev: draftRev,
                         resume: resume, notes: notes == true, verified: verified, at: time)
        }
        if watchers.contains(id) {
            return refuse(id, ProtocolError(.notAllowed,
                "you watch every room as an observer, which cannot send \"\(message.type)\"; join a room by name to take part"))
        }
        guard let room = sessions[id] else {
            return refuse(id, ProtocolError(.notJoined,
                "send hello {room, name, role} before \"\(message.type)\""))
        }
        let event: RoomEvent
        var told: [RoomOutput] = []
        switch message {
        case .hello: preconditionFailure("handled above")
        case let .document(title, format, text, parser, images, unshown, revises):
            event = .documentPublished(id, DocumentInfo(title: title, format: format, text: text, images: images, unshown: unshown),
                                       revises: revises)
            if let parser, parser != Document.parserIdentity {
                told = refuse(id, ProtocolError(.parserMismatch,
                    "your client numbers the blocks of documents as \"\(parser)\", this server as \"\(Document.parserIdentity)\": the document is the room's, but anchors your client sends or follows may point to other text; use a client that numbers blocks the same way"))
            }
        case let .scroll(top, viewport, content, anchor, step):
            event = .scrolled(id, top: top, viewport: viewport, content: content, anchor: anchor, step: step)
        case let .tab(section): event = .tabSelected(id, section: section)
        case let .follow(on): event = .followChanged(id, on: on)
        case let .edit(rev, ops, key): event = .draftEdited(id, rev: rev, ops: ops, key: key)
        case let .cursor(position, rev): event = .cursorMoved(id, position: position, rev: rev)
        case let .relay(data): event = .relayed(id, data: data)
        case let .point(anchor, length): event = .pointed(id, anchor: anchor, length: length)
        case .unpoint: event = .unpointed(id)
        case let .pointing(who): event = .pointingChanged(id, who)
        case let .ask(anchor, length, text): event = .asked(id, anchor: anchor, length: length, text: text)
        case let .answered(question): event = .questionAnswered(id, question: question)
        case .summon: event = .summoned(id)
        case let .output(block, text, state, exit): event = .outputSent(id, block: block, text: text, state: state, exit: exit)
        }
        return (rooms[room]?.apply(event, at: time) ?? []) + told
    }

    private mutating func hello(_ id: ClientID, room: String, name: String, role: Role,
                                profile: CountingProfile, draftRev: Int?, resume: String?, notes: Bool = false,
                                verified: Bool = false, at time: Duration) -> [RoomOutput] {
        if let current = sessions[id] ?? (watchers.contains(id) ? Self.everyRoom : nil) {
            return refuse(id, ProtocolError(.alreadyJoined,
                "you already joined room \"\(current)\"; open another connection to join another room"))
        }
        if room == Self.everyRoom {
            return watch(id, name: name, role: role)
        }
        if let problem = Self.problem(withRoom: room) {
            return refuse(id, ProtocolError(.invalidRoom, problem))
        }
        if let problem = Self.problem(withName: name) {
            return refuse(id, ProtocolError(.invalidName, problem))
        }
        if let resume, let problem = Self.problem(withResume: resume) {
            return refuse(id, ProtocolError(.invalidMessage, problem))
        }
        if notes, role != .observer {
            return refuse(id, ProtocolError(.invalidMessage,
                "\"notes\" says the connection is a presenter's notes screen, which joins as an observer; send it with role \"observer\""))
        }
        let isNew = rooms[room] == nil
        var replaced: [RoomOutput] = []
        if let resume, let earlier = rooms[room]?.member(resuming: resume), earlier != id {
            // The same client's earlier connection, not yet known to be
            // gone (its server died): it leaves, this one takes its place.
            // (Recipients are resolved after this hello joined: its own
            // connection is not told that its predecessor left.)
            sessions[earlier] = nil
            replaced = rooms[room]!.apply(.left(earlier), at: time).map { output in
                guard case let .broadcast(message, room, nil) = output else { return output }
                return .broadcast(message, room: room, except: id)
            }
        }
        if isNew {
            guard rooms.count < maxRooms else {
                return refuse(id, ProtocolError(.serverFull,
                    "this server holds its maximum of \(maxRooms) rooms; join an existing room or try later"))
            }
            rooms[room] = RoomState(name: room, limits: limits, profile: profile)
        }
        var out = replaced + rooms[room]!.apply(.joined(id, name: name, role: role, draftRev: draftRev, resume: resume,
                                                                   verified: verified, notes: notes), at: time)
        if rooms[room]!.members[id] != nil {
            sessions[id] = room
            if isNew {
                let counter = rooms[room]!.counter
                out.insert(.persist(.roomCreated(room: room, profile: counter.profile.rawValue, limit: counter.limit)), at: 0)
            }
        } else if isNew {
            rooms[room] = nil
        }
        return out
    }

    /// An observer starts watching every room: it gets an overview now and
    /// every room's broadcasts from here on.
    private mutating func watch(_ id: ClientID, name: String, role: Role, scope: String? = nil) -> [RoomOutput] {
        guard role == .observer else {
            return refuse(id, ProtocolError(.invalidRoom,
                "\"*\" stands for every room and only an observer can watch it; send role \"observer\", or join a room by name"))
        }
        if let problem = Self.problem(withName: name) {
            return refuse(id, ProtocolError(.invalidName, problem))
        }
        watchers.append(id)
        watchScopes[id] = scope
        let overview = overview(for: id)
        return [.send(ServerMessage(seq: 0, .overview(overview)), to: id),
                .log(LogRecord(.info, .watch, client: id,
                               [LogField("name", .string(name)), LogField("scope", .string(scope ?? Self.everyRoom)),
                                LogField("rooms", .int(overview.rooms.count)), LogField("watchers", .int(watchers.count))]))]
    }

    /// An error for a connection, stamped with its room's current seq.
    private func refuse(_ id: ClientID, _ error: ProtocolError) -> [RoomOutput] {
        let room = sessions[id]
        let seq = room.flatMap { rooms[$0]?.seq } ?? 0
        return [.send(ServerMessage(seq: seq, .error(error)), to: id),
                .log(LogRecord(.warn, .error, room: room, client: id,
                               [LogField("code", .string(error.code.rawValue)),
                                LogField("message", .string(error.message))]))]
    }

    /// What is wrong with `room` as a room name, or nil when it is one.
    public static func problem(withRoom room: String) -> String? {
        if room.isEmpty {
            return "the room name is empty; a room name is 1–\(maxRoomNameLength) characters without spaces or control characters, such as \"team-notes\""
        }
        if room.count > maxRoomNameLength {
            return "the room name has \(room.count) characters; a room name is 1–\(maxRoomNameLength) characters without spaces or control characters"
        }
        if room.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return "the room name \"\(room.debugDescription.dropFirst().dropLast())\" contains spaces or control characters; a room name is 1–\(maxRoomNameLength) characters without spaces or control characters"
        }
        return nil
    }

    /// What is wrong with a hello's resume secret, or nil when it is one.
    static func problem(withResume resume: String) -> String? {
        guard (16 ... 128).contains(resume.utf8.count), resume.utf8.allSatisfy({ (0x21 ... 0x7E).contains($0) }) else {
            return "resume must be 16 to 128 printable ASCII characters without spaces: a random secret the client chooses once per session"
        }
        return nil
    }

    /// What is wrong with `name` as a user name, or nil when it is one.
    public static func problem(withName name: String) -> String? {
        let trimmed = name.trimmingWhitespace
        if trimmed.isEmpty { return "the name is empty; send the name others will see, such as \"ada\"" }
        if name.count > maxNameLength {
            return "the name has \(name.count) characters; use at most \(maxNameLength)"
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the name contains control characters; use printable characters only"
        }
        return nil
    }
}

extension String {
    var trimmingWhitespace: Substring {
        var s = self[...]
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return s
    }
}
