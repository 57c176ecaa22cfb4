extension RoomState {
    /// Applies one event at `time` and returns what to send and log. A bad
    /// event returns an error for its sender and leaves the state unchanged.
    public mutating func apply(_ event: RoomEvent, at time: Duration) -> [RoomOutput] {
        switch event {
        case let .joined(id, name, role, draftRev, resume, verified, notes):
            return join(id, name: name, role: role, draftRev: draftRev, resume: resume, verified: verified, notes: notes)
        case let .left(id): return leave(id)
        case let .documentPublished(id, info, revises): return publish(info, by: id, revises: revises)
        case let .scrolled(id, top, viewport, content, anchor, step):
            return scroll(id, top: top, viewport: viewport, content: content, anchor: anchor, step: step, at: time)
        case let .tabSelected(id, section): return selectTab(section, by: id, at: time)
        case let .followChanged(id, on): return follow(id, on: on)
        case let .draftEdited(id, rev, ops, key): return edit(ops, rev: rev, key: key, by: id)
        case let .cursorMoved(id, position, rev): return moveCursor(id, to: position, rev: rev)
        case let .relayed(id, data): return relay(data, from: id)
        case let .pointed(id, anchor, length): return point(id, at: anchor, length: length)
        case let .unpointed(id): return unpoint(id)
        case let .pointingChanged(id, rule): return setPointing(rule, by: id)
        case let .asked(id, anchor, length, text): return ask(text, at: anchor, length: length, by: id)
        case let .questionAnswered(id, number): return markAnswered(number, by: id)
        case let .summoned(id): return summon(by: id)
        case let .outputSent(id, block, text, state, exit):
            return takeOutput(id, block: block, text: text, state: state, exit: exit)
        }
    }

    // MARK: - Membership

    private mutating func join(_ id: ClientID, name: String, role: Role, draftRev: Int?, resume: String?,
                               verified: Bool, notes: Bool) -> [RoomOutput] {
        if members[id] != nil {
            return refuse(id, .alreadyJoined, "you already joined room \"\(self.name)\"; open another connection to join again")
        }
        if order.count >= limits.maxMembers {
            return refuse(id, .roomFull, "room \"\(self.name)\" is full (\(limits.maxMembers) members); try again later or use another room")
        }
        if role == .presenter, let current = presenter, let holder = members[current] {
            return refuse(id, .presenterTaken, "room \"\(self.name)\" already has a presenter (\(holder.name)); join as a reader or follow them")
        }
        var member = Member(id: id, name: name, role: role)
        member.resume = resume
        member.verified = verified
        member.isNotesScreen = notes && role == .observer
        // A presenter who comes back under the same name starts where it
        // left: its followers, already there, do not move.
        let resumed = role == .presenter && resumePresenterPlace(of: &member)
        members[id] = member
        order.append(id)
        if role == .presenter { presenter = id }
        var out = [broadcast(.joined(member.info), except: id)]
        out.append(.send(ServerMessage(seq: seq, .welcome(welcome(for: id, draftRev: draftRev))), to: id))
        var fields = [LogField("name", .string(name)), LogField("role", .string(role.rawValue)),
                      LogField("members", .int(order.count))]
        if resumed { fields += [LogField("resumed", .bool(true)), LogField("percent", .int(member.percent))] }
        if member.isNotesScreen { fields.append(LogField("notes", .bool(true))) }
        out.append(.log(LogRecord(.info, .join, room: self.name, client: id, fields)))
        return out
    }

    private mutating func leave(_ id: ClientID) -> [RoomOutput] {
        guard let member = members.removeValue(forKey: id) else {
            return []
        }
        order.removeAll { $0 == id }
        if presenter == id { presenter = nil }
        pointers.removeAll { !$0.lead && $0.id == id }
        var fields = [LogField("name", .string(member.name)), LogField("role", .string(member.role.rawValue)),
                      LogField("percent", .int(member.percent)), LogField("members", .int(order.count))]
        if member.position != nil { fields.append(LogField("furthest", .int(max(member.furthest, member.percent)))) }
        return [
            broadcast(.left(member.info), except: nil),
            .log(LogRecord(.info, .leave, room: name, client: id, fields)),
        ]
    }

    // MARK: - Document

    /// A document for the room: its first, one that replaces it (the
    /// presenter's; everyone's place starts over), or, with `revises`, its
    /// next version, from the presenter or whoever published the current
    /// one: everyone's place and the pointers are carried onto it
    /// (`VersionMap`), and a pointer whose text is gone is cleared.
    private mutating func publish(_ info: DocumentInfo, by id: ClientID, revises: Int?) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers cannot publish a document; join as a reader or presenter")
        }
        let isVersion = revises != nil && document != nil
        let mayRevise = documentBy == id || (member.resume != nil && member.resume == documentSession)
        if document != nil, presenter != id, !(isVersion && mayRevise) {
            let sentence = isVersion
                ? "only the presenter or whoever published room \"\(name)\"'s document can publish its next version"
                : "room \"\(name)\" already has a document; only the presenter can replace it"
            return refuse(id, .documentExists, sentence)
        }
        let size = info.text.utf8.count
        if size > limits.maxDocumentBytes {
            return refuse(id, .documentTooLarge, "the document is \(size) bytes, over this server's limit of \(limits.maxDocumentBytes) bytes; split it or ask the operator to raise --max-document")
        }
        if let problem = DocumentImage.problem(with: info.images) ?? UnshownImage.problem(with: info.unshown, images: info.images) {
            let code: ErrorCode = problem.contains("over the limit") ? .documentTooLarge : .invalidDocument
            return refuse(id, code, "the document's images cannot be taken: \(problem)")
        }
        let parsed: Document
        do {
            parsed = try Document.parse(title: info.title, format: info.format, text: info.text)
        } catch {
            return refuse(id, .invalidDocument, "the document could not be read: \(error)")
        }
        if isVersion, document == info { return [] }
        let unchanged = document == info
        let previous = self.parsed
        documentVersion += 1
        var published = info
        published.version = documentVersion
        document = published
        self.parsed = parsed
        deck = SlideDeck(parsed)
        blockLengths = parsed.blocks.map { $0.text.count }
        documentBy = id
        documentSession = member.resume
        var map: VersionMap?
        if isVersion || unchanged, let previous {
            // A next version, or the same document again: places carry over.
            let versions = VersionMap(from: previous, to: parsed)
            for key in order { members[key]?.carryPlace(versions, deck: deck) }
            map = versions
        } else {
            for key in order { members[key]?.resetPlace() }
            pointers = []
        }
        let droppedQuestions = map == nil && !questions.isEmpty
        if droppedQuestions { questions = [] }
        // A snippet's output is of the code it ran: another document, or
        // another version of it, starts without outputs.
        if !unchanged { outputs = [] }
        let kept = keepPresenterPlace(carrying: map)
        var fields = [LogField("title", .string(info.title)), LogField("format", .string(info.format.rawValue)),
                      LogField("bytes", .int(size)), LogField("sections", .int(parsed.sections.count)),
                      LogField("blocks", .int(parsed.blocks.count)), LogField("version", .int(documentVersion))]
        if isVersion, let revises { fields.append(LogField("revises", .int(revises))) }
        if !info.images.isEmpty { fields.append(LogField("images", .int(info.images.count))) }
        if !info.unshown.isEmpty { fields.append(LogField("unshown", .int(info.unshown.count))) }
        var out: [RoomOutput] = [
            .persist(.documentSet(room: name, published)),
            broadcast(.document(DocumentPublished(published, by: id, revises: isVersion ? revises : nil)), except: nil),
        ] + kept
        // The pointers after the document, so they read on the new version.
        if let map { out += carryPointers(map) + carryQuestions(map) }
        if droppedQuestions { out.insert(.persist(.questionsKept(room: name, [])), at: 1) }
        out.append(.log(LogRecord(.info, .document, room: name, client: id, fields, content: [LogField("text", .string(info.text))])))
        return out
    }

    // MARK: - Reading

    private mutating func scroll(_ id: ClientID, top: Int, viewport: Int, content: Int,
                                 anchor: Anchor, step: Int?, at time: Duration) -> [RoomOutput] {
        guard var member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers watch and cannot share a reading position; join as a reader to scroll")
        }
        guard let parsed else {
            return refuse(id, .noDocument, "room \"\(name)\" has no document yet; send a document first")
        }
        let position: ReadingPosition
        do {
            position = try ReadingPosition(top: top, viewport: viewport, content: content)
        } catch {
            return refuse(id, .invalidPosition, error.description)
        }
        let blocks = blockLengths.count
        guard anchor.block >= 0, anchor.block < max(blocks, 1) else {
            return refuse(id, .invalidAnchor, "anchor block \(anchor.block) does not exist; the document has \(blocks) blocks (0–\(max(blocks - 1, 0)))")
        }
        let length = blocks == 0 ? 0 : blockLengths[anchor.block]
        guard anchor.offset >= 0, anchor.offset <= length else {
            return refuse(id, .invalidAnchor, "anchor offset \(anchor.offset) is outside block \(anchor.block), which has \(length) characters")
        }
        var place: SlidePlace?
        if let step {
            let deck = self.deck ?? SlideDeck(parsed)
            let slide = deck.slide(containing: anchor.block)
            let steps = deck.slides[slide].steps
            guard step >= 0, step < steps else {
                return refuse(id, .invalidPosition, "step \(step) does not exist on slide \(slide + 1), which is shown in \(steps) steps (0–\(steps - 1))")
            }
            place = SlidePlace(slide: slide, slides: deck.slides.count, step: step, steps: steps)
        }
        let oldStep = member.position.map { _ in member.percent / 10 }
        let oldSlide = member.slide
        let tabChanged = member.spy.observe(SpyPlace(document: parsed, anchor: anchor, position: position), at: time)
        member.position = position
        member.anchor = anchor
        member.slide = place
        member.furthest = max(member.furthest, member.percent)
        members[id] = member

        var out: [RoomOutput] = [broadcast(.progress(ProgressInfo(
            id: id, progress: member.progress, percent: member.percent,
            atBottom: member.atBottom, section: member.spy.current, anchor: anchor, slidePlace: place)), except: nil)]
        if tabChanged {
            out.append(broadcast(.tab(TabInfo(id: id, section: member.spy.current, source: .scrolled)), except: nil))
            out.append(tabLog(member, source: .scrolled))
        }
        let decile = member.percent / 10
        if decile != oldStep {
            out.append(.log(LogRecord(.info, .progress, room: name, client: id,
                                      [LogField("step", .int(decile * 10)), LogField("percent", .int(member.percent)),
                                       LogField("atBottom", .bool(member.atBottom)), LogField("section", .int(member.spy.current))])))
        }
        if let place, place != oldSlide {
            out.append(.log(LogRecord(.info, .slide, room: name, client: id,
                                      [LogField("slide", .int(place.slide)), LogField("slides", .int(place.slides)),
                                       LogField("step", .int(place.step)), LogField("steps", .int(place.steps))])))
        }
        if id == presenter { out += keepPresenterPlace(member.presenterPlace) }
        return out
    }

    private mutating func selectTab(_ section: Int, by id: ClientID, at time: Duration) -> [RoomOutput] {
        guard var member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers cannot choose tabs for the room; join as a reader")
        }
        guard parsed != nil else {
            return refuse(id, .noDocument, "room \"\(name)\" has no document yet, so it has no tabs")
        }
        let count = sectionCount
        guard section >= 0, section < count else {
            return refuse(id, .tabOutOfRange, "section \(section) does not exist; the document has \(count) sections (0–\(max(count - 1, 0)))")
        }
        member.spy.select(section, at: time, until: time + ScrollSpy.holdDuration)
        members[id] = member
        return [broadcast(.tab(TabInfo(id: id, section: section, source: .selected)), except: nil),
                tabLog(member, source: .selected)]
    }

    private func tabLog(_ member: Member, source: TabSource) -> RoomOutput {
        let title = parsed.flatMap { $0.sections.indices.contains(member.spy.current) ? $0.sections[member.spy.current].title : nil }
        return .log(LogRecord(.info, .tab, room: name, client: member.id,
                              [LogField("section", .int(member.spy.current)), LogField("title", .string(title ?? "")),
                               LogField("source", .string(source.rawValue))]))
    }

    private mutating func follow(_ id: ClientID, on: Bool) -> [RoomOutput] {
        guard var member = members[id] else { return unknown(id) }
        if member.role == .presenter {
            return refuse(id, .notAllowed, "the presenter leads and cannot follow")
        }
        guard member.following != on else { return [] }
        member.following = on
        if on { member.followed = true }
        members[id] = member
        return [broadcast(.follow(FollowInfo(id: id, on: on)), except: nil),
                .log(LogRecord(.info, .follow, room: name, client: id, [LogField("on", .bool(on))]))]
    }

    // MARK: - Draft

    private mutating func edit(_ ops: TextOperation, rev: Int, key: String?, by id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers cannot edit the draft; join as a reader")
        }
        if let key, let earlier = recentEdits.last(where: { $0.key == key }) {
            // A resent edit (its ack was lost to a reconnect): it counts once.
            return [.send(ServerMessage(seq: seq, .ack(rev: earlier.rev)), to: id)]
        }
        var next = draft
        let applied: TextOperation
        let revision: Int
        do {
            (applied, revision) = try next.receive(ops, basedOn: rev)
        } catch {
            return refuse(id, .editRejected, error.description)
        }
        if next.length > limits.maxDraftScalars {
            return refuse(id, .draftTooLarge, "the draft would be \(next.length) characters, over this server's limit of \(limits.maxDraftScalars); shorten it")
        }
        draft = next
        let before = draftCount
        draftCount = counter.count(draft.text)
        recentEdits.append(EditInfo(rev: revision, ops: applied, by: id, key: key))
        if recentEdits.count > draft.historyLimit { recentEdits.removeFirst(recentEdits.count - draft.historyLimit) }
        var out: [RoomOutput] = [.persist(.revisionAcked(room: name, revision: revision, operation: applied, text: draft.text,
                                                         by: id, key: key))]
        out += [broadcast(.edit(EditInfo(rev: revision, ops: applied, by: id, key: key)), except: id),
                   .send(ServerMessage(seq: seq, .ack(rev: revision)), to: id)]
        if let crossing = counter.crossing(fromCount: before, toCount: draftCount) {
            out.append(broadcast(.limit(LimitInfo(status: crossing.status, by: id)), except: nil))
            out.append(.log(LogRecord(crossing.to >= .limit ? .warn : .info, .limit, room: name, client: id,
                                      [LogField("draftLevel", .string(crossing.to.rawValue)), LogField("fromLevel", .string(crossing.from.rawValue)),
                                       LogField("count", .int(crossing.status.count)), LogField("remaining", .int(crossing.status.remaining)),
                                       LogField("limit", .int(crossing.status.limit))],
                                      content: [LogField("text", .string(draft.text))])))
        }
        return out
    }

    /// A draft cursor moved: shown to the others, never stored. A cursor at
    /// an older revision is dropped silently (the edits since moved it).
    private mutating func moveCursor(_ id: ClientID, to position: Int, rev: Int) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers have no cursor in the draft; join as a reader")
        }
        guard rev == draft.revision else {
            if rev > draft.revision {
                return refuse(id, .editRejected, "revision \(rev) does not exist yet (the draft is at \(draft.revision))")
            }
            return []
        }
        guard position >= 0, position <= draft.length else {
            return refuse(id, .invalidMessage, "cursor position \(position) is outside the draft, which has \(draft.length) characters")
        }
        return [broadcast(.cursor(CursorInfo(id: id, position: position, rev: rev)), except: id)]
    }

    // MARK: - Relay

    /// Passes a member's application message to the whole room, sender
    /// included, unchanged; nothing is kept or logged.
    private mutating func relay(_ data: String, from id: ClientID) -> [RoomOutput] {
        guard let member = members[id] else { return unknown(id) }
        if member.role == .observer {
            return refuse(id, .notAllowed, "observers watch and cannot send to the room; join as a reader to relay messages")
        }
        return [broadcast(.relay(RelayInfo(id: id, data: data)), except: nil)]
    }

    // MARK: - Helpers

    /// Stamps the next sequence number on a room-wide message (every
    /// broadcast, protocol v1; a slow connection may skip latest-wins ones,
    /// see `coalescingKey`).
    mutating func broadcast(_ payload: ServerMessage.Payload, except: ClientID?) -> RoomOutput {
        seq += 1
        return .broadcast(ServerMessage(seq: seq, payload), room: name, except: except)
    }

    func refuse(_ id: ClientID, _ code: ErrorCode, _ message: String) -> [RoomOutput] {
        [.send(ServerMessage(seq: seq, .error(ProtocolError(code, message))), to: id),
         .log(LogRecord(.warn, .error, room: name, client: id,
                        [LogField("code", .string(code.rawValue)), LogField("message", .string(message))]))]
    }

    func unknown(_ id: ClientID) -> [RoomOutput] {
        refuse(id, .notJoined, "you are not a member of room \"\(name)\"; send hello first")
    }
}
