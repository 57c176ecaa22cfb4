import NeonCore
import NeonTUI

extension ReaderModel {
    /// Starts typing a `/` query.
    public mutating func beginSearch() {
        search.editing = true
        search.query = ""
    }

    /// Edits the query being typed.
    public mutating func editSearch(appending text: String? = nil, deleteBackward: Bool = false) {
        if deleteBackward, !search.query.isEmpty { search.query.removeLast() }
        if let text { search.query += text }
    }

    /// Enter: find every match in the document and jump to the first one
    /// starting at or below the top (the first of all when none does).
    public mutating func commitSearch(at time: Duration) -> [ClientCommand] {
        search.editing = false
        search.current = nil
        refreshSearch()
        guard !search.matches.isEmpty else {
            if !search.query.isEmpty { note("“\(search.query)” not found", error: true, at: time) }
            return []
        }
        return jump(toMatch: firstMatch(atOrBelow: top) ?? 0, at: time)
    }

    /// Esc while typing: forget the query and its highlights.
    public mutating func cancelSearch() {
        search = SearchState()
    }

    /// n / N: the next or previous match in the document, wrapping around.
    /// From a current match on screen the step is from it; otherwise (none
    /// yet, or the reader scrolled away, as in `less`) n takes the first
    /// match at or below the top and N the last one above it.
    public mutating func nextMatch(forward: Bool, at time: Duration) -> [ClientCommand] {
        guard !search.matches.isEmpty else { return [] }
        let count = search.matches.count
        let index: Int
        if let current = search.current, search.matches[current].rows.overlaps(top..<top + viewportRows) {
            index = (current + (forward ? 1 : count - 1)) % count
        } else {
            let below = firstMatch(atOrBelow: top)
            index = forward ? below ?? 0 : ((below ?? count) + count - 1) % count
        }
        return jump(toMatch: index, at: time)
    }

    private mutating func jump(toMatch index: Int, at time: Duration) -> [ClientCommand] {
        search.current = index
        note("match \(index + 1) of \(search.matches.count) for “\(search.query)”", error: false, at: time)
        revealSideways(search.matches[index])
        let rows = search.matches[index].rows
        if rows.lowerBound >= top && rows.upperBound <= top + viewportRows { return [] }
        return scroll(to: rows.lowerBound - viewportRows / 3, at: time)
    }

    /// Scrolls code sideways so a match in a code line past the screen's
    /// edge (or left of it) is in view, with a few columns around it.
    private mutating func revealSideways(_ match: SearchMatch) {
        guard let layout, case .codeBlock = layout.document.blocks[match.place.block].kind else { return }
        guard let span = layout.spans(of: match.place, in: match.rows).first else { return }
        let prefix = DisplayWidth.of(layout.line(at: span.row).prefix)
        let room = layout.width - prefix - 2
        let start = span.columns.lowerBound - prefix
        let end = span.columns.upperBound - prefix
        if end > codeShift + room || start < codeShift {
            shiftCode(by: min(max(end - room, start - 2, 0), layout.codeOverflow) - codeShift)
        }
    }

    /// The index of the first match starting at or below `row`.
    private func firstMatch(atOrBelow row: Int) -> Int? {
        let index = firstMatch { $0.rows.lowerBound >= row }
        return index < search.matches.count ? index : nil
    }

    /// The first index whose match satisfies `isPast` (false for every
    /// match before it, true from it on), or the count: a binary search,
    /// since matches in document order are in row order too.
    private func firstMatch(where isPast: (SearchMatch) -> Bool) -> Int {
        var low = 0
        var high = search.matches.count
        while low < high {
            let mid = (low + high) / 2
            if isPast(search.matches[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Finds the query's matches in the document (again only when the query
    /// or the document changed) and maps them to the current layout's rows
    /// (after a resize, a new document, or Enter). The current match stays
    /// the same place in the document.
    mutating func refreshSearch() {
        guard let layout, let needle = TextSearch(search.query) else {
            search.matches = []
            search.current = nil
            search.found = []
            search.searched = nil
            return
        }
        let previous = search.current.map { search.matches[$0].place }
        if search.searched?.query != search.query || search.searched?.document != layout.document {
            search.found = layout.document.matches(of: needle)
            search.searched = (search.query, layout.document)
        }
        search.matches = search.found.compactMap { place in
            layout.rows(of: place).map { SearchMatch(place: place, rows: $0) }
        }
        search.current = previous.flatMap { place in
            let index = search.matches.firstIndex { $0.place >= place } ?? 0
            return search.matches.isEmpty ? nil : index
        }
    }

    /// The highlights of the matches on the rows in view: every row of each
    /// match, the current one marked.
    func searchHighlights() -> [DocumentView.Highlight] {
        guard let layout, !search.matches.isEmpty else { return [] }
        let visible = top..<top + viewportRows
        var out: [DocumentView.Highlight] = []
        var index = firstMatch { $0.rows.upperBound > visible.lowerBound }
        while index < search.matches.count, search.matches[index].rows.lowerBound < visible.upperBound {
            let isCurrent = index == search.current
            out += layout.spans(of: search.matches[index].place, in: visible).map { DocumentView.Highlight($0, isCurrent: isCurrent) }
            index += 1
        }
        return out
    }
}
