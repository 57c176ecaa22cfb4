import Testing
@testable import NeonCore

@Suite("Layout anchors and scroll-spy")
struct LayoutAnchorTests {
    private let markdown = """
    Preamble text that wraps.

    # One

    the quick brown fox

    - item

    # Two

    ```
    0123456789
    ```
    """

    @Test("every row's anchor leads back to that row; a separator's leads to the row below it")
    func roundTrip() throws {
        let layout = try Layout(markdown: markdown, width: 10)
        for row in 0..<layout.rowCount {
            let anchor = layout.anchor(forRow: row)
            let expected = layout.line(at: row).part == .separator ? row + 1 : row
            #expect(layout.row(for: anchor) == expected, "row \(row)")
        }
    }

    @Test("a row's anchor is its block and the offset of its first character")
    func anchors() throws {
        let layout = try Layout(markdown: "the quick brown fox\n\nnext", width: 10)
        #expect(layout.drawn == ["the quick", "brown fox", "", "next"])
        #expect(layout.anchor(forRow: 0) == Anchor(block: 0, offset: 0))
        #expect(layout.anchor(forRow: 1) == Anchor(block: 0, offset: 10))
        #expect(layout.anchor(forRow: 2) == Anchor(block: 1, offset: 0))
        #expect(layout.anchor(forRow: 3) == Anchor(block: 1, offset: 0))
    }

    @Test("an anchor inside a row, or on the spaces at its end, finds that row")
    func offsets() throws {
        let layout = try Layout(markdown: "the quick brown fox", width: 10)
        #expect(layout.row(for: Anchor(block: 0, offset: 4)) == 0)
        #expect(layout.row(for: Anchor(block: 0, offset: 9)) == 0)
        #expect(layout.row(for: Anchor(block: 0, offset: 12)) == 1)
        #expect(layout.row(for: Anchor(block: 0, offset: 19)) == 1)
    }

    @Test("anchors out of range clamp to the nearest row")
    func clamping() throws {
        let layout = try Layout(markdown: "the quick brown fox\n\nnext", width: 10)
        #expect(layout.row(for: Anchor(block: -1, offset: 5)) == 0)
        #expect(layout.row(for: Anchor(block: 9, offset: 0)) == 3)
        #expect(layout.row(for: Anchor(block: 0, offset: -3)) == 0)
        #expect(layout.row(for: Anchor(block: 0, offset: 1_000)) == 1)
        #expect(layout.anchor(forRow: -4) == Anchor(block: 0, offset: 0))
        #expect(layout.anchor(forRow: 99) == Anchor(block: 1, offset: 0))
    }

    @Test("offsets count characters, not bytes or columns")
    func characterOffsets() throws {
        let layout = try Layout(markdown: "漢字 e\u{301}x 👨‍👩‍👧 tail", width: 6)
        #expect(layout.drawn == ["漢字", "e\u{301}x 👨‍👩‍👧", "tail"])
        #expect(layout.anchor(forRow: 1) == Anchor(block: 0, offset: 3))
        #expect(layout.anchor(forRow: 2) == Anchor(block: 0, offset: 8))
        #expect(layout.row(for: Anchor(block: 0, offset: 6)) == 1)
    }

    @Test("a card's offset 0 is its name row")
    func cards() throws {
        let json = #"[{"type": "T", "body": [{"name": "Kea", "headline": "alpine parrot"}]}]"#
        let layout = Layout(document: try Document.parse(title: "C", format: .catalog, text: json), width: 7)
        #expect(layout.drawn == ["T", "", "Kea", "alpine", "parrot"])
        #expect(layout.row(for: Anchor(block: 1, offset: 0)) == 2)
        #expect(layout.anchor(forRow: 3) == Anchor(block: 1, offset: 0))
        #expect(layout.row(for: Anchor(block: 1, offset: 8)) == 4)
    }

    @Test("an anchor taken at one width lands on the same text at another")
    func acrossWidths() throws {
        let narrow = try Layout(markdown: markdown, width: 7)
        let wide = try Layout(markdown: markdown, width: 60)
        for row in 0..<narrow.rowCount {
            let anchor = narrow.anchor(forRow: row)
            let wideRow = wide.row(for: anchor)
            #expect(wide.anchor(forRow: wideRow).block == anchor.block)
            #expect(wide.anchor(forRow: wideRow).offset <= anchor.offset)
        }
    }

    @Test("a section starts on its first block's row and out-of-range sections clamp")
    func sectionRows() throws {
        let layout = try Layout(markdown: markdown, width: 10)
        #expect(layout.document.sections.map(\.title) == ["T", "One", "Two"])
        #expect(layout.drawn[layout.firstRow(ofSection: 1)] == "One")
        #expect(layout.drawn[layout.firstRow(ofSection: 2)] == "Two")
        #expect(layout.firstRow(ofSection: 0) == 0)
        #expect(layout.firstRow(ofSection: -1) == 0)
        #expect(layout.firstRow(ofSection: 9) == layout.firstRow(ofSection: 2))
    }

    @Test("scroll-spy: the current section is the last one starting at most one row below the top")
    func scrollSpy() throws {
        let layout = try Layout(markdown: markdown, width: 10)
        #expect(Layout.scrollSpyThreshold == 1)
        let one = layout.firstRow(ofSection: 1)
        let two = layout.firstRow(ofSection: 2)
        #expect(layout.section(atTop: 0) == 0)
        #expect(layout.section(atTop: one - 2) == 0)
        #expect(layout.section(atTop: one - 1) == 1)
        #expect(layout.section(atTop: one) == 1)
        #expect(layout.section(atTop: two - 2) == 1)
        #expect(layout.section(atTop: two - 1) == 2)
        #expect(layout.section(atTop: layout.rowCount + 50) == 2)
        #expect(layout.section(atTop: -10) == 0)
    }

    @Test("a separator above a heading anchors into the heading's section, like scroll-spy")
    func separatorAgreesWithScrollSpy() throws {
        let layout = try Layout(markdown: markdown, width: 10)
        let separator = layout.firstRow(ofSection: 2) - 1
        let block = layout.anchor(forRow: separator).block
        #expect(layout.document.blocks[block].section == layout.section(atTop: separator))
    }
}
