import NeonCore
import NeonTUI

/// The reader's `/` search: the query being typed, its matches in the
/// document, and where the current layout draws them.
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

extension SearchState {
    /// Starts typing a query.
    mutating func begin() {
        editing = true
        query = ""
    }

    /// Edits the query being typed.
    mutating func edit(appending text: String? = nil, deleteBackward: Bool = false) {
        if deleteBackward, !query.isEmpty { query.removeLast() }
        if let text { query += text }
    }

    /// Finds the query's matches in `layout`'s document (again only when
    /// the query or the document changed) and maps them to its rows (after
    /// a resize, a new document, or Enter). The current match stays the
    /// same place in the document.
    mutating func refresh(in layout: Layout?) {
        guard let layout, let needle = TextSearch(query) else {
            matches = []
            current = nil
            found = []
            searched = nil
            return
        }
        let previous = current.map { matches[$0].place }
        if searched?.query != query || searched?.document != layout.document {
            found = layout.document.matches(of: needle)
            searched = (query, layout.document)
        }
        matches = found.compactMap { place in
            layout.rows(of: place).map { SearchMatch(place: place, rows: $0) }
        }
        current = previous.flatMap { place in
            let index = matches.firstIndex { $0.place >= place } ?? 0
            return matches.isEmpty ? nil : index
        }
    }

    /// Whether the current match is on one of `rows`.
    func currentIsShown(on rows: Range<Int>) -> Bool {
        current.map { matches[$0].rows.overlaps(rows) } ?? false
    }

    /// The index of the first match starting at or below `row`.
    func firstMatch(atOrBelow row: Int) -> Int? {
        let index = firstMatch { $0.rows.lowerBound >= row }
        return index < matches.count ? index : nil
    }

    /// The first index whose match satisfies `isPast` (false for every
    /// match before it, true from it on), or the count: a binary search,
    /// since matches in document order are in row order too.
    private func firstMatch(where isPast: (SearchMatch) -> Bool) -> Int {
        var low = 0
        var high = matches.count
        while low < high {
            let mid = (low + high) / 2
            if isPast(matches[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The highlights of the matches on the `visible` rows of `layout`:
    /// every row of each match, the current one marked.
    func highlights(in layout: Layout?, rows visible: Range<Int>) -> [DocumentView.Highlight] {
        guard let layout, !matches.isEmpty else { return [] }
        var out: [DocumentView.Highlight] = []
        var index = firstMatch { $0.rows.upperBound > visible.lowerBound }
        while index < matches.count, matches[index].rows.lowerBound < visible.upperBound {
            let isCurrent = index == current
            out += layout.spans(of: matches[index].place, in: visible).map { DocumentView.Highlight($0, isCurrent: isCurrent) }
            index += 1
        }
        return out
    }
}
