import Testing
@testable import NeonCore

@Suite("Speaker notes taken out of a presenter's source")
struct PresenterSourceTests {
    private func texts(_ markdown: String) throws -> [String] {
        try Document.parse(title: "t", format: .markdown, text: markdown).blocks.map(\.text)
    }

    @Test("a one-line note between paragraphs is gone from the published text and belongs to the block before it")
    func oneLineNote() throws {
        let source = PresenterSource(markdown: "# Intro\n\nHello.\n\n<!-- speaker_note: greet them -->\n\nMore text.\n")
        #expect(!source.published.contains("speaker_note") && !source.published.contains("greet them"))
        #expect(try texts(source.published) == ["Intro", "Hello.", "More text."])
        #expect(source.notes == [SpeakerNote(block: 1, text: "greet them")])
    }

    @Test("the multi-line YAML forms keep their lines (|) or fold them (>)")
    func yamlForms() throws {
        let source = PresenterSource(markdown: """
            # One

            <!--
            speaker_note: |
              first line
              second line
            -->

            Body.

            <!-- speaker_note: >
              folded
              together -->
            """)
        #expect(try texts(source.published) == ["One", "Body."], "\(source.published.debugDescription)")
        #expect(source.notes == [SpeakerNote(block: 0, text: "first line\nsecond line"),
                                 SpeakerNote(block: 1, text: "folded together")])
    }

    @Test("a note right under a paragraph line, with text right under it, leaves two paragraphs, not one")
    func noParagraphsRunTogether() throws {
        let source = PresenterSource(markdown: "Para one\n<!-- speaker_note: between -->\nPara two\n")
        #expect(try texts(source.published) == ["Para one", "Para two"])
        #expect(source.notes == [SpeakerNote(block: 0, text: "between")])
    }

    @Test("a note inside a paragraph is cut out of it and belongs to that paragraph")
    func inlineNote() throws {
        let source = PresenterSource(markdown: "# A\n\nSay this <!-- speaker_note: slowly --> and that.\n")
        #expect(try texts(source.published) == ["A", "Say this and that."])
        #expect(source.notes == [SpeakerNote(block: 1, text: "slowly")])
    }

    @Test("a note in code is code: published as written and no note")
    func codeIsCode() throws {
        let markdown = "```markdown\n<!-- speaker_note: an example -->\n```\n\nText `<!-- speaker_note: inline example -->`.\n"
        let source = PresenterSource(markdown: markdown)
        #expect(source.published == markdown)
        #expect(source.notes.isEmpty)
    }

    @Test("a note that opens a slide belongs to the slide's first block, not to the separator before it")
    func noteOpeningASlide() throws {
        let source = PresenterSource(markdown: """
            First slide.

            <!-- end_slide -->

            <!-- speaker_note: second slide's note -->

            Second slide.
            """)
        #expect(try texts(source.published) == ["First slide.", "<!-- end_slide -->", "Second slide."])
        #expect(source.notes == [SpeakerNote(block: 2, text: "second slide's note")])
    }

    @Test("a note in a block quote keeps the quote whole")
    func noteInAQuote() throws {
        let source = PresenterSource(markdown: "> Quoted one.\n> <!-- speaker_note: quiet -->\n> Quoted two.\n")
        #expect(!source.published.contains("quiet"))
        let document = try Document.parse(title: "t", format: .markdown, text: source.published)
        #expect(document.blocks.map(\.text) == ["Quoted one.", "Quoted two."])
        #expect(document.blocks.allSatisfy { $0.kind == .quote })
        #expect(source.notes == [SpeakerNote(block: 0, text: "quiet")])
    }

    @Test("notes in a tight list leave it tight, and a source without notes is published unchanged")
    func tightListAndNoNotes() throws {
        let source = PresenterSource(markdown: "- one\n  <!-- speaker_note: n1 -->\n- two\n")
        let document = try Document.parse(title: "t", format: .markdown, text: source.published)
        #expect(document.blocks.map(\.text) == ["one", "two"])
        #expect(document.blocks[1].isTight)
        #expect(source.notes == [SpeakerNote(block: 0, text: "n1")])
        let plain = "# No notes\r\n\r\nA <!-- comment --> here.\r\n"
        #expect(PresenterSource(markdown: plain) == PresenterSource(markdown: plain))
        #expect(PresenterSource(markdown: plain).published == plain)
    }

    @Test("comment commands: presenterm's names, values, and plain comments")
    func commentCommands() {
        #expect(CommentCommand(html: "<!-- end_slide -->") == .endSlide)
        #expect(CommentCommand(html: "<!--pause-->\n") == .pause)
        #expect(CommentCommand(html: "<!-- column_layout: [3, 2] -->") == .columnLayout([3, 2]))
        #expect(CommentCommand(html: "<!-- column: 1 -->") == .column(1))
        #expect(CommentCommand(html: "<!-- reset_layout -->") == .resetLayout)
        #expect(CommentCommand(html: "<!-- new_lines: 3 -->") == .newLines(3))
        #expect(CommentCommand(html: "<!-- font_size: 2 -->") == .ignored("font_size"))
        #expect(CommentCommand(html: "<!-- a reminder to self -->") == .comment)
        #expect(CommentCommand(html: "<!-- speaker_note: \"quoted\" -->") == .speakerNote("quoted"))
        #expect(CommentCommand(html: "<div>html</div>") == nil)
        #expect(CommentCommand(html: "<!-- one --> <!-- two -->") == nil)
    }
}
