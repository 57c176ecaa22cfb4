import NeonCore

/// The reading pane: rows `top ..< top + height` of a NeonCore `Layout`,
/// fetched lazily with `layout.line(at:)`, styled by block kind — headings in
/// bold accent, list markers and quote bars in the accent, code on its own
/// background across the row, card names in bold accent with the headline
/// below, "…" after a cut row.
///
/// Search matches are drawn in reverse video, from explicit `highlights` and
/// from every case-insensitive occurrence of `query` in the text shown, a
/// phrase wrapped across rows included. A
/// `Gutter` on either side shows other readers' positions. Wrap the layout
/// to `textWidth(forWidth:gutter:)` so rows fit beside the gutter.
public struct DocumentView: Widget {
    /// The document wrapped to the view's text width.
    public var layout: Layout
    /// The layout row shown on the view's first row; rows outside the
    /// layout are blank.
    public var top: Int
    /// Matches to mark, by layout row.
    public var highlights: [Highlight]
    /// Highlights every occurrence in the blocks shown, ignoring case, on
    /// every row a match spans.
    public var query: String?
    /// Markers of other readers' rows, or no gutter.
    public var gutter: Gutter?
    public var theme: Theme

    /// A view of `layout` from row `top` on.
    public init(layout: Layout, top: Int, highlights: [Highlight] = [], query: String? = nil,
                gutter: Gutter? = nil, theme: Theme = .neon) {
        self.layout = layout
        self.top = top
        self.highlights = highlights
        self.query = query
        self.gutter = gutter
        self.theme = theme
    }

    /// The columns left for text in a view `width` wide: the layout width to
    /// wrap to.
    public static func textWidth(forWidth width: Int, gutter: Gutter?) -> Int {
        max(width - (gutter?.width ?? 0), 0)
    }

    public func render(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.background)
        let gutterWidth = min(gutter?.width ?? 0, area.width)
        let textX = gutter?.side == .left ? area.x + gutterWidth : area.x
        let text = Rect(x: textX, y: area.y, width: area.width - gutterWidth, height: area.height)
        let gutterX = gutter?.side == .left ? area.x : text.maxX
        let found = query.map { Self.highlights(of: $0, in: layout, rows: top..<top + area.height) } ?? []
        for screenRow in 0..<area.height {
            let row = top + screenRow
            let y = area.y + screenRow
            if let marker = gutter?.markers[row], gutterWidth > 0 {
                let x = gutter?.side == .left || gutterWidth == 1 ? gutterX : gutterX + 1
                buffer.write(String(marker.symbol), x: x, y: y, style: marker.style, clip: gutterX..<gutterX + gutterWidth)
            }
            guard row >= 0, row < layout.rowCount, !text.isEmpty else { continue }
            let line = layout.line(at: row)
            draw(line, in: text.row(screenRow), into: &buffer)
            for match in highlights + found where match.row == row {
                mark(match.columns, style: match.isCurrent ? theme.currentHighlight : theme.highlight,
                     in: text.row(screenRow), into: &buffer)
            }
        }
    }

    private func draw(_ line: LayoutLine, in row: Rect, into buffer: inout Buffer) {
        let (prefixStyle, textStyle) = styles(for: line)
        if case .codeBlock = line.kind, line.part != .separator {
            buffer.fill(row, style: theme.code)
        }
        var x = row.x
        x += buffer.write(line.prefix, x: x, y: row.y, style: prefixStyle, maxWidth: row.maxX - x)
        x += buffer.write(line.text, x: x, y: row.y, style: textStyle, maxWidth: row.maxX - x)
        if line.isTruncated {
            buffer.write(String(theme.glyphs.ellipsis), x: x, y: row.y, style: theme.muted, maxWidth: row.maxX - x)
        }
    }

    /// The styles of a line's prefix and text.
    private func styles(for line: LayoutLine) -> (prefix: Style, text: Style) {
        switch line.kind {
        case .heading(let level):
            return (theme.strong, level <= 2 ? theme.strong : theme.text.patched(with: Style(bold: true)))
        case .paragraph:
            return (theme.text, theme.text)
        case .listItem:
            return (theme.accent, theme.text)
        case .quote:
            return (theme.accent, theme.muted.patched(with: Style(italic: true)))
        case .codeBlock:
            return (theme.code, theme.code)
        case .card:
            return (theme.accent, line.part == .cardName ? theme.strong : theme.text)
        }
    }

    private func mark(_ columns: Range<Int>, style: Style, in area: Rect, into buffer: inout Buffer) {
        let span = Rect(x: area.x + columns.lowerBound, y: area.y, width: columns.count, height: 1)
        buffer.patchStyle(span.intersection(area), with: style)
    }
}
