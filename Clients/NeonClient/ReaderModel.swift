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

/// The connection as the screen shows it.
public enum ConnectionState: Equatable, Sendable {
    case connecting
    case joined
    case closed(String)
}

/// A short message at the bottom of the screen.
public struct Notice: Equatable, Sendable {
    public var text: String
    public var isError: Bool
    public var until: Duration
}

/// Everything the reader's screen is drawn from. Updated only by `update`,
/// drawn only by `view`: the client's Elm loop.
public struct ReaderModel: Sendable {
    public let mode: ClientMode
    public let room: String
    public let name: String
    public internal(set) var columns: Int
    public internal(set) var rows: Int
    public internal(set) var connection: ConnectionState = .connecting
    public internal(set) var me: ClientID?

    public internal(set) var document: Document?
    /// The document as it came from the room, to tell a reconnect's welcome
    /// (same document: keep the place) from a new one.
    var shownDocument: DocumentInfo?
    public internal(set) var layout: Layout?
    public internal(set) var top: Int = 0
    /// How many columns code lines too wide for the screen are scrolled
    /// left (← → h l), at most the layout's `codeOverflow`.
    public internal(set) var codeShift: Int = 0
    public internal(set) var indicator: Indicator
    public internal(set) var spy = ScrollSpy()
    public internal(set) var animation: ScrollAnimation?
    public internal(set) var tabOffset = 0
    /// Section titles and their clipped widths, measured once per document.
    public internal(set) var tabTitles: [String] = []
    var tabWidths: [Int] = []

    public internal(set) var readers: [ReaderInfo] = []
    public internal(set) var anchors: [ClientID: Anchor] = [:]
    public internal(set) var presenter: ClientID?
    /// Tracking the presenter (follow mode starts so; scrolling detaches).
    public internal(set) var following = false

    public internal(set) var search = SearchState()
    /// The room's draft, in a panel under the document (`e` opens it).
    public internal(set) var draft: DraftModel
    public internal(set) var showDraft = false
    public internal(set) var draftFocused = false
    public internal(set) var showHelp = false
    /// The first line the help overlay shows (j/k scroll it).
    public internal(set) var helpScroll = 0
    public internal(set) var notice: Notice?
    /// The document to publish once welcomed, if the room has none.
    public internal(set) var pendingDocument: DocumentInfo?
    /// The document sent to the room and not yet seen back: the server's
    /// refusal of it (too large, unreadable) ends the command.
    var publishing: DocumentInfo?
    /// The status line's sentence while the room cannot be reached, to
    /// take it away once joined.
    var offlineSentence = ""
    /// The anchor last sent, so an unchanged place is not sent twice.
    var sentPlace: (top: Int, content: Int, viewport: Int, anchor: Anchor)?

    public init(mode: ClientMode, room: String, name: String, columns: Int, rows: Int,
                document: DocumentInfo? = nil, at time: Duration) {
        self.mode = mode
        self.room = room
        self.name = name
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        pendingDocument = document
        indicator = Indicator(startingAt: time)
        following = mode == .follow
        draft = DraftModel(room: room, name: name, profile: nil, columns: columns, rows: rows)
        if let document { show(document, at: time) }
    }

    /// Rows of the draft panel when it is open.
    public static let draftPanelRows = 8

    public var geometry: ScreenGeometry {
        ScreenGeometry(columns: columns, rows: rows, draftRows: showDraft ? Self.draftPanelRows : 0)
    }

    /// The rows of the document the reader sees.
    public var viewportRows: Int { geometry.document.height }

    public var contentRows: Int { layout?.rowCount ?? 0 }

    public var maximumTop: Int { max(contentRows - viewportRows, 0) }

    /// The reader's own position: NeonCore's numbers for the top row.
    public var position: ReadingPosition? {
        try? ReadingPosition(top: min(top, contentRows), viewport: viewportRows, content: contentRows)
    }

    public var isFollowing: Bool { following && mode != .present }

    public func title(of id: ClientID) -> String {
        readers.first { $0.id == id }?.name ?? id.rawValue
    }

}
