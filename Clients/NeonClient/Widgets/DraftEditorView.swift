import NeonCore
import NeonTUI

/// The shared draft's editor: the text wrapped to the width (see `Layout`),
/// the local cursor as a reversed cell, other people's cursors in their
/// colours, the part past the limit on red (underlined without colour), and
/// a footer row with the names of the others and the `DraftRing`.
///
/// The view scrolls to keep the cursor visible: it starts from the caller's
/// `scrollTop` and moves it just enough (`visibleTop(in:)`), so the caller
/// can store the result and the view does not jump while the cursor stays
/// on screen. With a single row there is no footer: the text comes first.
public struct DraftEditorView: Widget {
    public var text: String
    /// The local cursor, in Unicode scalars.
    public var cursor: Int
    public var remoteCursors: [RemoteCursor]
    /// The count, limit and level the ring shows.
    public var status: DraftStatus
    /// The part of `text` past the limit, highlighted.
    public var overLimit: Range<String.Index>?
    /// Whether this frame is inside the one pulse at the limit (timed by the
    /// caller); draws the ring enlarged, bold and reversed.
    public var pulse: Bool
    /// The first text row the caller showed last; see `visibleTop(in:)`.
    public var scrollTop: Int
    public var theme: Theme

    public init(text: String, cursor: Int, remoteCursors: [RemoteCursor] = [], status: DraftStatus,
                overLimit: Range<String.Index>? = nil, pulse: Bool = false, scrollTop: Int = 0,
                theme: Theme = .neon) {
        self.text = text
        self.cursor = cursor
        self.remoteCursors = remoteCursors
        self.status = status
        self.overLimit = overLimit
        self.pulse = pulse
        self.scrollTop = scrollTop
        self.theme = theme
    }

    /// The text row shown first in `area`: `scrollTop`, moved just enough to
    /// show the cursor's row and no empty rows below the text.
    public func visibleTop(in area: Rect) -> Int {
        visibleTop(rows: Self.textRows(in: area), layout: Layout(text: text, width: area.width))
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.background)
        let layout = Layout(text: text, width: area.width)
        let rows = Self.textRows(in: area)
        let top = visibleTop(rows: rows, layout: layout)
        let shown = top..<min(top + rows, layout.rows.count)
        for index in shown {
            drawRow(layout.rows[index], y: area.y + index - top, in: area, into: &buffer)
        }
        for remote in remoteCursors {
            mark(remote.position, style: remote.style(in: theme), layout: layout, shown: shown, in: area, into: &buffer)
        }
        mark(cursor, style: Style(reverse: true), layout: layout, shown: shown, in: area, into: &buffer)
        if area.height >= 2 {
            drawFooter(in: area.row(area.height - 1), into: &buffer)
        }
    }

    /// Rows for text: all but the footer's, or the only one.
    static func textRows(in area: Rect) -> Int {
        area.height >= 2 ? area.height - 1 : area.height
    }

    private func visibleTop(rows: Int, layout: Layout) -> Int {
        guard rows > 0 else { return 0 }
        let cursorRow = layout.place(of: cursor).row
        let top = min(max(scrollTop, cursorRow - rows + 1), cursorRow)
        return max(min(top, layout.rows.count - rows), 0)
    }

    private func drawRow(_ row: Layout.Row, y: Int, in area: Rect, into buffer: inout Buffer) {
        for glyph in row.glyphs where glyph.column < area.width {
            var style = theme.text
            if let overLimit, overLimit.contains(glyph.index) {
                style = style.patched(with: overLimitStyle)
            }
            let x = area.x + glyph.column
            buffer.write(String(glyph.character), x: x, y: y, style: style, maxWidth: area.maxX - x)
        }
    }

    /// Red behind the text in colour, underlined without.
    var overLimitStyle: Style {
        guard theme.usesColor else { return Style(underline: true) }
        return Style(fg: theme.text.fg, bg: theme.levelLimit.fg)
    }

    /// Lays `style` over the character at position `offset` (both halves
    /// of a wide one), or over a blank cell where no character is (the end
    /// of a line): a cursor cell, never a letter in the text.
    private func mark(_ offset: Int, style: Style, layout: Layout, shown: Range<Int>,
                      in area: Rect, into buffer: inout Buffer) {
        let (row, column) = layout.place(of: offset)
        guard shown.contains(row), column < area.width else { return }
        let x = area.x + column
        let y = area.y + row - shown.lowerBound
        if let glyph = layout.rows[row].glyphs.first(where: { $0.column == column && $0.width > 0 }) {
            buffer.patchStyle(Rect(x: x, y: y, width: min(glyph.width, area.maxX - x), height: 1), with: style)
        } else {
            buffer.set(" ", x: x, y: y, style: theme.background.patched(with: style))
        }
    }
}
