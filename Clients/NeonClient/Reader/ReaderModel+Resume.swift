import NeonCore

extension ReaderModel {
    /// Presenting again under the name of the room's last presenter (after
    /// closing the terminal, or a crash): the room kept the place it left,
    /// which this terminal's own reader object in the welcome carries, and
    /// the screen starts there, so that the followers, already there, do
    /// not move. Only on a run's first welcome: after a reconnect the
    /// screen's own place is the newer one. When FILE changed while the
    /// presenter was away (it goes to the room as the next version), the
    /// place is carried onto it as the server carries it; a document that
    /// replaces the room's starts at its beginning.
    mutating func takeKeptPlace(_ welcome: Welcome, firstWelcome: Bool, at time: Duration) {
        guard firstWelcome, mode == .present, let info = welcome.document, let shown = pane.document,
              let mine = welcome.readers.first(where: { $0.id == welcome.you }), let kept = mine.anchor else { return }
        var anchor = kept
        if info != pane.shownDocument {
            guard revising?.info == pane.shownDocument,
                  let old = try? Document.parse(title: info.title, format: info.format, text: info.text) else { return }
            anchor = VersionMap(from: old, to: shown).place(kept)
        }
        guard slides.isOn, let deck = slides.deck else {
            _ = pane.reposition(to: anchor, atBottom: mine.atBottom, at: time)
            notices.note("back where you left: \(pane.position?.percent ?? mine.percent)%", error: false, at: time)
            return
        }
        slides.go(to: deck.slide(containing: anchor.block), step: mine.slidePlace?.step ?? 0, in: shown)
        if let layout = slides.layout, anchor != layout.anchor(forRow: 0) { slides.scroll(to: layout.row(for: anchor)) }
        pane.indicator.scrolled(at: time)
        guard let place = slides.place else { return }
        let step = place.steps > 1 ? ", step \(place.step + 1) of \(place.steps)" : ""
        notices.note("back where you left: slide \(place.slide + 1) of \(place.slides)\(step)", error: false, at: time)
    }
}
