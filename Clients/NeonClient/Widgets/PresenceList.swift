import NeonCore
import NeonTUI

/// Who reads along: one row per reader with a role marker (`★` presenter,
/// `↳` following the presenter, `◦` observer), the name, a small bar and
/// `NN%`. Observers have no place in the document: their row says
/// `watching` where a reader's shows the bar and percent. A name longer than its field swings (NeonCore's `SwingMotion`) as
/// `time` goes on. Narrow rows drop the bar, then the percentage, then the
/// marker; entries below the rectangle are not drawn.
public struct PresenceList: Widget {
    /// One reader as the list shows them.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var role: Role
        /// Reading progress, 0–100; values outside are clamped.
        public var percent: Int
        /// A reader tracking the presenter.
        public var following: Bool
        /// The reader at this terminal, drawn in bold.
        public var isSelf: Bool
        /// The server vouches for the name (its login name on the server's
        /// Unix socket): drawn with a `✓` after it.
        public var verified: Bool

        /// One reader.
        public init(name: String, role: Role, percent: Int, following: Bool = false, isSelf: Bool = false,
                    verified: Bool = false) {
            self.name = name
            self.role = role
            self.percent = percent
            self.following = following
            self.isSelf = isSelf
            self.verified = verified
        }

        /// The entry for a reader of the room's presence list.
        public init(_ info: ReaderInfo, isSelf: Bool = false) {
            self.init(name: info.name, role: info.role, percent: info.percent, following: info.following,
                      isSelf: isSelf, verified: info.isVerified)
        }

        /// The name as drawn: with ` ✓` when verified.
        var shownName: String { verified ? name + " ✓" : name }
    }

    public var entries: [Entry]
    /// The time driving the names' swing.
    public var time: Duration
    public var theme: Theme

    /// The list of `entries` as it looks at `time`.
    public init(entries: [Entry], time: Duration, theme: Theme = .neon) {
        self.entries = entries
        self.time = time
        self.theme = theme
    }

    /// Where the parts of a row go in a row `width` wide; a width of 0 means
    /// the part is left out.
    struct Columns: Equatable {
        var marker: Int
        var name: Int
        var bar: Int
        var percent: Int

        init(width: Int) {
            marker = width >= 3 ? 2 : 0
            percent = width >= 11 ? 5 : 0
            bar = width >= 24 ? min(10, width - 18) + 1 : 0
            name = max(width - marker - percent - bar, 0)
        }
    }

    public func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.background)
        let columns = Columns(width: area.width)
        for (index, entry) in entries.prefix(area.height).enumerated() {
            draw(entry, columns: columns, y: area.y + index, x: area.x, into: &buffer)
        }
    }

    private func draw(_ entry: Entry, columns: Columns, y: Int, x: Int, into buffer: inout Buffer) {
        var x = x
        if columns.marker > 0 {
            let (symbol, style) = marker(for: entry)
            buffer.set(symbol, x: x, y: y, style: style)
            x += columns.marker
        }
        let motion = SwingMotion(textWidth: DisplayWidth.of(entry.shownName), fieldWidth: columns.name)
        if motion.isCut {
            buffer.write(entry.shownName, x: x, y: y, style: nameStyle(for: entry), maxWidth: columns.name,
                         ellipsis: theme.glyphs.ellipsis)
        } else {
            buffer.write(entry.shownName, x: x + motion.offset(at: time), y: y, style: nameStyle(for: entry),
                         clip: x..<x + columns.name)
        }
        x += columns.name
        guard entry.role.isReading else {
            let label = "watching"
            let room = columns.bar + columns.percent
            if room > label.count {
                buffer.write(label, x: x + room - label.count, y: y, style: theme.muted)
            }
            return
        }
        let fraction = Double(min(max(entry.percent, 0), 100)) / 100
        if columns.bar > 0 {
            LinearBar(fraction: fraction, fill: theme.barFill, theme: theme)
                .draw(x: x + 1, y: y, width: columns.bar - 1, into: &buffer)
            x += columns.bar
        }
        if columns.percent > 0 {
            let text = "\(min(max(entry.percent, 0), 100))%"
            buffer.write(text, x: x + columns.percent - text.count, y: y, style: theme.text)
        }
    }

    private func marker(for entry: Entry) -> (Character, Style) {
        let glyphs = theme.glyphs
        switch entry.role {
        case .presenter: return (glyphs.presenter, theme.strong)
        case .observer: return (glyphs.observer, theme.muted)
        case .reader: return entry.following ? (glyphs.follower, theme.accent) : (" ", theme.background)
        }
    }

    private func nameStyle(for entry: Entry) -> Style {
        let base = entry.role == .presenter ? theme.accent : entry.role == .observer ? theme.muted : theme.text
        return entry.isSelf ? base.patched(with: Style(bold: true)) : base
    }
}
