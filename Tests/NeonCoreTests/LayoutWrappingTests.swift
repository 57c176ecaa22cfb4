import Testing
@testable import NeonCore

extension Layout {
    /// Every row as a renderer draws it: prefix, text, then "…" when cut.
    var drawn: [String] {
        (0..<rowCount).map { row in
            let line = line(at: row)
            return line.prefix + line.text + (line.isTruncated ? "…" : "")
        }
    }

    init(markdown: String, width: Int) throws {
        self.init(document: try Document.parse(title: "T", format: .markdown, text: markdown), width: width)
    }
}

@Suite("Layout wrapping")
struct LayoutWrappingTests {
    @Test("paragraphs wrap at spaces, one blank row between blocks, headings on rows of their own")
    func words() throws {
        let layout = try Layout(markdown: "# Title\n\nthe quick brown fox jumps\n\nend", width: 10)
        #expect(layout.drawn == ["Title", "", "the quick", "brown fox", "jumps", "", "end"])
        #expect(layout.rowCount == 7)
    }

    @Test("widths 1, 2, 5 and 80 wrap the same words")
    func widths() throws {
        #expect(try Layout(markdown: "ab cd", width: 1).drawn == ["a", "b", "c", "d"])
        #expect(try Layout(markdown: "ab cd", width: 2).drawn == ["ab", "cd"])
        #expect(try Layout(markdown: "ab cd efg", width: 5).drawn == ["ab cd", "efg"])
        #expect(try Layout(markdown: "ab cd efg", width: 80).drawn == ["ab cd efg"])
    }

    @Test("a width below 1 is taken as 1")
    func tinyWidth() throws {
        for width in [0, -5, Int.min] {
            let layout = try Layout(markdown: "ab", width: width)
            #expect(layout.width == 1)
            #expect(layout.drawn == ["a", "b"])
        }
    }

    @Test("a word longer than the width breaks between characters")
    func longWord() throws {
        #expect(try Layout(markdown: "abcdefghij", width: 4).drawn == ["abcd", "efgh", "ij"])
        #expect(try Layout(markdown: "ab verylongword", width: 5).drawn == ["ab", "veryl", "ongwo", "rd"])
    }

    @Test("spaces at a wrap are dropped, spaces inside a row are kept")
    func spaces() throws {
        let text = try Document.parse(title: "T", format: .text, text: "a    b\n   indented")
        #expect(Layout(document: text, width: 3).drawn == ["a", "b", "", "ind", "ent", "ed"])
        #expect(Layout(document: text, width: 80).drawn == ["a    b", "   indented"])
    }

    @Test("wide characters never pass the width, and one on its own still moves on at width 1")
    func cjk() throws {
        #expect(try Layout(markdown: "漢字", width: 1).drawn == ["漢", "字"])
        #expect(try Layout(markdown: "漢字", width: 3).drawn == ["漢", "字"])
        #expect(try Layout(markdown: "漢字", width: 4).drawn == ["漢字"])
        #expect(try Layout(markdown: "a漢b", width: 2).drawn == ["a", "漢", "b"])
        #expect(try Layout(markdown: "```\n\u{200B}漢字\n```", width: 1).drawn == ["\u{200B}漢字…"], "code is cut, not wrapped")
        #expect(try Layout(markdown: "漢字 かな", width: 5).drawn == ["漢字", "かな"])
    }

    @Test("grapheme clusters are never split")
    func clusters() throws {
        #expect(try Layout(markdown: "👨‍👩‍👧👨‍👩‍👧", width: 3).drawn == ["👨‍👩‍👧", "👨‍👩‍👧"])
        #expect(try Layout(markdown: "🇫🇷🇩🇪", width: 2).drawn == ["🇫🇷", "🇩🇪"])
        #expect(try Layout(markdown: "e\u{301}e\u{301}", width: 1).drawn == ["e\u{301}", "e\u{301}"])
        #expect(try Layout(markdown: "\u{301}x", width: 1).drawn == ["\u{301}x"])
        #expect(try Layout(markdown: "漢\u{302}字", width: 2).drawn == ["漢\u{302}", "字"])
        #expect(try Layout(markdown: "\u{AC00}\u{11A8}\u{AC00}", width: 2).drawn == ["\u{AC00}\u{11A8}", "\u{AC00}"])
        #expect(try Layout(markdown: "か\u{3099}か", width: 3).drawn == ["か\u{3099}", "か"])
    }

    @Test("code lines keep their spaces, are never joined and never wrapped: a wide one is cut and scrolls")
    func code() throws {
        let layout = try Layout(markdown: "```\n  abcdef\n\nx y\n```", width: 4)
        #expect(layout.drawn == ["  abcdef…", "", "x y"])
        #expect(layout.line(at: 0).kind == .codeBlock(language: nil))
        #expect(layout.line(at: 0).isTruncated && !layout.line(at: 2).isTruncated)
        #expect(layout.codeOverflow == 4)
    }

    @Test("line breaks inside a plain-text paragraph are kept")
    func hardBreaks() throws {
        let document = try Document.parse(title: "T", format: .text, text: "line one\nline two\n\nnext")
        #expect(Layout(document: document, width: 80).drawn == ["line one", "line two", "", "next"])
    }

    @Test("list items hang under their marker, which is dropped when the width is too small")
    func listItems() throws {
        #expect(try Layout(markdown: "- one two three four", width: 10).drawn == ["• one two", "  three", "  four"])
        #expect(try Layout(markdown: "10. alpha beta", width: 9).drawn == ["10. alpha", "    beta"])
        #expect(try Layout(markdown: "- ab", width: 3).drawn == ["ab"])
        #expect(try Layout(markdown: "- 漢字", width: 4).drawn == ["• 漢", "  字"])
    }

    @Test("quotes draw a bar on every row")
    func quotes() throws {
        #expect(try Layout(markdown: "> aa bb cc", width: 5).drawn == ["│ aa", "│ bb", "│ cc"])
    }

    @Test("a card shows its name on a row, then at most two rows of headline cut with an ellipsis")
    func cards() throws {
        let json = """
        [{"type": "Birds", "body": [
          {"name": "Kakapo", "headline": "A large flightless nocturnal parrot of New Zealand"},
          {"name": "Northern Royal Albatross", "headline": "Short"},
          {"name": "Kea"}
        ]}]
        """
        let document = try Document.parse(title: "T", format: .catalog, text: json)
        let layout = Layout(document: document, width: 20)
        #expect(layout.drawn == [
            "Birds", "",
            "Kakapo", "A large flightless", "nocturnal parrot of…", "",
            "Northern Royal Alba…", "Short", "",
            "Kea",
        ])
        #expect(layout.line(at: 2).part == .cardName)
        #expect(layout.line(at: 3).part == .text)
        #expect(layout.line(at: 4).isTruncated)
        #expect(Layout(document: document, width: 1).drawn.prefix(5) == ["B", "i", "r", "d", "s"])
        #expect(Layout(document: document, width: 1).lines(0..<20).allSatisfy { $0.displayWidth <= 1 })
    }

    @Test("a separator row belongs to the block below it")
    func separators() throws {
        let layout = try Layout(markdown: "# A\n\ntext", width: 80)
        let separator = layout.line(at: 1)
        #expect(separator == LayoutLine(block: 1, kind: .paragraph, part: .separator, prefix: "", text: "", isTruncated: false))
        #expect(layout.rows(ofBlock: 0) == 0..<1)
        #expect(layout.rows(ofBlock: 1) == 2..<3)
        #expect(layout.rows(ofBlock: 2) == 0..<0)
    }

    @Test("an empty document lays out to no rows and answers every question without crashing")
    func empty() throws {
        let layout = try Layout(markdown: "", width: 40)
        #expect(layout.rowCount == 0)
        #expect(layout.drawn.isEmpty)
        #expect(layout.lines(0..<10).isEmpty)
        #expect(layout.anchor(forRow: 5) == .top)
        #expect(layout.row(for: Anchor(block: 3, offset: 9)) == 0)
        #expect(layout.firstRow(ofSection: 0) == 0)
        #expect(layout.section(atTop: 7) == 0)
    }

    @Test("lines() returns only rows that exist")
    func linesClamp() throws {
        let layout = try Layout(markdown: "a\n\nb", width: 80)
        #expect(layout.lines(-5..<100).map(\.text) == ["a", "", "b"])
        #expect(layout.lines(1..<2).map(\.part) == [.separator])
    }

    @Test("no row is wider than the width at widths 1, 2, 5 and 80")
    func neverTooWide() throws {
        let markdown = """
        # Heading with 漢字 and 👨‍👩‍👧

        Paragraph with e\u{301} and 🇫🇷 and a verylongwordthatneverends and ｆｕｌｌｗｉｄｔｈ text.

        - list item 漢字漢字漢字
        > quote 👍🏽 👍🏽 👍🏽

        ```
        code 漢字 line that is long\tand tabbed
        ```
        """
        for width in [1, 2, 5, 80] {
            let layout = try Layout(markdown: markdown, width: width)
            for line in layout.lines(0..<layout.rowCount) {
                let loneWide = line.text.count == 1 && DisplayWidth.of(line.text) > width - DisplayWidth.of(line.prefix)
                let cutCode = line.kind == .codeBlock(language: nil) && line.isTruncated
                #expect(line.displayWidth <= width || loneWide || cutCode, "width \(width): \(line.text)")
            }
        }
    }
}
