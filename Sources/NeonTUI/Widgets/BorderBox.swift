import NeonCore

/// A rounded border (`╭╮╰╯─│`, or `+-|` with ASCII glyphs) with an optional
/// title in the top edge: `╭─ Title ───╮`. The inside is cleared to the
/// theme's background; draw the content into `inner(of:)` afterwards.
///
/// A rectangle narrower or shorter than 2 cells has no room for a border and
/// draws nothing.
public struct BorderBox: Widget {
    public var title: String?
    /// The title's swing offset (≤ 0, from `SwingMotion` with
    /// `titleFieldWidth(forWidth:)` as the field) when it is too long; at 0
    /// a title too long ends in "…".
    public var titleOffset: Int
    public var theme: Theme

    /// A box titled `title`, or untitled.
    public init(title: String? = nil, titleOffset: Int = 0, theme: Theme = .neon) {
        self.title = title
        self.titleOffset = titleOffset
        self.theme = theme
    }

    /// The columns left for the title in a box `width` wide: the width less
    /// the corners, the dash, and a space each side.
    public static func titleFieldWidth(forWidth width: Int) -> Int {
        max(width - 5, 0)
    }

    /// The rectangle inside the border.
    public static func inner(of area: Rect) -> Rect {
        Rect(x: area.x + 1, y: area.y + 1, width: area.width - 2, height: area.height - 2)
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard area.width >= 2, area.height >= 2 else { return }
        let g = theme.glyphs
        let style = theme.border
        let right = area.maxX - 1
        let bottom = area.maxY - 1
        buffer.fill(Self.inner(of: area), style: theme.background)
        buffer.fill(Rect(x: area.x + 1, y: area.y, width: area.width - 2, height: 1), style: style, character: g.horizontal)
        buffer.fill(Rect(x: area.x + 1, y: bottom, width: area.width - 2, height: 1), style: style, character: g.horizontal)
        buffer.fill(Rect(x: area.x, y: area.y + 1, width: 1, height: area.height - 2), style: style, character: g.vertical)
        buffer.fill(Rect(x: right, y: area.y + 1, width: 1, height: area.height - 2), style: style, character: g.vertical)
        buffer.set(g.topLeft, x: area.x, y: area.y, style: style)
        buffer.set(g.topRight, x: right, y: area.y, style: style)
        buffer.set(g.bottomLeft, x: area.x, y: bottom, style: style)
        buffer.set(g.bottomRight, x: right, y: bottom, style: style)
        drawTitle(in: area, into: &buffer)
    }

    private func drawTitle(in area: Rect, into buffer: inout Buffer) {
        let field = Self.titleFieldWidth(forWidth: area.width)
        guard let title = title.map(theme.chrome), !title.isEmpty, field > 0 else { return }
        let start = area.x + 3
        let shown = min(DisplayWidth.of(title), field)
        buffer.set(" ", x: start - 1, y: area.y, style: theme.background)
        buffer.fill(Rect(x: start, y: area.y, width: shown, height: 1), style: theme.background)
        if titleOffset == 0 {
            buffer.write(title, x: start, y: area.y, style: theme.strong, maxWidth: field, ellipsis: theme.glyphs.ellipsis)
        } else {
            buffer.write(title, x: start + titleOffset, y: area.y, style: theme.strong, clip: start..<start + field)
        }
        buffer.set(" ", x: start + shown, y: area.y, style: theme.background)
    }
}
