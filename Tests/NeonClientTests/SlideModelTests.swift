import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

/// samples/deck.md, a deck in presenterm's style.
let sampleDeck: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("samples/deck.md"), encoding: .utf8)) ?? ""
}()

@Suite("Slides in the reader")
struct SlideModelTests {
    let pat = ClientID("c9")

    func presenter(columns: Int = 120, rows: Int = 40) -> ReaderModel {
        let file = DocumentInfo(title: "deck.md", format: .markdown, text: sampleDeck)
        var m = ReaderModel(mode: .present, room: "deck", name: "pat", columns: columns, rows: rows, document: file, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: pat, room: "deck", document: nil, readers: [ReaderInfo(id: pat, name: "pat", role: .presenter)],
                        presenter: pat, draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return m
    }

    func screen(_ m: ReaderModel) -> String {
        snapshot(m.view(at: .zero, theme: .monochrome))
    }

    func scrolls(_ commands: [ClientCommand]) -> [ClientMessage] {
        commands.compactMap { if case let .send(m) = $0, case .scroll = m { m } else { nil } }
    }

    @Test("a deck with separators is presented as slides: one at a time, centred, the rest of the deck not shown")
    func oneSlideAtATime() throws {
        let m = presenter()
        #expect(m.slides.isOn && m.slides.place == SlidePlace(slide: 0, slides: 6, step: 0, steps: 1))
        let text = screen(m)
        #expect(text.contains("Slide 1 of 6 · Reading together, live"))
        #expect(text.contains("A NeonSync deck in presenterm's style") && text.contains("The NeonSync team"))
        let box = m.geometry.box
        let slide = text.split(separator: "\n").dropFirst(box.y).prefix(box.height).map { String($0.prefix(box.width)) }.joined(separator: "\n")
        #expect(!slide.contains("Why read together?") && !slide.contains("theme"), "one slide; the front matter's settings are not content")
        let title = try #require(text.split(separator: "\n").first { $0.contains("│") && $0.contains("Reading together, live") })
        let inside = title.split(separator: "│", omittingEmptySubsequences: false)[1]
        #expect(inside.prefix { $0 == " " }.count > 10, "centred across: \(inside)")
    }

    @Test("→ reveals the next step (a pause hides what follows it), then the next slide; ← goes back; 3 Enter goes to slide 3; each move sends the step")
    func stepsAndJumps() throws {
        var m = presenter()
        _ = m.handle(.key(.right), at: .zero)
        var text = screen(m)
        #expect(text.contains("Why read together?") && text.contains("Everyone in the room reads"))
        #expect(!text.contains("Followers land") && !text.contains("The rest of this deck"), "hidden until its step")
        #expect(text.contains("Slide 2 of 6"))
        let out = m.handle(.key(.character(" ")), at: .zero)
        text = screen(m)
        #expect(text.contains("Followers land") && !text.contains("The rest of this deck"))
        guard case let .scroll(_, _, _, anchor, step)? = scrolls(out).first else { Issue.record("no scroll"); return }
        #expect(step == 1 && m.pane.document.map { SlideDeck($0).slide(containing: anchor.block) } == 1)
        _ = m.handle(.key(.left), at: .zero)
        #expect(m.slides.step == 0 && m.slides.slide == 1)
        _ = m.handle(.key(.left), at: .zero)
        #expect(m.slides.slide == 0)
        _ = m.handle(.key(.character("3")), at: .zero)
        #expect(screen(m).contains("go to slide 3"))
        _ = m.handle(.key(.enter), at: .zero)
        #expect(m.slides.slide == 2 && screen(m).contains("Pointing at things"))
        _ = m.handle(.key(.character("9")), at: .zero)
        _ = m.handle(.key(.enter), at: .zero)
        #expect(m.slides.slide == 2 && m.notices.current?.text == "slide 9 does not exist; this deck has slides 1–6")
        _ = m.handle(.key(.character("G")), at: .zero)
        #expect(m.slides.slide == 5 && screen(m).contains("The end"))
    }

    @Test("a search while slides show goes to the slide of the match, shown whole")
    func searchInSlides() {
        var m = presenter()
        _ = m.handle(.key(.character("/")), at: .zero)
        for c in "Coloured" { _ = m.handle(.key(.character(c)), at: .zero) }
        let out = m.handle(.key(.enter), at: .zero)
        #expect(m.slides.slide == 4 && screen(m).contains("Coloured text"))
        #expect(scrolls(out).count == 1)
        _ = m.handle(.key(.character("/")), at: .zero)
        for c in "Followers land" { _ = m.handle(.key(.character(c)), at: .zero) }
        _ = m.handle(.key(.enter), at: .zero)
        #expect(m.slides.slide == 1 && m.slides.step == 2 && screen(m).contains("Followers land"))
    }

    @Test("columns stand side by side where they fit, and stack on a narrow terminal")
    func columns() throws {
        var wide = presenter()
        _ = wide.handle(.key(.character("4")), at: .zero)
        _ = wide.handle(.key(.enter), at: .zero)
        let rows = screen(wide).split(separator: "\n")
        #expect(rows.contains { $0.contains("The left column") && $0.contains("The right column") })
        #expect(rows.contains { $0.contains("Both columns end here; this line spans the whole slide.") })
        var narrow = presenter(columns: 30, rows: 40)
        _ = narrow.handle(.key(.character("4")), at: .zero)
        _ = narrow.handle(.key(.enter), at: .zero)
        let stacked = screen(narrow).split(separator: "\n")
        #expect(!stacked.contains { $0.contains("The left") && $0.contains("The right") })
        #expect(stacked.contains { $0.contains("The right") })
    }

    @Test("a follower of another size shows the presenter's slide and step; a slide taller than the screen scrolls within itself")
    func follower() throws {
        let published = PresenterSource(markdown: sampleDeck).published
        var f = ReaderModel(mode: .follow, room: "deck", name: "fay", columns: 60, rows: 20, at: .zero)
        _ = f.connected(at: .zero)
        let place = SlidePlace(slide: 1, slides: 6, step: 1, steps: 3)
        let document = try Document.parse(title: "deck.md", format: .markdown, text: published)
        let first = SlideDeck(document).slides[1].blocks.lowerBound
        var presenterInfo = ReaderInfo(id: pat, name: "pat", role: .presenter, anchor: Anchor(block: first, offset: 0))
        presenterInfo.slidePlace = place
        let w = Welcome(you: me, room: "deck", document: DocumentInfo(title: "deck.md", format: .markdown, text: published, version: 1),
                        readers: [presenterInfo, ReaderInfo(id: me, name: "fay", role: .reader, following: true)], presenter: pat,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = f.receive(ServerMessage(seq: 4, .welcome(w)), at: .zero)
        #expect(f.slides.isOn && f.slides.slide == 1 && f.slides.step == 1)
        let text = screen(f)
        #expect(text.contains("Followers land") && !text.contains("The rest of this deck"))
        #expect(f.notesPassage?.title == "slide 2 of 6 · Why read together?")

        let next = ProgressInfo(id: pat, progress: 0.6, percent: 60, atBottom: false, section: 2,
                                anchor: Anchor(block: SlideDeck(document).slides[2].blocks.lowerBound, offset: 0),
                                slidePlace: SlidePlace(slide: 2, slides: 6, step: 0, steps: 1))
        _ = f.receive(ServerMessage(seq: 5, .progress(next)), at: .seconds(1))
        #expect(f.slides.slide == 2 && screen(f).contains("Pointing at things"))
        #expect(f.slides.maximumTop > 0, "the table slide is taller than 60x20's page")
        _ = f.handle(.key(.character("j")), at: .seconds(2))
        #expect(f.slides.top == 1 && !f.isFollowing, "scrolling within the slide detaches")
    }
}
