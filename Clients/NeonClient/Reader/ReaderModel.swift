import NeonCore

/// How this terminal takes part in its room.
public enum ClientMode: String, Sendable, Equatable {
    /// `neonsync read FILE`: publish FILE if the room has none, read at your own pace.
    case read
    /// `neonsync join ROOM`: read the room's document.
    case join
    /// `neonsync present`: lead; your scroll and tab choices are followed.
    case present
    /// `neonsync follow ROOM`: track the presenter until you scroll yourself.
    case follow

    public var role: Role { self == .present ? .presenter : .reader }
}

/// Everything the reader's screen is drawn from. Updated only by `update`,
/// drawn only by `view`: the client's Elm loop. As a bubbletea program
/// composes bubbles, it is made of parts that each own their state, update
/// and view: the document pane, the tab header, the search, the room's
/// presence, the draft panel, the key list and the notices; the model
/// routes events to them and keeps what is the reader's own: who it is,
/// the terminal's size, the connection and the document it publishes.
public struct ReaderModel: Sendable {
    public let mode: ClientMode
    public let room: String
    public let name: String
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting

    /// The document, its scroll, the bottom indicator, and following.
    public internal(set) var pane: DocumentPane
    public internal(set) var tabs = SectionTabs()
    public internal(set) var search = SearchState()
    /// Who is in the room and where each one reads.
    public internal(set) var presence = Presence()
    /// The room's draft, in a panel under the document (`e` opens it).
    public internal(set) var draft: DraftModel
    public internal(set) var draftPanel = DraftPanel.closed
    public internal(set) var keyList = KeyList()
    public internal(set) var notices = NoticeLine()
    /// The presenter's speaker notes (`s` shows and hides them).
    public internal(set) var notes = NotesPanel()
    /// The room's pointers (`p` points, `P` clears, `'` goes to the presenter's).
    public internal(set) var pointers = PointerPart()
    /// The room's questions (`c` asks one, `C` lists them).
    public internal(set) var questions = QuestionPart()
    /// Presenting: who else may point in the room.
    public let pointing: PointingRule
    /// The room's snippet outputs, and the snippets this terminal runs (present -x).
    public internal(set) var snippets: SnippetPart

    /// The document to publish once welcomed, if the room has none.
    public internal(set) var pendingDocument: DocumentInfo?
    /// The document sent to the room and not yet seen back: the server's
    /// refusal of it (too large, unreadable) ends the command; a connection
    /// lost before it came back sends it again.
    var publishing: DocumentInfo?
    /// What the server takes (its welcome says): a document over them is
    /// refused here, before it is sent.
    var serverLimits: ServerLimits?
    /// The status line's sentence while the room cannot be reached, to
    /// take it away once joined.
    var offlineSentence = ""
    /// The `file://` URL of the directory of the file this client
    /// publishes: its relative links resolve against it while one of its
    /// versions is the room's document.
    let localDirectory: String?
    /// The place on its way to the room: the latest, paced (an unchanged
    /// place is not sent twice).
    var outbox = PlaceOutbox()
    /// The document as slides (presenting a deck, or following someone who does).
    public internal(set) var slides = SlidePane()
    /// `present --slides`: slides even without slide separators.
    public let slidesAsked: Bool
    /// FILE's name and format (`read FILE`, `present FILE`): new versions
    /// of it are published as the same document.
    var file: (title: String, format: DocumentFormat)?
    /// The version of the room's document this terminal shows.
    public internal(set) var roomVersion: Int?
    /// A new version of FILE sent to the room and not yet seen back, with
    /// its speaker notes.
    var revising: (info: DocumentInfo, notes: [SpeakerNote])?
    /// The texts of FILE's versions this run published or saw in the room
    /// (their hashes): a room holding one of them after a reconnect gets
    /// the file's latest version as its next version.
    var knownVersions: Set<Int> = []

    /// A key for a document's text by its UTF-8 bytes, for `knownVersions`.
    /// (`String.hashValue` hashes the text's normalized form: about 100 ms
    /// for 1 MB here, on every document shown; this takes about 1 ms.)
    static func textKey(_ text: String) -> Int {
        var hasher = Hasher()
        var bytes = text
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    /// `draftKeyPrefix` starts the key of every edit of the draft panel
    /// (`DraftModel`): random unless a simulation gives its own, to replay.
    public init(mode: ClientMode, room: String, name: String, columns: Int, rows: Int,
                document: DocumentInfo? = nil, directory: String? = nil, pointing: PointingRule = .everyone,
                slides: Bool = false, snippets permission: SnippetPermission = .off, draftKeyPrefix: String = String(UInt64.random(in: 1...UInt64.max), radix: 36),
                at time: Duration) {
        self.mode = mode
        self.pointing = pointing
        snippets = SnippetPart(permission: mode == .present ? permission : .off)
        slidesAsked = slides
        self.room = room
        self.name = name
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        var published = document
        if let info = document, info.format == .markdown, mode == .present || mode == .read {
            // Speaker notes never leave this terminal: the room gets the
            // text without them, and only the presenter sees them.
            let source = PresenterSource(markdown: info.text)
            published = DocumentInfo(title: info.title, format: info.format, text: source.published, images: info.images,
                                     unshown: info.unshown)
            if mode == .present { notes.take(source.notes) }
        }
        pendingDocument = published
        localDirectory = document == nil ? nil : directory
        file = document.map { ($0.title, $0.format) }
        if let published { knownVersions.insert(Self.textKey(published.text)) }
        pane = DocumentPane(following: mode == .follow, at: time)
        draft = DraftModel(room: room, name: name, profile: nil, columns: columns, rows: rows, keyPrefix: draftKeyPrefix)
        fitPane()
        if let published { show(published, at: time) }
    }

    /// Rows of the draft panel when it is open.
    public static let draftPanelRows = 8

    public var geometry: ScreenGeometry {
        ScreenGeometry(columns: columns, rows: rows, draftRows: draftPanel.isOpen ? Self.draftPanelRows : 0,
                       showsNotes: notes.isOpen && mode == .present)
    }

    /// Gives the document pane (and the slides) the size the geometry has for it.
    mutating func fitPane() {
        let g = geometry
        pane.fit(width: g.wrapWidth, viewport: g.document.height)
        slides.fit(width: g.page.width, viewport: g.document.height, document: pane.document)
    }

    /// The rows of the document the reader sees.
    public var viewportRows: Int { pane.viewport }

    public var contentRows: Int { pane.contentRows }

    public var maximumTop: Int { pane.maximumTop }

    /// The reader's own position: NeonCore's numbers for the top row.
    public var position: ReadingPosition? { pane.position }

    public var isFollowing: Bool { pane.following && mode != .present }

    /// The room's readers and observers, counted as every view counts them.
    public var headcount: Headcount { presence.headcount }
}
