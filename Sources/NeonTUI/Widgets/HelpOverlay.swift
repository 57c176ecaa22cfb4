import NeonCore

/// A centred, bordered overlay listing keys and what they do:
///
///     ╭─ Keys ───────────╮
///     │ q      quit      │
///     │ /      search    │
///     ╰──────────────────╯
///
/// Keys are aligned in a column in bold accent. The box shrinks to the
/// rectangle; lines too wide end in "…" (`TextCut`). When the rectangle is shorter than the
/// list, the overlay shows the lines from `scroll` on and says in its
/// borders that more lie above (`more above k`) or below (`more below j`);
/// the caller keeps `scroll` in `0...maxScroll(height:)`.
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
    /// The index of the first line shown.
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

    /// How many lines show in an area `height` rows tall.
    public func visibleLineCount(height: Int) -> Int {
        max(min(lines.count, height - 2), 0)
    }

    /// The largest useful `scroll` in an area `height` rows tall.
    public func maxScroll(height: Int) -> Int {
        lines.count - visibleLineCount(height: height)
    }

    /// Columns between the key column and the actions.
    static let gap = 2

    /// The overlay's natural size: every line, the title and a space of
    /// padding inside the border.
    public var size: (width: Int, height: Int) {
        let keys = lines.map { DisplayWidth.of($0.key) }.max() ?? 0
        let actions = lines.map { DisplayWidth.of($0.action) }.max() ?? 0
        let content = max(keys + Self.gap + actions, DisplayWidth.of(title) + 2)
        return (content + 4, lines.count + 2)
    }

    public func render(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        var width = size.width
        if lines.count + 2 > area.height { width = max(width, DisplayWidth.of(Self.moreBelow) + 6) }
        let box = area.centered(width: width, height: size.height)
        BorderBox(title: title, theme: theme).render(in: box, into: &buffer)
        let inner = BorderBox.inner(of: box)
        let content = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height)
        guard !content.isEmpty else { return }
        let keyColumn = (lines.map { DisplayWidth.of($0.key) }.max() ?? 0) + Self.gap
        let first = min(max(scroll, 0), maxScroll(height: box.height))
        let shown = lines[first...].prefix(content.height)
        if first > 0 { mark([Self.moreAbove, "k\(theme.glyphs.ellipsis)"], onRow: box.y, of: box, into: &buffer) }
        if first + shown.count < lines.count {
            mark([Self.moreBelow, "j\(theme.glyphs.ellipsis)"], onRow: box.maxY - 1, of: box, into: &buffer)
        }
        for (index, line) in shown.enumerated() {
            let y = content.y + index
            buffer.write(line.key, x: content.x, y: y, style: theme.strong, maxWidth: content.width,
                         ellipsis: theme.glyphs.ellipsis)
            guard keyColumn < content.width else { continue }
            buffer.write(line.action, x: content.x + keyColumn, y: y, style: theme.text,
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
