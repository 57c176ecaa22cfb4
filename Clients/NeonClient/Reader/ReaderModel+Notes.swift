import NeonCore

extension ReaderModel {
    /// The passage whose speaker notes show: the section the header
    /// underlines.
    public var notesPassage: NotesPassage? {
        guard let document = pane.document else { return nil }
        if let deck = slides.deck { return .slide(slides.slide, of: deck) }
        return .section(currentSection, of: document)
    }

    /// `s`: shows or hides the presenter's notes; the document makes room
    /// for them, keeping its place.
    mutating func toggleNotes(at time: Duration) -> [ClientCommand] {
        guard mode == .present else {
            notices.note("speaker notes are the presenter's: they show in neonsync present FILE", error: false, at: time)
            return []
        }
        if notes.notes.isEmpty && !notes.isOpen {
            notices.note("no speaker notes in this document; write <!-- speaker_note: … --> beside a passage", error: false, at: time)
            return []
        }
        notes.toggle()
        let g = geometry
        pane.resize(width: g.wrapWidth, viewport: g.document.height)
        slides.fit(width: g.page.width, viewport: g.document.height, document: pane.document)
        search.refresh(in: pane.layout)
        if notes.isOpen && !g.showsNotes {
            notices.note("no room for the notes at \(columns)×\(rows); widen the terminal to \(ScreenGeometry.notesBesideColumns) columns or run neonsync notes FILE on another one",
                         error: false, at: time)
        }
        return moved(at: time)
    }
}
