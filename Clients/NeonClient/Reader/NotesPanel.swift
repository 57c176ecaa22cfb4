import NeonCore
import NeonTUI

/// The presenter's speaker notes in the reader: the notes its FILE holds
/// (never published), and whether the panel shows them (`s`). The panel
/// shows the notes of the passage the presenter is on; where it goes is
/// the geometry's (`ScreenGeometry.notes`).
public struct NotesPanel: Equatable, Sendable {
    public internal(set) var notes: [SpeakerNote] = []
    public internal(set) var isOpen = false

    /// The key that shows and hides the notes.
    public static let key: Character = "s"

    init() {}

    /// Notes of a new version of the file; the panel opens the first time
    /// there are some.
    mutating func take(_ notes: [SpeakerNote]) {
        if self.notes.isEmpty && !notes.isEmpty { isOpen = true }
        self.notes = notes
    }

    mutating func toggle() {
        isOpen.toggle()
    }

    func render(in area: Rect, passage: NotesPassage?, theme: Theme, into buffer: inout Buffer) {
        SpeakerNotesView(heading: "Notes · " + (passage?.title ?? ""), notes: passage.map { $0.notes(of: notes) } ?? [],
                         next: passage?.next, theme: theme)
            .render(in: area, into: &buffer)
    }
}
