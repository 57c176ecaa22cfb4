import NeonCore
import NeonTUI

extension ReaderModel {
    /// Starts typing a `/` query.
    public mutating func beginSearch() {
        search.begin()
    }

    /// Edits the query being typed.
    public mutating func editSearch(appending text: String? = nil, deleteBackward: Bool = false) {
        search.edit(appending: text, deleteBackward: deleteBackward)
    }

    /// Enter: find every match in the document and jump to the first one
    /// starting at or below the top (the first of all when none does).
    public mutating func commitSearch(at time: Duration) -> [ClientCommand] {
        search.editing = false
        search.current = nil
        search.refresh(in: pane.layout)
        guard !search.matches.isEmpty else {
            if !search.query.isEmpty { notices.note("“\(search.query)” not found", error: true, at: time) }
            return []
        }
        return jump(toMatch: search.firstMatch(atOrBelow: pane.top) ?? 0, at: time)
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
        if let current = search.current, search.currentIsShown(on: pane.visibleRows) {
            index = (current + (forward ? 1 : count - 1)) % count
        } else {
            let below = search.firstMatch(atOrBelow: pane.top)
            index = forward ? below ?? 0 : ((below ?? count) + count - 1) % count
        }
        return jump(toMatch: index, at: time)
    }

    private mutating func jump(toMatch index: Int, at time: Duration) -> [ClientCommand] {
        search.current = index
        notices.note("match \(index + 1) of \(search.matches.count) for “\(search.query)”", error: false, at: time)
        if slides.isOn, let deck = slides.deck {
            // Showing slides: the slide of the match, whole, the match in view.
            let place = search.matches[index].place
            let slide = deck.slide(containing: place.block)
            slides.go(to: slide, step: deck.slides[slide].steps - 1, in: pane.document)
            if let rows = slides.layout?.rows(of: place) { slides.scroll(to: rows.lowerBound - slides.viewport / 3) }
            return slideMoved(true, at: time)
        }
        revealSideways(search.matches[index])
        let rows = search.matches[index].rows
        if rows.lowerBound >= pane.top && rows.upperBound <= pane.top + viewportRows { return [] }
        return scroll(to: rows.lowerBound - viewportRows / 3, at: time)
    }

    /// Scrolls code sideways so a match in a code line past the screen's
    /// edge (or left of it) is in view, with a few columns around it.
    private mutating func revealSideways(_ match: SearchMatch) {
        guard let layout = pane.layout, case .codeBlock = layout.document.blocks[match.place.block].kind else { return }
        guard let span = layout.spans(of: match.place, in: match.rows).first else { return }
        let prefix = DisplayWidth.of(layout.line(at: span.row).prefix)
        let room = layout.width - prefix - 2
        let start = span.columns.lowerBound - prefix
        let end = span.columns.upperBound - prefix
        let shift = pane.codeShift
        if end > shift + room || start < shift {
            pane.shiftCode(by: min(max(end - room, start - 2, 0), layout.codeOverflow) - shift)
        }
    }
}
