import NeonCore

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

    /// Enter: find every match and jump to the first at or below the top.
    public mutating func commitSearch(at time: Duration) -> [ClientCommand] {
        search.editing = false
        refreshSearch()
        guard !search.matches.isEmpty else {
            if !search.query.isEmpty { note("“\(search.query)” not found", error: true, at: time) }
            search.current = nil
            return []
        }
        let index = search.matches.firstIndex { $0.row >= top } ?? 0
        return jump(toMatch: index, at: time)
    }

    /// Esc while typing: forget the query and its highlights.
    public mutating func cancelSearch() {
        search = SearchState()
    }

    /// n / N: the next or previous match, wrapping around.
    public mutating func nextMatch(forward: Bool, at time: Duration) -> [ClientCommand] {
        guard !search.matches.isEmpty else { return [] }
        let count = search.matches.count
        let index: Int
        if let current = search.current {
            index = (current + (forward ? 1 : count - 1)) % count
        } else {
            index = forward ? (search.matches.firstIndex { $0.row >= top } ?? 0) : count - 1
        }
        return jump(toMatch: index, at: time)
    }

    private mutating func jump(toMatch index: Int, at time: Duration) -> [ClientCommand] {
        search.current = index
        note("match \(index + 1) of \(search.matches.count) for “\(search.query)”", error: false, at: time)
        let row = search.matches[index].row
        if row >= top && row < top + viewportRows { return [] }
        return scroll(to: row - viewportRows / 3, at: time)
    }

    /// Recomputes the matches for the current layout (after a resize or a
    /// new document), case-insensitively, in display columns.
    mutating func refreshSearch() {
        guard !search.query.isEmpty, let layout else {
            search.matches = []
            search.current = nil
            return
        }
        let needle = Array(search.query.lowercased())
        var found: [SearchMatch] = []
        for row in 0..<layout.rowCount {
            let line = layout.line(at: row)
            let hay = Array((line.prefix + line.text).lowercased())
            guard hay.count >= needle.count else { continue }
            var column = 0
            var i = 0
            while i + needle.count <= hay.count {
                if hay[i] == needle[0], Array(hay[i..<i + needle.count]) == needle {
                    let width = needle.reduce(0) { $0 + DisplayWidth.of($1) }
                    found.append(SearchMatch(row: row, column: column, width: width))
                    for c in hay[i..<i + needle.count] { column += DisplayWidth.of(c) }
                    i += needle.count
                } else {
                    column += DisplayWidth.of(hay[i])
                    i += 1
                }
            }
        }
        search.matches = found
        if let current = search.current, current >= found.count { search.current = found.isEmpty ? nil : 0 }
    }
}
