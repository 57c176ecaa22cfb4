import NeonCore

/// The `/` search: the query being typed, its matches in the document, and
/// where the current layout draws them.
public struct SearchState: Equatable, Sendable {
    public var editing = false
    public var query = ""
    /// The matches the current layout shows, in document order.
    public var matches: [SearchMatch] = []
    /// The index in `matches` of the match the reader is on.
    public var current: Int?
    /// The query and document `found` holds the matches of, so a resize
    /// maps them to the new rows without searching again.
    var searched: (query: String, document: Document)?
    /// Every match in the document, whatever the width.
    var found: [DocumentMatch] = []

    public init() {}

    public static func == (a: SearchState, b: SearchState) -> Bool {
        a.editing == b.editing && a.query == b.query && a.matches == b.matches && a.current == b.current
    }
}

/// One match: its place in the document and the layout rows it is drawn on
/// (several when the layout wraps it).
public struct SearchMatch: Equatable, Sendable {
    public var place: DocumentMatch
    public var rows: Range<Int>

    public init(place: DocumentMatch, rows: Range<Int>) {
        self.place = place
        self.rows = rows
    }

    /// The row the match starts on.
    public var row: Int { rows.lowerBound }
}
