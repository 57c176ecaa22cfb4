import NeonCore
import NeonTUI

/// The speaker notes of one passage: a box titled with the passage, the
/// notes in it one paragraph each (their lines kept, wrapped to the box),
/// from row `scroll` on, and `next: TITLE` on its last row. Without notes
/// it says so. Too small for a border (fewer than 3 rows or 4 columns), it
/// draws the notes alone.
struct SpeakerNotesView: Widget {
    var heading: String
    var notes: [String]
    var next: String?
    var scroll = 0
    var theme: Theme

    /// Said in the box when the passage has no notes.
    static let emptyText = "no notes for this passage"

    func draw(in area: Rect, into buffer: inout Buffer) {
        guard !area.isEmpty else { return }
        buffer.fill(area, style: theme.background)
        let bordered = area.height >= 3 && area.width >= 4
        if bordered { BorderBox(title: heading, theme: theme).render(in: area, into: &buffer) }
        let inner = bordered ? BorderBox.inner(of: area) : area
        let parts = Stack.vertical([.fill(1), .length(next == nil || inner.height < 2 ? 0 : 1)]).split(inner)
        if notes.isEmpty {
            buffer.write(Self.emptyText, x: parts[0].x, y: parts[0].y, style: theme.muted, maxWidth: parts[0].width,
                         ellipsis: theme.glyphs.ellipsis)
        } else if let layout = layout(width: parts[0].width) {
            DocumentView(layout: layout, top: min(scroll, max(layout.rowCount - parts[0].height, 0)), theme: theme)
                .render(in: parts[0], into: &buffer)
        }
        if let next, !parts[1].isEmpty {
            buffer.write("next: " + next, x: parts[1].x, y: parts[1].y, style: theme.accent, maxWidth: parts[1].width,
                         ellipsis: theme.glyphs.ellipsis)
        }
    }

    /// The notes wrapped to `width`: plain text, one block per note.
    func layout(width: Int) -> Layout? {
        let text = notes.map { $0.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? " " : String($0) }.joined(separator: "\n") }.joined(separator: "\n\n")
        guard let document = try? Document.parse(title: heading, format: .text, text: text) else { return nil }
        return Layout(document: document, width: max(width, 1))
    }
}
