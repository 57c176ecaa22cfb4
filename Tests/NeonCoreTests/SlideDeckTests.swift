import Foundation
import Testing
@testable import NeonCore

@Suite("Slides: decks, steps, front matter and the room's slide places")
struct SlideDeckTests {
    static let deck = """
    First
    ===

    Opening words.

    <!-- pause -->

    Revealed second.

    <!-- pause -->

    Revealed third.

    <!-- end_slide -->

    Second
    ---

    Middle words.

    <!-- end_slide -->

    # Third

    Closing words.

    <!-- end_slide -->

    <!-- a comment after the last separator -->
    """

    func parse(_ text: String) throws -> Document {
        try Document.parse(title: "deck.md", format: .markdown, text: text)
    }

    @Test("separators divide the deck; each separator ends its slide; pauses make steps; comments after the last separator stay with it")
    func separated() throws {
        let document = try parse(Self.deck)
        let deck = SlideDeck(document)
        #expect(deck.isSeparated)
        #expect(deck.slides.map(\.title) == ["First", "Second", "Third"])
        #expect(deck.slides.map(\.steps) == [3, 1, 1])
        #expect(deck.slides.map(\.blocks) == [0..<7, 7..<10, 10..<14])
        #expect(deck.slides[0].hidden(from: 0) == 2 && deck.slides[0].hidden(from: 1) == 4 && deck.slides[0].hidden(from: 2) == nil)
        #expect(deck.slide(containing: 8) == 1 && deck.slide(containing: 13) == 2 && deck.slide(containing: 99) == 2)
    }

    @Test("without separators each section is a slide; an empty document is one slide")
    func sections() throws {
        let deck = SlideDeck(try parse("Intro text.\n\n# One\n\nA.\n\n# Two\n\nB."))
        #expect(!deck.isSeparated && deck.slides.map(\.title) == ["Intro text.", "One", "Two"])
        #expect(SlideDeck(try parse("")).slides.count == 1)
    }

    @Test("presenterm's front matter becomes the intro: title, subtitle, authors; settings go, other keys stay as text; a deck's intro is a slide")
    func frontMatter() throws {
        let source = PresenterSource(markdown: """
            ---
            title: My _talk_
            sub_title: "The subtitle"
            authors:
              - Ada
              - Bob
            event: RustConf
            theme:
              name: dark
            custom: kept as text
            ---

            Body
            ---

            Text.

            <!-- end_slide -->

            More.
            """)
        let document = try parse(source.published)
        #expect(document.blocks.prefix(5).map(\.text) == ["My talk", "The subtitle", "Ada, Bob", "RustConf", "custom: kept as text"])
        #expect(!source.published.contains("theme") && !source.published.contains("dark"))
        let deck = SlideDeck(document)
        #expect(deck.slides.map(\.title) == ["My talk", "Body", "More."])
        #expect(PresenterSource(markdown: "---\nnot: [front\n\n# matter").published == "---\nnot: [front\n\n# matter",
                "without its closing line it is no front matter")
    }

    @Test("a scroll with a step places the member in the deck: progress counts slides, the slide is logged once per change, a step past the slide's is refused")
    func roomPlaces() throws {
        var r = RoomState(name: "deck")
        let pat = ClientID("c1"), fay = ClientID("c2")
        _ = r.apply(.joined(pat, name: "pat", role: .presenter), at: .zero)
        _ = r.apply(.joined(fay, name: "fay", role: .reader), at: .zero)
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "deck.md", format: .markdown, text: Self.deck)), at: .zero)
        let out = r.apply(.scrolled(pat, top: 0, viewport: 10, content: 8, anchor: Anchor(block: 7, offset: 0), step: 0), at: .zero)
        guard case let .progress(progress)? = out.broadcasts.first?.payload else { Issue.record("no progress"); return }
        #expect(progress.slidePlace == SlidePlace(slide: 1, slides: 3, step: 0, steps: 1))
        #expect(progress.percent == 66 && !progress.atBottom)
        #expect(out.logs.map(\.event).contains("slide"))
        let again = r.apply(.scrolled(pat, top: 1, viewport: 10, content: 8, anchor: Anchor(block: 8, offset: 0), step: 0), at: .zero)
        #expect(!again.logs.map(\.event).contains("slide"), "the same slide and step: no line")
        #expect(r.apply(.scrolled(pat, top: 0, viewport: 10, content: 8, anchor: .top, step: 3), at: .zero).errorCodes == [.invalidPosition])
        let last = r.apply(.scrolled(pat, top: 0, viewport: 10, content: 5, anchor: Anchor(block: 11, offset: 0), step: 0), at: .zero)
        guard case let .progress(end)? = last.broadcasts.first?.payload else { Issue.record("no progress"); return }
        #expect(end.percent == 100 && end.atBottom)
        #expect(r.members[pat]?.info.slidePlace == SlidePlace(slide: 2, slides: 3, step: 0, steps: 1), "in every welcome")
        let json = String(decoding: WireCodec().encode(ServerMessage(seq: 9, .progress(end))), as: UTF8.self)
        #expect(json.contains(#""slide":2"#) && json.contains(#""slides":3"#) && json.contains(#""step":0"#) && json.contains(#""steps":1"#))
        let image = try JSONDecoder().decode(RoomImage.self, from: JSONEncoder().encode(r.image))
        #expect(RoomState(image: image) == r)
        #expect(WireCodec().decodeClient(Array(#"{"type":"scroll","top":0,"viewport":9,"content":9,"anchor":{"block":0,"offset":0},"step":2}"#.utf8))
                == .success(.scroll(top: 0, viewport: 9, content: 9, anchor: .top, step: 2)))
    }
}
