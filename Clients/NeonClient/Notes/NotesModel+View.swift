import NeonCore
import NeonTUI

extension NotesModel {
    var frame: ScreenFrame { ScreenFrame(columns: columns, rows: rows) }

    /// The passage row and the notes box under it.
    var body: (passage: Rect, notes: Rect) {
        let parts = Stack.vertical([.length(1), .fill(1)]).split(frame.body)
        return (parts[0], parts[1])
    }

    /// How far the notes scroll: their rows past the box.
    var maxScroll: Int {
        let area = body.notes
        let inner = area.height >= 3 ? BorderBox.inner(of: area) : area
        let view = SpeakerNotesView(heading: "", notes: passageNotes, next: passage?.next, theme: .neon)
        let shown = inner.height - (passage?.next == nil ? 0 : 1)
        return max((view.layout(width: inner.width)?.rowCount ?? 0) - shown, 0)
    }

    public func view(at time: Duration, theme: Theme) -> Buffer {
        var buffer = Buffer(width: columns, height: rows, style: theme.background)
        let frame = self.frame
        let right = theme.chrome(" \(room) · \(name) ")
        let fields = Stack.horizontal([.fill(1), .length(1), .length(min(DisplayWidth.of(right), columns / 2))]).split(frame.title)
        buffer.write(theme.chrome("Notes · ") + published.title, x: fields[0].x, y: fields[0].y, style: theme.strong,
                     maxWidth: fields[0].width, ellipsis: theme.glyphs.ellipsis)
        buffer.write(right, x: fields[2].x, y: fields[2].y, style: theme.muted, maxWidth: fields[2].width,
                     ellipsis: theme.glyphs.ellipsis)
        let body = self.body
        let who = presenter.map { "following \($0.name)" } ?? "waiting for the presenter"
        let line = theme.chrome((passage.map { $0.title + " · " } ?? "") + who)
        buffer.write(line, x: body.passage.x, y: body.passage.y, style: theme.accent, maxWidth: body.passage.width,
                     ellipsis: theme.glyphs.ellipsis)
        SpeakerNotesView(heading: "Notes", notes: passageNotes, next: passage?.next, scroll: scroll, theme: theme)
            .render(in: body.notes, into: &buffer)
        statusLine(at: time, theme: theme).render(in: frame.status, into: &buffer)
        keyList.render(helpOverlay(theme: theme), into: &buffer)
        return buffer
    }

    private func statusLine(at time: Duration, theme: Theme) -> StatusLine {
        var right: [String]
        switch connection {
        case .connecting: right = ["connecting"]
        case .closed: right = ["offline, reconnecting"]
        case .joined: right = [clock(at: time).map { "\($0) since the start" } ?? "the clock starts with the presenter"]
        }
        if let notice = notices.text(at: time) {
            return StatusLine(message: notice, right: right, theme: theme)
        }
        return StatusLine(items: ["j/k scroll", "0 restarts the clock", "? keys", "q quit"], right: right, theme: theme)
    }
}
