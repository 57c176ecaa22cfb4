import NeonCore

/// The bottom status row: hints and messages from the left edge, the place
/// and connection against the right edge, one column of padding each side,
/// optionally a small progress bar at the very right (the reading bar folded
/// into the status line on a short terminal).
///
/// Both sides are lists of items joined by ` · `. When they do not all fit,
/// whole items go, never parts of words: first the left's from its end, then
/// the right's from its start, so the most important item of each side
/// comes first on the left and last on the right; a last hint that still
/// does not fit goes too. A message (one sentence on the left) too wide is
/// cut with an ellipsis instead, or left out when not even a few columns
/// remain.
public struct StatusLine: Widget {
    /// Drawn from the left edge, most important first.
    public var left: [String]
    /// Whether `left` is one message, cut with an ellipsis when too wide,
    /// rather than hints, which are dropped whole.
    public var leftIsMessage: Bool
    /// Drawn against the right edge, most important last.
    public var right: [String]
    /// A fraction (0…1) drawn as a bar right of `right`, when there is room.
    public var progress: Double?
    /// The columns `right` is fitted as if it took at least, while all its
    /// items show: the width of its widest value (`row 564/564 · 100%`), so
    /// hints on the left do not come and go as its numbers grow.
    public var rightReserve: Int = 0
    public var theme: Theme

    /// Between two items of a side.
    public static let separator = " · "
    /// The folded progress bar's width.
    public static let barWidth = 10
    /// The narrowest inner width that still shows the folded bar.
    public static let barMinimumWidth = 48
    /// The fewest columns a message too wide is cut to (with its ellipsis);
    /// in less room it is left out.
    static let shortestCut = 4

    /// A status line of a `left` message and one `right` text.
    public init(left: String, right: String = "", theme: Theme = .neon) {
        self.init(message: left, right: right.isEmpty ? [] : [right], theme: theme)
    }

    /// A status line of a message on the left and `right` items on the right.
    public init(message: String, right: [String] = [], progress: Double? = nil, theme: Theme = .neon) {
        self.init(items: [message], right: right, progress: progress, theme: theme)
        leftIsMessage = true
    }

    /// A status line of hint `items` on the left and `right` items on the right.
    public init(items: [String], right: [String] = [], progress: Double? = nil, theme: Theme = .neon) {
        left = items.filter { !$0.isEmpty }
        leftIsMessage = false
        self.right = right.filter { !$0.isEmpty }
        self.progress = progress
        self.theme = theme
    }

    /// The items that fit `width` columns (the inner width) with the gap
    /// between the sides: what `render` draws.
    public func fitting(width: Int) -> (left: [String], right: [String], bar: Int) {
        var left = self.left
        var right = self.right
        let bar = progress != nil && width >= Self.barMinimumWidth ? Self.barWidth : 0
        func total() -> Int {
            let shown = Self.width(of: right)
            let r = (right.count == self.right.count ? max(shown, rightReserve) : shown)
                + (bar > 0 ? bar + (right.isEmpty ? 0 : 1) : 0)
            let l = Self.width(of: left)
            return l + r + (l > 0 && r > 0 ? 2 : 0)
        }
        while total() > width {
            if left.count > 1 {
                left.removeLast()
            } else if right.count > 1 {
                right.removeFirst()
            } else {
                if !leftIsMessage { left.removeAll() }
                break
            }
        }
        return (left, right, bar)
    }

    static func width(of items: [String]) -> Int {
        items.isEmpty ? 0 : DisplayWidth.of(items.joined(separator: separator))
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: theme.status)
        let inner = row.width >= 3 ? Rect(x: row.x + 1, y: row.y, width: row.width - 2, height: 1) : row
        let (left, right, bar) = fitting(width: inner.width)
        var rightEdge = inner.maxX
        if bar > 0, let progress {
            LinearBar(fraction: progress, fill: theme.barFill, theme: theme)
                .draw(x: rightEdge - bar, y: row.y, width: bar, into: &buffer)
            rightEdge -= bar + 1
        }
        let rightText = theme.chrome(right.joined(separator: Self.separator))
        let rightWidth = min(DisplayWidth.of(rightText), max(rightEdge - inner.x, 0))
        let rightX = rightEdge - rightWidth
        buffer.write(rightText, x: rightX, y: row.y, style: theme.status, maxWidth: rightWidth,
                     ellipsis: theme.glyphs.ellipsis)
        let reserved = right.count == self.right.count ? min(max(rightWidth, rightReserve), max(rightEdge - inner.x, 0)) : rightWidth
        let room = (reserved > 0 || bar > 0 ? rightEdge - reserved - 2 : inner.maxX) - inner.x
        let leftText = theme.chrome(left.joined(separator: Self.separator))
        if DisplayWidth.of(leftText) <= room {
            buffer.write(leftText, x: inner.x, y: row.y, style: theme.status)
        } else if room >= Self.shortestCut {
            buffer.write(leftText, x: inner.x, y: row.y, style: theme.status, maxWidth: room,
                         ellipsis: theme.glyphs.ellipsis)
        }
    }
}
