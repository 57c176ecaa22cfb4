import NeonCore

extension ReaderModel {
    /// The connection opened: say hello.
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        connection = .connecting
        sentPlace = nil
        return [.send(.hello(room: room, name: name, role: mode.role, draftRev: draft.resumeRevision))]
    }

    /// The connection closed or could not open: the reader reads alone
    /// (a local file is on screen already) and is told what to do until
    /// the room is back. Each failed try says it again, so it stays.
    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        connection = .closed(reason)
        animation = nil
        offlineSentence = Self.offlineNotice(room: room, reason: reason)
        notice = Notice(text: offlineSentence, isError: true, until: time + .seconds(3600))
        return []
    }

    /// What the status line says while `room` cannot be reached: what to
    /// do, which is the transport's own suggestion when it has one (a
    /// `ws://` URL for a plain port, `wss://` for a TLS one), after
    /// `cannot reach URL: `.
    static func offlineNotice(room: String, reason: String) -> String {
        guard reason.contains(" try ws://") || reason.contains(" try wss://"),
              let why = reason.split(separator: ": ", maxSplits: 1).last else {
            return "room \(room) is offline: start neonsyncd or check --server"
        }
        return "room \(room) is offline: \(why)"
    }

    /// A message from the server.
    public mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand] {
        var draftCommands: [ClientCommand] = []
        switch message.payload {
        case .welcome:
            draftCommands = draft.receive(message, at: time)
        case .joined, .left:
            _ = draft.receive(message, at: time)
        case .edit, .ack, .cursor, .relay:
            return draft.receive(message, at: time)
        case .limit:
            _ = draft.receive(message, at: time)
        default:
            break
        }
        switch message.payload {
        case let .welcome(welcome): return welcomed(welcome, at: time) + draftCommands
        case let .joined(info):
            readers.removeAll { $0.id == info.id }
            readers.append(info)
            anchors[info.id] = info.anchor
            if info.role == .presenter { presenter = info.id }
            note("\(info.name) joined as \(info.role.rawValue)", error: false, at: time)
            if info.role == .presenter, isFollowing, info.id != me, let anchor = info.anchor {
                return reposition(to: anchor, atBottom: info.atBottom, at: time)
            }
        case let .left(info):
            readers.removeAll { $0.id == info.id }
            anchors[info.id] = nil
            if presenter == info.id { presenter = nil }
            note("\(info.name) left", error: false, at: time)
        case let .document(published):
            publishing = nil
            if published.info != shownDocument { show(published.info, at: time) }
            if published.by != me {
                note("\(title(of: published.by)) published “\(published.title)”", error: false, at: time)
            }
            return moved(at: time)
        case let .progress(p): return progressed(p, at: time)
        case let .tab(t): return tabChanged(t, at: time)
        case let .follow(f):
            update(f.id) { $0.following = f.on }
        case let .limit(l):
            note("draft: \(l.level.rawValue) — \(l.count)/\(l.limit), \(l.remaining) left", error: l.level >= .limit, at: time)
        case let .overview(overview):
            if document == nil, let sentence = RoomSuggestions.sentence(for: room, among: overview.rooms.map(\.room)) {
                notice = Notice(text: sentence, isError: true, until: time + .seconds(3600))
            }
        case .edit, .ack, .cursor, .room, .relay:
            break
        case let .error(e):
            return failed(e, at: time)
        }
        return []
    }

    private mutating func welcomed(_ welcome: Welcome, at time: Duration) -> [ClientCommand] {
        connection = .joined
        if notice?.text == offlineSentence { notice = nil }
        me = welcome.you
        readers = welcome.readers
        presenter = welcome.presenter
        var out: [ClientCommand] = []
        if let info = welcome.document {
            if let mine = pendingDocument, mode != .present, mine != info {
                connection = .closed("the room has another document")
                return [.refused(Refusal(otherDocument: info, than: mine, room: room))]
            }
            if mode == .present, let mine = pendingDocument, mine != info {
                out.append(publish(mine))
            } else if info != shownDocument {
                show(info, at: time)
            } else {
                out += chooseHeldTabAgain(at: time)
            }
        } else if let mine = pendingDocument {
            out.append(publish(mine))
        } else {
            note("room \(room) has no document yet; waiting for one", error: false, at: time)
            out.append(.listRooms)
        }
        pendingDocument = nil
        // Everyone already placed is in the gutter from the first frame, and
        // a follower lands on its presenter's text at once.
        anchors = Dictionary(welcome.readers.compactMap { reader in reader.anchor.map { (reader.id, $0) } },
                             uniquingKeysWith: { $1 })
        if following { out.append(.send(.follow(on: true))) }
        if isFollowing, let presenter, presenter != me, let anchor = anchors[presenter] {
            out += reposition(to: anchor, atBottom: readers.first { $0.id == presenter }?.atBottom ?? false, at: time)
        } else {
            out += moved(at: time)
        }
        return out
    }

    private mutating func publish(_ mine: DocumentInfo) -> ClientCommand {
        publishing = mine
        return .send(.document(title: mine.title, format: mine.format, text: mine.text, parser: Document.parserIdentity))
    }

    private mutating func progressed(_ p: ProgressInfo, at time: Duration) -> [ClientCommand] {
        update(p.id) { reader in
            reader.percent = p.percent
            reader.atBottom = p.atBottom
            reader.section = p.section
            reader.anchor = p.anchor
        }
        anchors[p.id] = p.anchor
        if p.id == presenter, isFollowing, p.id != me {
            return reposition(to: p.anchor, atBottom: p.atBottom, at: time)
        }
        return []
    }

    /// A reader's tab changed. A follower does not jump by itself: the
    /// presenter's `progress` moves it, and its header shows the presenter's
    /// section (`currentSection`).
    private mutating func tabChanged(_ t: TabInfo, at time: Duration) -> [ClientCommand] {
        update(t.id) { $0.section = t.section }
        return []
    }

    private mutating func failed(_ e: ProtocolError, at time: Duration) -> [ClientCommand] {
        if let refusal = Refusal(e, room: room) ?? publishing.flatMap({ Refusal(e, publishing: $0, room: room) }) {
            connection = .closed(e.message)
            return [.refused(refusal)]
        }
        if e.code == .alreadyJoined { connection = .closed(e.message) }
        note(e.message, error: true, at: time)
        return []
    }

    private mutating func update(_ id: ClientID, _ change: (inout ReaderInfo) -> Void) {
        guard let index = readers.firstIndex(where: { $0.id == id }) else { return }
        change(&readers[index])
    }
}
