import NeonCore

extension ReaderModel {
    /// The connection opened: say hello.
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        connection = .connecting
        outbox.reset()
        draft.opened()
        return [.send(.hello(room: room, name: name, role: mode.role, draftRev: draft.resumeRevision))]
    }

    /// The connection closed or could not open: the reader reads alone
    /// (a local file is on screen already) and is told what to do until
    /// the room is back. Each failed try says it again, so it stays.
    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        connection = .closed(reason)
        _ = draft.disconnected(reason, at: time)
        pane.stop()
        offlineSentence = Self.offlineNotice(room: room, reason: reason)
        notices.pin(offlineSentence, at: time)
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
        case let .welcome(welcome):
            let out = welcomed(welcome, at: time) + draftCommands
            // The room's outputs, of the document the welcome brought.
            snippets.outputs = welcome.outputs ?? []
            return out
        case let .joined(info):
            // A presenter's notes screen is not the audience's business.
            guard presence.shows(info) else { return [] }
            presence.joined(info)
            notices.pass("\(info.name) joined as \(info.role.rawValue)", at: time)
            // A presenter who comes back is where it left, slides included.
            if info.role == .presenter, info.id != presence.me, info.anchor != nil {
                return repositionOnPresenter(at: time) ?? []
            }
        case let .left(info):
            guard presence.shows(info) else { return [] }
            presence.left(info.id)
            pointers.left(info.id)
            notices.pass("\(info.name) left", at: time)
        case let .output(output): return outputReceived(output)
        case let .summon(info): return summoned(info, at: time)
        case let .document(published):
            if published.info != pane.shownDocument { snippets.documentChanged() }
            publishing = nil
            return documentPublished(published, at: time)
        case let .progress(p): return progressed(p, at: time)
        case let .pointer(p): return pointerReceived(p, at: time)
        case let .question(q): questionReceived(q, at: time)
        case let .tab(t): return tabChanged(t, at: time)
        case let .follow(f):
            presence.update(f.id) { $0.following = f.on }
        case let .limit(l):
            notices.note("draft: \(l.level.rawValue) — \(l.count)/\(l.limit), \(l.remaining) left", error: l.level >= .limit, at: time)
        case let .overview(overview):
            if pane.document == nil, let sentence = RoomSuggestions.sentence(for: room, among: overview.rooms.map(\.room)) {
                notices.pin(sentence, at: time)
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
        notices.clear(saying: offlineSentence)
        let firstWelcome = presence.me == nil
        presence.welcomed(welcome)
        serverLimits = welcome.limits
        // A document sent but never seen back (the connection went first:
        // a server that closed it for its size) is sent again, or refused.
        if pendingDocument == nil, let unconfirmed = publishing { pendingDocument = unconfirmed }
        publishing = nil
        pointers.welcomed(welcome)
        questions.welcomed(welcome)
        var out: [ClientCommand] = mode == .present ? [.send(.pointing(who: pointing))] : []
        if let info = welcome.document {
            roomVersion = info.version
            if let mine = pendingDocument, mine != info, isEarlierVersion(info, of: mine) {
                // FILE changed while the room was away: its latest version
                // is the room's next, and everyone keeps their place.
                out += publishVersion(mine, notes: notes.notes, at: time)
            } else if let mine = pendingDocument, mode != .present, mine != info {
                connection = .closed("the room has another document")
                return [.refused(Refusal(otherDocument: info, than: mine, room: room))]
            }
            if let mine = pendingDocument, mine != info, isEarlierVersion(info, of: mine) {
                // Published above as the next version: this screen shows it already.
            } else if mode == .present, let mine = pendingDocument, mine != info {
                if let refusal = refusal(publishing: mine) { return [.refused(refusal)] }
                out.append(publish(mine))
            } else if info != pane.shownDocument {
                show(info, at: time)
            } else {
                out += chooseHeldTabAgain(at: time)
            }
        } else if let mine = pendingDocument {
            if let refusal = refusal(publishing: mine) { return [.refused(refusal)] }
            out.append(publish(mine))
        } else {
            notices.note("room \(room) has no document yet; waiting for one", error: false, at: time)
            out.append(.listRooms)
        }
        pendingDocument = nil
        takeKeptPlace(welcome, firstWelcome: firstWelcome, at: time)
        // Everyone already placed (the welcome's anchors) is in the gutter
        // from the first frame, and a follower lands on its presenter's text
        // at once.
        if pane.following { out.append(.send(.follow(on: true))) }
        out += repositionOnPresenter(at: time) ?? moved(at: time)
        return out
    }

    /// The refusal that ends this client when the server would not take
    /// `mine` (its welcome's limits say so, before it is sent), else nil.
    private mutating func refusal(publishing mine: DocumentInfo) -> Refusal? {
        guard let error = serverLimits?.refusal(of: mine), let refusal = Refusal(error, publishing: mine, room: room) else {
            return nil
        }
        connection = .closed(error.message)
        return refusal
    }

    /// Sends `mine` as the room's document, awaited until it comes back.
    private mutating func publish(_ mine: DocumentInfo) -> ClientCommand {
        publishing = mine
        knownVersions.insert(Self.textKey(mine.text))
        return .send(.document(title: mine.title, format: mine.format, text: mine.text, parser: Document.parserIdentity,
                               images: mine.images, unshown: mine.unshown))
    }

    private mutating func progressed(_ p: ProgressInfo, at time: Duration) -> [ClientCommand] {
        if p.id == presence.presenter, presence.anchor(of: p.id) != p.anchor { pointers.leadIsNews = false }
        presence.progressed(p)
        guard p.id == presence.presenter, p.id != presence.me else { return [] }
        matchPresenterSlides(p.slidePlace)
        guard isFollowing else { return [] }
        if let place = p.slidePlace { return followSlide(anchor: p.anchor, place: place, at: time) }
        return reposition(to: p.anchor, atBottom: p.atBottom, at: time)
    }

    /// A reader's tab changed. A follower does not jump by itself: the
    /// presenter's `progress` moves it, and its header shows the presenter's
    /// section (`currentSection`).
    private mutating func tabChanged(_ t: TabInfo, at time: Duration) -> [ClientCommand] {
        presence.update(t.id) { $0.section = t.section }
        return []
    }

    private mutating func failed(_ e: ProtocolError, at time: Duration) -> [ClientCommand] {
        if let revising, Self.versionRefusals.contains(e.code) {
            self.revising = nil
            notices.note("\(revising.info.title) changed, but the room keeps the version it has: \(e.message)", error: true, at: time)
            return []
        }
        if let refusal = Refusal(e, room: room) ?? publishing.flatMap({ Refusal(e, publishing: $0, room: room) }) {
            connection = .closed(e.message)
            return [.refused(refusal)]
        }
        if e.code == .alreadyJoined { connection = .closed(e.message) }
        notices.note(e.message, error: true, at: time)
        return []
    }
}
