import NeonCore

/// A centred, bordered overlay listing keys and what they do:
///
///     ╭─ Keys ───────────╮
///     │ q      quit      │
///     │ /      search    │
///     ╰──────────────────╯
///
/// Keys are aligned in a column in bold accent. The box shrinks to the
/// rectangle; an action too wide wraps by words under itself (or, in an
/// action column narrower than `narrowestWrap`, ends in "…"). When the
/// rectangle is shorter than the list, the overlay shows the rows from
/// `scroll` on and says in its borders that more lie above (`more above k`)
/// or below (`more below j`); the caller keeps `scroll` in
/// `0...maxScroll(width:height:)`.
public struct HelpOverlay: Widget {
    /// One key and its action.
    public struct Line: Equatable, Sendable {
        public var key: String
        public var action: String

        /// `key` (as the user types it: "q", "↑↓", "Ctrl-L") and what it does.
        public init(key: String, action: String) {
            self.key = key
            self.action = action
        }
    }

    public var lines: [Line]
    /// Drawn in the top border.
    public var title: String
    /// The index of the first row shown (an action that wraps takes
    /// several).
    public var scroll: Int
    public var theme: Theme

    /// An overlay listing `lines` from line `scroll` on.
    public init(lines: [Line], title: String = "Keys", scroll: Int = 0, theme: Theme = .neon) {
        self.lines = lines
        self.title = title
        self.scroll = scroll
        self.theme = theme
    }

    /// Said in the borders when lines are hidden above or below.
    public static let moreAbove = "more above k"
    public static let moreBelow = "more below j"

    /// How many rows of the list show in an area `width` × `height`.
    public func visibleRowCount(width: Int, height: Int) -> Int {
        let rows = rows(forWidth: width, height: height).count
        return max(min(rows, height - 2), 0)
    }

    /// The largest useful `scroll` in an area `width` × `height`.
    public func maxScroll(width: Int, height: Int) -> Int {
        rows(forWidth: width, height: height).count - visibleRowCount(width: width, height: height)
    }

    /// Columns between the key column and the actions.
    static let gap = 2

    /// The narrowest an action column wraps into; narrower, actions are cut
    /// with "…" instead.
    static let narrowestWrap = 12

    /// The overlay's natural size: every line, the title and a space of
    /// padding inside the border.
    public var size: (width: Int, height: Int) {
        let content = max(keyColumn + (lines.map { DisplayWidth.of($0.action) }.max() ?? 0), DisplayWidth.of(title) + 2)
        return (content + 4, lines.count + 2)
    }

    /// Where actions start inside the content.
    private var keyColumn: Int {
        (lines.map { DisplayWidth.of($0.key) }.max() ?? 0) + Self.gap
    }

    /// One row of the list as drawn: a key (empty on an action's further
    /// rows) and a piece of its action.
    struct Row: Equatable {
        var key: String
        var action: String
    }

    /// The box's width in an area `width` × `height`: the natural width,
    /// wide enough for `more below j` when the list does not fit, never
    /// wider than the area.
    private func boxWidth(forWidth width: Int, height: Int) -> Int {
        let natural = min(size.width, width)
        guard wrapped(contentWidth: natural - 4).count + 2 > height else { return natural }
        return min(max(size.width, DisplayWidth.of(Self.moreBelow) + 6), width)
    }

    private func rows(forWidth width: Int, height: Int) -> [Row] {
        wrapped(contentWidth: boxWidth(forWidth: width, height: height) - 4)
    }

    /// The lines as rows `contentWidth` wide: an action too wide wraps by
    /// words under itself.
    private func wrapped(contentWidth: Int) -> [Row] {
        let room = contentWidth - keyColumn
        return lines.flatMap { line -> [Row] in
            guard room >= Self.narrowestWrap, DisplayWidth.of(line.action) > room else {
                return [Row(key: line.key, action: line.action)]
            }
            return Self.wrap(line.action, width: room).enumerated().map { Row(key: $0.offset == 0 ? line.key : "", action: $0.element) }
        }
    }

    /// `text` broken at spaces into pieces at most `width` columns wide (a
    /// word wider than that is a piece of its own, cut when drawn).
    static func wrap(_ text: String, width: Int) -> [String] {
        var pieces: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            if DisplayWidth.of(candidate) <= width || current.isEmpty {
                current = candidate
            } else {
                pieces.append(current)
                current = String(word)
            }
        }
        return pieces + (current.isEmpty ? [] : [current])
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let rows = rows(forWidth: area.width, height: area.height)
        let box = area.centered(width: boxWidth(forWidth: area.width, height: area.height), height: rows.count + 2)
        BorderBox(title: title, theme: theme).render(in: box, into: &buffer)
        let inner = BorderBox.inner(of: box)
        let content = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height)
        guard !content.isEmpty else { return }
        let visible = max(min(rows.count, box.height - 2), 0)
        let first = min(max(scroll, 0), rows.count - visible)
        let shown = rows[first...].prefix(content.height)
        if first > 0 { mark([Self.moreAbove, "k\(theme.glyphs.ellipsis)"], onRow: box.y, of: box, into: &buffer) }
        if first + shown.count < rows.count {
            mark([Self.moreBelow, "j\(theme.glyphs.ellipsis)"], onRow: box.maxY - 1, of: box, into: &buffer)
        }
        for (index, row) in shown.enumerated() {
            let y = content.y + index
            buffer.write(theme.chrome(row.key), x: content.x, y: y, style: theme.strong, maxWidth: content.width,
                         ellipsis: theme.glyphs.ellipsis)
            guard keyColumn < content.width else { continue }
            buffer.write(theme.chrome(row.action), x: content.x + keyColumn, y: y, style: theme.text,
                         maxWidth: content.width - keyColumn, ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// The first of `texts` that fits in a border row, against its right
    /// corner (clear of the title in the top row).
    private func mark(_ texts: [String], onRow y: Int, of box: Rect, into buffer: inout Buffer) {
        let taken = y == box.y && !title.isEmpty ? DisplayWidth.of(title) + 4 : 1
        for text in texts {
            let label = " \(text) "
            let width = DisplayWidth.of(label)
            guard box.width - 2 - taken >= width else { continue }
            buffer.write(label, x: box.maxX - 2 - width, y: y, style: theme.accent)
            return
        }
    }
}
