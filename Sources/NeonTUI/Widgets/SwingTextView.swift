import NeonCore

/// A line of text shifted left by a swing offset (NeonCore's
/// `SwingMotion.offset(at:)`), clipped to its rectangle; a wide character cut
/// by either edge leaves a space. Drawn on the rectangle's first row, the
/// rest of which is cleared.
public struct SwingTextView: Widget {
    /// One line of text.
    public var text: String
    /// Columns the text is shifted by: 0 or negative.
    public var offset: Int
    public var style: Style

    /// `text` shifted by `offset`, drawn in `style`.
    public init(text: String, offset: Int, style: Style = Theme.neon.text) {
        self.text = text
        self.offset = offset
        self.style = style
    }

    /// The swing of `text` in a field `fieldWidth` columns wide.
    public static func motion(text: String, fieldWidth: Int) -> SwingMotion {
        SwingMotion(textWidth: DisplayWidth.of(text), fieldWidth: fieldWidth)
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        let row = area.row(0)
        buffer.fill(row, style: Style(bg: style.bg))
        buffer.write(text, x: row.x + offset, y: row.y, style: style, clip: row.x..<row.maxX)
    }
}
