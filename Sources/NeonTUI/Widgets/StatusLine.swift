import NeonCore

/// The bottom status row: `left` (mode, title, message) from the left edge
/// and `right` (position, percent, connection) against the right edge, one
/// column of padding each side. The right part wins when both do not fit.
public struct StatusLine: Widget {
    /// Drawn from the left edge, cut first.
    public var left: String
    /// Drawn against the right edge.
    public var right: String
    public var theme: Theme

    /// A status line of `left` and `right` text.
    public init(left: String, right: String = "", theme: Theme = .neon) {
        self.left = left
        self.right = right
        self.theme = theme
    }

    public func render(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: theme.status)
        let inner = row.width >= 3 ? Rect(x: row.x + 1, y: row.y, width: row.width - 2, height: 1) : row
        let rightWidth = min(DisplayWidth.of(right), inner.width)
        let rightX = inner.maxX - rightWidth
        buffer.write(right, x: rightX, y: row.y, style: theme.status, maxWidth: rightWidth)
        let leftWidth = rightWidth > 0 ? rightX - inner.x - 1 : inner.width
        buffer.write(left, x: inner.x, y: row.y, style: theme.status, maxWidth: leftWidth)
    }
}
