import NeonCore
import NeonTUI

/// `neonsync notes FILE --room R`: the presenter's second screen. It reads
/// the speaker notes of FILE (the same comments `present FILE` keeps back
/// from the room), joins the room as an observer, follows the room's
/// presenter and shows the notes of the passage on the presenter's screen,
/// the title of what comes next and the time since the talk started (since
/// this screen first saw the presenter; `0` starts the clock again). It
/// sends nothing but its hello: nobody's screen moves for it.
public struct NotesModel: Sendable {
    public let room: String
    public let name: String
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting
    /// FILE as it is published (notes taken out), to tell whether the
    /// room's document is FILE.
    public internal(set) var published: DocumentInfo
    /// FILE's notes, on FILE's blocks as it is now.
    public internal(set) var notes: [SpeakerNote]
    /// The notes on the room's document: FILE's, carried onto the version
    /// the room shows when it is another version of FILE (`VersionMap`).
    public internal(set) var placedNotes: [SpeakerNote]
    /// The document the notes are placed on: the room's, else FILE's.
    public internal(set) var document: Document? {
        didSet { deck = document.map(SlideDeck.init) }
    }
    /// The document as slides, for a presenter who shows them.
    var deck: SlideDeck?
    public internal(set) var presence = Presence()
    /// When the talk started, on this screen's clock.
    public internal(set) var started: Duration?
    /// The first row of the notes shown (j/k).
    public internal(set) var scroll = 0
    public internal(set) var keyList = KeyList()
    public internal(set) var notices = NoticeLine()
    /// The sentence pinned while the room's document is not FILE.
    var mismatch: String?
    /// The room's document as it came, to compare with FILE's versions.
    var roomDocument: DocumentInfo?

    public init(room: String, name: String, file: DocumentInfo, columns: Int, rows: Int) {
        self.room = room
        self.name = name
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        (published, notes) = Self.read(file)
        placedNotes = notes
        let parsed = try? Document.parse(title: file.title, format: file.format, text: published.text)
        document = parsed
        deck = parsed.map(SlideDeck.init)
    }

    /// FILE as it is published, and its notes.
    static func read(_ file: DocumentInfo) -> (DocumentInfo, [SpeakerNote]) {
        let source = file.format == .markdown ? PresenterSource(markdown: file.text) : nil
        return (DocumentInfo(title: file.title, format: file.format, text: source?.published ?? file.text), source?.notes ?? [])
    }

    /// The presenter's record, when the room has one.
    public var presenter: ReaderInfo? {
        presence.presenter.flatMap(presence.member)
    }

    /// The passage the presenter is on (the first before there is one):
    /// their slide while they show slides, else their section.
    public var passage: NotesPassage? {
        guard let document else { return nil }
        if let place = presenter?.slidePlace, let deck { return .slide(place.slide, of: deck) }
        return .section(presenter?.section ?? 0, of: document)
    }

    /// The notes of the passage.
    public var passageNotes: [String] { passage?.notes(of: placedNotes) ?? [] }

    /// The talk's time at `time`: `H:MM:SS`, or `MM:SS` in its first hour.
    public func clock(at time: Duration) -> String? {
        guard let started else { return nil }
        let seconds = max(Int((time - started).inNanoseconds / 1_000_000_000), 0)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let (hours, minutes) = (seconds / 3600, seconds / 60 % 60)
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds % 60))" : "\(two(minutes)):\(two(seconds % 60))"
    }
}

extension NotesModel: EventDrivenScreen {
    public mutating func connected(at time: Duration) -> [ClientCommand] {
        connection = .connecting
        return [.send(.hello(room: room, name: name, role: .observer, notes: true))]
    }

    public mutating func disconnected(_ reason: String, at time: Duration) -> [ClientCommand] {
        connection = .closed(reason)
        return []
    }

    public mutating func receive(_ message: ServerMessage, at time: Duration) -> [ClientCommand] {
        let before = passage
        switch message.payload {
        case let .welcome(welcome):
            connection = .joined
            presence.welcomed(welcome)
            if let info = welcome.document { roomPublished(info, at: time) }
        case let .joined(info):
            presence.joined(info)
        case let .left(info):
            presence.left(info.id)
        case let .document(published):
            roomPublished(published.info, at: time)
        case let .progress(progress):
            presence.progressed(progress)
        case let .tab(tab):
            presence.update(tab.id) { $0.section = tab.section }
        case let .error(error):
            if let refusal = Refusal(error, room: room) {
                connection = .closed(error.message)
                return [.refused(refusal)]
            }
            notices.note(error.message, error: true, at: time)
        default:
            break
        }
        if started == nil, presenter != nil { started = time }
        if passage != before { scroll = 0 }
        return []
    }

    /// The room's document: the notes are placed on it; one that is not
    /// FILE is said to be so until it is.
    private mutating func roomPublished(_ info: DocumentInfo, at time: Duration) {
        if let parsed = try? Document.parse(title: info.title, format: info.format, text: info.text) {
            document = parsed
        }
        roomDocument = info
        place(at: time)
    }

    /// FILE has a new version (the runtime watches it, as `present FILE`
    /// does): its notes, placed on the room's document, which follows when
    /// the presenter's terminal publishes the same version.
    public mutating func fileChanged(_ text: String, images: [DocumentImage] = [], unshown: [UnshownImage] = [],
                                     at time: Duration) -> [ClientCommand] {
        let (version, versionNotes) = Self.read(DocumentInfo(title: published.title, format: published.format, text: text))
        let parsed: Document
        do {
            parsed = try Document.parse(title: version.title, format: version.format, text: version.text)
        } catch {
            notices.note("\(published.title) changed, but \(error.description); showing the notes of its last good version", error: true, at: time)
            return []
        }
        (published, notes) = (version, versionNotes)
        if roomDocument == nil { document = parsed }
        place(at: time)
        return []
    }

    public mutating func fileUnreadable(_ problem: String, at time: Duration) -> [ClientCommand] {
        notices.note("\(published.title) \(problem); showing the notes of its last good version", error: true, at: time)
        return []
    }

    /// Places FILE's notes on the room's document: as they are when the
    /// room shows FILE as it is now; carried onto the room's version when it
    /// is another version of FILE (the same name and format: the presenter's
    /// terminal publishes each saved version a moment after this screen
    /// reads it, or this screen reads it late); and says, until it is so
    /// again, when the room's document is not FILE at all.
    private mutating func place(at time: Duration) {
        guard let info = roomDocument else {
            placedNotes = notes
            return
        }
        if let mismatch { notices.clear(saying: mismatch) }
        mismatch = nil
        if info.text == published.text {
            placedNotes = notes
        } else if info.title == published.title, info.format == published.format, let document,
                  let mine = try? Document.parse(title: published.title, format: published.format, text: published.text) {
            let map = VersionMap(from: mine, to: document)
            placedNotes = notes.map { SpeakerNote(block: map.place(Anchor(block: $0.block, offset: 0)).block, text: $0.text) }
        } else {
            placedNotes = notes
            let sentence = "the room's document is not \(published.title) as it is now: notes may be beside other passages"
            mismatch = sentence
            notices.pin(sentence, at: time)
        }
    }

    public mutating func resize(columns: Int, rows: Int, at time: Duration) -> [ClientCommand] {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        scroll = min(scroll, maxScroll)
        return []
    }

    public mutating func tick(at time: Duration) -> [ClientCommand] { [] }

    /// Every second while the clock runs; a notice running out.
    public func nextWake(after time: Duration) -> Duration? {
        var next: [Duration] = []
        if let started {
            let second = Int64(1_000_000_000)
            let elapsed = (time - started).inNanoseconds
            next.append(started + .nanoseconds((elapsed / second + 1) * second))
        }
        if connection == .connecting { next.append(time + .milliseconds(100)) }
        if let wake = notices.nextWake(after: time) { next.append(wake) }
        return next.min()
    }
}
