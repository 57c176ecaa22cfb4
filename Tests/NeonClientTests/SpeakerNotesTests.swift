import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// A talk with speaker notes in both of presenterm's forms.
let notedTalk = """
# Opening

Welcome, everyone.

<!-- speaker_note: thank the organisers -->

# Results

The numbers went up.

<!--
speaker_note: |
  mention the baseline
  then the chart
-->

More results.

# Questions

Any questions?
"""

@Suite("Speaker notes in the reader and on the notes screen")
struct SpeakerNotesTests {
    private func presenter(columns: Int, rows: Int) -> (ReaderModel, [ClientCommand]) {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: notedTalk)
        var m = ReaderModel(mode: .present, room: "talk", name: "pat", columns: columns, rows: rows, document: file, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "talk", document: nil, readers: [ReaderInfo(id: me, name: "pat", role: .presenter)],
                        presenter: me, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        let out = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return (m, out)
    }

    private func published(_ commands: [ClientCommand]) -> String? {
        commands.lazy.compactMap { command -> String? in
            if case let .send(.document(_, _, text, _, _, _, _)) = command { return text }
            return nil
        }.first
    }

    @Test("present FILE publishes the talk without its notes and keeps them for itself")
    func publishesWithoutNotes() throws {
        let (m, out) = presenter(columns: 120, rows: 30)
        let text = try #require(published(out))
        #expect(!text.contains("speaker_note") && !text.contains("organisers") && !text.contains("baseline"))
        #expect(text.contains("Welcome, everyone.") && text.contains("More results."))
        #expect(m.notes.notes.map(\.text) == ["thank the organisers", "mention the baseline\nthen the chart"])
        #expect(m.notes.isOpen, "a talk with notes opens the panel")
    }

    @Test("read FILE publishes without the notes too, and shows none")
    func readerNeverShowsNotes() throws {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: notedTalk)
        var m = ReaderModel(mode: .read, room: "talk", name: "ada", columns: 120, rows: 30, document: file, at: .zero)
        #expect(m.notes.notes.isEmpty)
        #expect(m.pendingDocument.map { !$0.text.contains("organisers") } == true)
        _ = m.handle(.key(.character("s")), at: .zero)
        #expect(!m.geometry.showsNotes)
        #expect(!snapshot(m.view(at: .zero, theme: .monochrome)).contains("organisers"))
    }

    @Test("wide: the notes stand right of the document and show the passage's notes; s hides them and the text widens")
    func wideTerminal() {
        var (m, _) = presenter(columns: 120, rows: 30)
        let g = m.geometry
        #expect(g.showsNotes && g.notes.x > g.box.maxX && g.notes.height == g.box.height)
        let screen = snapshot(m.view(at: .zero, theme: .monochrome))
        #expect(screen.contains("Notes · §1 Opening") && screen.contains("thank the organisers") && screen.contains("next: Results"))
        #expect(!screen.contains("baseline"), "another section's notes wait for it")
        let narrow = m.geometry.wrapWidth
        _ = m.handle(.key(.character("s")), at: .zero)
        #expect(!m.geometry.showsNotes && m.geometry.wrapWidth > narrow)
        #expect(!snapshot(m.view(at: .zero, theme: .monochrome)).contains("organisers"))
        _ = m.handle(.key(.character("s")), at: .zero)
        #expect(m.geometry.showsNotes)
    }

    @Test("narrow and tall: the notes go under the document; small: there is no room and a key says so")
    func otherSizes() {
        let (tall, _) = presenter(columns: 80, rows: 24)
        let g = tall.geometry
        #expect(g.showsNotes && g.notes.y > g.box.maxY - 1 && g.notes.width == 80)
        _ = tall
        var (small, _) = presenter(columns: 60, rows: 14)
        #expect(!small.geometry.showsNotes)
        _ = small.handle(.key(.character("s")), at: .zero)
        _ = small.handle(.key(.character("s")), at: .zero)
        #expect(small.notices.current?.text.contains("no room for the notes") == true)
    }

    @Test("the notes follow the presenter's section")
    func followsSection() {
        var (m, _) = presenter(columns: 120, rows: 30)
        _ = m.handle(.key(.character("2")), at: .zero)
        _ = m.tick(at: .seconds(3))
        let screen = snapshot(m.view(at: .seconds(3), theme: .monochrome))
        #expect(screen.contains("Notes · §2 Results") && screen.contains("mention the baseline") && screen.contains("then the chart"))
        #expect(screen.contains("next: Questions"))
    }

    @Test("the notes screen joins as an observer, follows the presenter's section and counts the talk's time")
    func notesScreen() {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: notedTalk)
        var n = NotesModel(room: "talk", name: "pat", file: file, columns: 70, rows: 20)
        #expect(n.connected(at: .zero) == [.send(.hello(room: "talk", name: "pat", role: .observer, notes: true))])
        let room = DocumentInfo(title: "talk.md", format: .markdown, text: n.published.text)
        let w = Welcome(you: ClientID("c2"), room: "talk", document: room,
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter), ReaderInfo(id: ClientID("c2"), name: "pat", role: .observer)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = n.receive(ServerMessage(seq: 2, .welcome(w)), at: .seconds(10))
        #expect(n.started == .seconds(10))
        var screen = snapshot(n.view(at: .seconds(10), theme: .monochrome))
        #expect(screen.contains("§1 Opening · following pat") && screen.contains("thank the organisers"))
        #expect(screen.contains("next: Results") && screen.contains("00:00 since the start"))
        let progress = ProgressInfo(id: pat, progress: 0.5, percent: 50, atBottom: false, section: 1, anchor: Anchor(block: 3, offset: 0))
        _ = n.receive(ServerMessage(seq: 3, .progress(progress)), at: .seconds(75))
        screen = snapshot(n.view(at: .seconds(75), theme: .monochrome))
        #expect(screen.contains("§2 Results") && screen.contains("mention the baseline") && !screen.contains("organisers"))
        #expect(screen.contains("01:05 since the start"))
        #expect(n.nextWake(after: .seconds(75)) == .seconds(76))
        #expect(n.notices.current == nil, "the room's document is the file's")
    }

    @Test("on the notes screen, a presenter showing slides is on a slide: its notes, and the next slide's title")
    func notesScreenSlides() throws {
        let file = DocumentInfo(title: "deck.md", format: .markdown, text: sampleDeck)
        var n = NotesModel(room: "deck", name: "pat", file: file, columns: 70, rows: 20)
        _ = n.connected(at: .zero)
        let w = Welcome(you: ClientID("c2"), room: "deck", document: DocumentInfo(title: "deck.md", format: .markdown, text: n.published.text),
                        readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)], presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = n.receive(ServerMessage(seq: 2, .welcome(w)), at: .zero)
        let deck = SlideDeck(try #require(n.document))
        let place = SlidePlace(slide: 2, slides: 6, step: 0, steps: 1)
        let progress = ProgressInfo(id: pat, progress: place.progress, percent: place.percent, atBottom: false, section: 2,
                                    anchor: Anchor(block: deck.slides[2].blocks.lowerBound, offset: 0), slidePlace: place)
        _ = n.receive(ServerMessage(seq: 3, .progress(progress)), at: .seconds(1))
        let screen = snapshot(n.view(at: .seconds(1), theme: .monochrome))
        #expect(screen.contains("slide 3 of 6 · Pointing at things") && screen.contains("Point at the table row for P,"))
        #expect(screen.contains("then clear it.") && screen.contains("next: Two columns"))
        #expect(!screen.contains("Ask who has presented"), "slide 2's note waits for slide 2")
    }

    @Test("the notes screen says when the room's document is not the file")
    func notesScreenMismatch() {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: notedTalk)
        var n = NotesModel(room: "talk", name: "pat", file: file, columns: 70, rows: 20)
        _ = n.connected(at: .zero)
        let w = Welcome(you: ClientID("c2"), room: "talk", document: DocumentInfo(title: "other.md", format: .markdown, text: "# Other"),
                        readers: [], presenter: nil, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = n.receive(ServerMessage(seq: 2, .welcome(w)), at: .zero)
        #expect(n.notices.current?.text.contains("is not talk.md as it is now") == true)
        #expect(n.started == nil)
    }
}
