import NeonCore

extension ReaderModel {
    /// The errors with which a server refuses a new version of FILE: the
    /// room keeps the version it has, and so does this screen.
    static let versionRefusals: Set<ErrorCode> = [.documentTooLarge, .messageTooLarge, .invalidDocument, .documentExists, .notAllowed]

    /// FILE has a new version on disk (`read FILE`, `present FILE`): it
    /// goes to the room as the document's next version, and shows here when
    /// the room has it, everyone keeping their place. Away from the room it
    /// shows at once and goes when the room is back. A version that does not
    /// parse keeps the last good one and says why. `images` and `unshown`:
    /// the local pictures the new version shows, read by the runtime.
    public mutating func fileChanged(_ text: String, images: [DocumentImage] = [], unshown: [UnshownImage] = [],
                                     at time: Duration) -> [ClientCommand] {
        guard let file, mode == .read || mode == .present else { return [] }
        var published = text
        var versionNotes: [SpeakerNote] = []
        if file.format == .markdown {
            let source = PresenterSource(markdown: text)
            published = source.published
            if mode == .present { versionNotes = source.notes }
        }
        let info = DocumentInfo(title: file.title, format: file.format, text: published, images: images, unshown: unshown)
        do {
            _ = try Document.parse(title: info.title, format: info.format, text: info.text)
        } catch {
            notices.note("\(file.title) changed, but \(error.description); showing its last good version", error: true, at: time)
            return []
        }
        if info == revising?.info { return [] }
        if info == pane.shownDocument, revising == nil {
            // Only the speaker notes changed (or nothing the room sees).
            if mode == .present { notes.take(versionNotes) }
            return []
        }
        knownVersions.insert(Self.textKey(info.text))
        guard connection == .joined, pendingDocument == nil, pane.shownDocument != nil else {
            showVersion(info, at: time)
            pendingDocument = info
            if mode == .present { notes.take(versionNotes) }
            notices.note("\(file.title) changed; the room gets it when it is back", error: false, at: time)
            return moved(at: time)
        }
        return publishVersion(info, notes: versionNotes, at: time)
    }

    /// FILE changed but cannot be read now.
    public mutating func fileUnreadable(_ problem: String, at time: Duration) -> [ClientCommand] {
        guard let file, mode == .read || mode == .present else { return [] }
        notices.note("\(file.title) \(problem); showing its last good version", error: true, at: time)
        return []
    }

    /// Sends `info` as the next version of the room's document; one the
    /// server would not take (its welcome's limits) is not sent, and the
    /// room keeps the version it has, as when the server refuses one.
    mutating func publishVersion(_ info: DocumentInfo, notes versionNotes: [SpeakerNote], at time: Duration) -> [ClientCommand] {
        let revises = roomVersion ?? 1
        if let error = serverLimits?.refusal(of: info, revises: revises) {
            notices.note("\(info.title) changed, but the room keeps the version it has: \(error.message)", error: true, at: time)
            return []
        }
        revising = (info, versionNotes)
        return [.send(.document(title: info.title, format: info.format, text: info.text, parser: Document.parserIdentity,
                                images: info.images, unshown: info.unshown, revises: revises))]
    }

    /// Whether the room's `info` is an earlier version of FILE (`mine`):
    /// one this run published or saw, or, presenting, a document of FILE's
    /// name.
    func isEarlierVersion(_ info: DocumentInfo, of mine: DocumentInfo) -> Bool {
        knownVersions.contains(Self.textKey(info.text)) || (mode == .present && info.title == mine.title && info.format == mine.format)
    }

    /// A document came to the room: a new version of the one shown (everyone
    /// keeps their place: this screen carries its own and the others'), or
    /// another document (everyone starts over, the pointers go).
    mutating func documentPublished(_ published: DocumentPublished, at time: Duration) -> [ClientCommand] {
        roomVersion = published.version ?? roomVersion
        knownVersions.insert(Self.textKey(published.text))
        let mine = published.by == presence.me
        if published.revises == nil {
            // Another document: everyone starts over (the same one again
            // keeps every place, as the server does).
            if published.info != pane.shownDocument {
                show(published.info, at: time)
                presence.forgetPlaces()
                pointers.clear()
                questions.clear()
            }
        } else if published.info != pane.shownDocument {
            showVersion(published.info, at: time)
        }
        if let revising, mine, revising.info == published.info {
            notes.take(revising.notes)
            self.revising = nil
        }
        let version = published.version.map { "version \($0) of " } ?? ""
        if !mine {
            let kept = published.revises == nil ? "" : "; everyone keeps their place"
            notices.note("\(presence.name(of: published.by)) published \(version)“\(published.title)”\(kept)", error: false, at: time)
        } else if published.revises != nil {
            notices.note("“\(published.title)” changed: the room has \(version.isEmpty ? "it" : String(version.dropLast(4)))", error: false, at: time)
        }
        return repositionOnPresenter(at: time) ?? moved(at: time)
    }

    /// Shows the next version of the document with this reader's place,
    /// the others' places and the search carried onto it.
    mutating func showVersion(_ info: DocumentInfo, at time: Duration) {
        guard let old = pane.document, let layout = pane.layout,
              let new = try? Document.parse(title: info.title, format: info.format, text: info.text) else {
            show(info, at: time)
            return
        }
        let map = VersionMap(from: old, to: new)
        let place = map.place(layout.anchor(forRow: pane.top))
        let slidePlace = slides.layout.map { map.place($0.anchor(forRow: slides.top)) }
        pane.showVersion(new, as: info, at: 0)
        slides.images = pane.pictures
        if slides.isOn, let slidePlace { slides.showVersion(new, at: slidePlace) }
        if let row = pane.layout?.row(for: place), pane.top != row { pane.jump(to: row) }
        presence.carryPlaces(map)
        tabs.retitle(for: new)
        search.refresh(in: pane.layout)
    }
}
