import NeonCore

/// A centred, bordered overlay listing keys and what they do:
///
///     ╭─ Keys ───────────╮
///     │ q      quit      │
///     │ /      search    │
///     ╰──────────────────╯
///
/// Keys are aligned in a column in bold accent. The box shrinks to the
/// rectangle; lines that do not fit are cut.
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
    public var theme: Theme

    /// An overlay listing `lines`.
    public init(lines: [Line], title: String = "Keys", theme: Theme = .neon) {
        self.lines = lines
        self.title = title
        self.theme = theme
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
        let box = area.centered(width: size.width, height: size.height)
        BorderBox(title: title, theme: theme).render(in: box, into: &buffer)
        let inner = BorderBox.inner(of: box)
        let content = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height)
        guard !content.isEmpty else { return }
        let keyColumn = (lines.map { DisplayWidth.of($0.key) }.max() ?? 0) + Self.gap
        for (index, line) in lines.prefix(content.height).enumerated() {
            let y = content.y + index
            buffer.write(line.key, x: content.x, y: y, style: theme.strong, maxWidth: content.width)
            guard keyColumn < content.width else { continue }
            buffer.write(line.action, x: content.x + keyColumn, y: y, style: theme.text,
                         maxWidth: content.width - keyColumn)
        }
    }
}
