import NeonCore
import NeonTUI
import Testing

@Suite("DocumentView")
struct DocumentViewTests {
    static let markdown = """
        # Neon 世界

        Read along with friends, each at their own pace.

        - first item
        - second item

        > quoted words

        ```swift
        let x = 1
        ```
        """

    func layout(width: Int) throws -> Layout {
        Layout(document: try Document.parse(title: "Guide", format: .markdown, text: Self.markdown), width: width)
    }

    @Test("rows of the layout are drawn with their prefixes")
    func wide() throws {
        let layout = try layout(width: 20)
        let buffer = render(DocumentView(layout: layout, top: 0), width: 20, height: 14)
        #expect(snapshot(buffer) == """
            Neon 世界

            Read along with
            friends, each at
            their own pace.

            • first item
            • second item

            │ quoted words

            let x = 1


            """)
    }

    @Test("headings are bold accent, markers accent, quotes italic grey, code on its own background")
    func styles() throws {
        let theme = Theme.neon
        let buffer = render(DocumentView(layout: try layout(width: 20), top: 0), width: 20, height: 13)
        #expect(buffer[0, 0].style == theme.strong)
        #expect(buffer[5, 0].style == theme.strong)
        #expect(buffer[0, 2].style == theme.text)
        #expect(buffer[0, 6].style == theme.accent)
        #expect(buffer[2, 6].style == theme.text)
        #expect(buffer[0, 9].style == theme.accent)
        #expect(buffer[2, 9].style == theme.muted.patched(with: Style(italic: true)))
        #expect(buffer[0, 11].style == theme.code)
        #expect(buffer[19, 11].style == theme.code)
        #expect(buffer[19, 10].style == theme.background)
    }

    @Test("a narrow layout scrolled to a later row shows only its rows")
    func scrolled() throws {
        let buffer = render(DocumentView(layout: try layout(width: 12), top: 9), width: 12, height: 5)
        #expect(snapshot(buffer) == """
            • first item
            • second
              item

            │ quoted
            """)
    }

    @Test("rows before the start and after the end are blank; an empty document says so in the middle")
    func outOfRange() throws {
        let layout = try layout(width: 20)
        let before = render(DocumentView(layout: layout, top: -2), width: 20, height: 3)
        #expect(before.lines() == ["", "", "Neon 世界"])
        let after = render(DocumentView(layout: layout, top: 11), width: 20, height: 3)
        #expect(after.lines() == ["let x = 1", "", ""])
        let empty = Layout(document: try Document.parse(title: "E", format: .text, text: ""), width: 10)
        #expect(render(DocumentView(layout: empty, top: 0), width: 10, height: 2).lines() == ["empty doc…", ""])
        #expect(render(DocumentView(layout: empty, top: 0), width: 20, height: 3).lines() == ["", "   empty document", ""])
    }

    @Test("tiny views clip rows, end each cut row in …, and never split a wide character", arguments: [
        (0, [String]()), (1, ["…", "", "…"]), (6, ["Neon…", "", "Read…"]),
    ])
    func tiny(width: Int, expected: [String]) throws {
        let buffer = render(DocumentView(layout: try layout(width: 20), top: 0), width: width,
                            height: width == 0 ? 0 : 3)
        #expect(buffer.lines() == expected)
    }

    @Test("catalog cards show the name in bold accent and the headline cut with …")
    func cards() throws {
        let json = #"[{"type": "Birds", "body": [{"name": "Kestrel 隼", "headline": "A small falcon that hovers over fields while hunting for voles and insects"}]}]"#
        let layout = Layout(document: try Document.parse(title: "Catalog", format: .catalog, text: json), width: 16)
        let buffer = render(DocumentView(layout: layout, top: 0), width: 16, height: 5)
        #expect(snapshot(buffer) == """
            Birds

            Kestrel 隼
            A small falcon
            that hovers ove…
            """)
        #expect(buffer[0, 2].style == Theme.neon.strong)
        #expect(buffer[0, 3].style == Theme.neon.text)
        #expect(buffer[15, 4].style == Theme.neon.muted)
    }

    @Test("a query highlights every match in reverse video, ignoring case and counting display columns")
    func query() throws {
        let layout = try layout(width: 20)
        let buffer = render(DocumentView(layout: layout, top: 0, query: "ITEM"), width: 20, height: 13)
        let highlighted = Theme.neon.text.patched(with: Theme.neon.highlight)
        #expect((8..<12).allSatisfy { buffer[$0, 6].style == highlighted })
        #expect(buffer[7, 6].style == Theme.neon.text)
        #expect((9..<13).allSatisfy { buffer[$0, 7].style.reverse })
        #expect(DocumentView.highlights(of: "世界", in: layout, rows: 0..<1) == [.init(row: 0, columns: 5..<9)])
        #expect(DocumentView.highlights(of: "A", in: layout, rows: 2..<3) == [.init(row: 2, columns: 2..<3), .init(row: 2, columns: 5..<6)])
        #expect(DocumentView.highlights(of: "", in: layout, rows: 0..<13).isEmpty)
    }

    @Test("a phrase the layout wraps across two rows is highlighted on both, and only where it is")
    func wrappedQuery() throws {
        let layout = try layout(width: 20)
        #expect(DocumentView.highlights(of: "WITH friends", in: layout, rows: 0..<13)
            == [.init(row: 2, columns: 11..<15), .init(row: 3, columns: 0..<7)])
        #expect(DocumentView.highlights(of: "with friends", in: layout, rows: 3..<4) == [.init(row: 3, columns: 0..<7)])
        let buffer = render(DocumentView(layout: layout, top: 0, query: "with friends"), width: 20, height: 5)
        #expect((11..<15).allSatisfy { buffer[$0, 2].style.reverse })
        #expect((0..<7).allSatisfy { buffer[$0, 3].style.reverse })
        #expect(!buffer[10, 2].style.reverse && !buffer[7, 3].style.reverse)
        let wide = try self.layout(width: 40)
        #expect(DocumentView.highlights(of: "with friends", in: wide, rows: 0..<wide.rowCount)
            == [.init(row: 2, columns: 11..<23)])
    }

    @Test("explicit highlights mark the current match more strongly")
    func highlights() throws {
        let marks = [DocumentView.Highlight(row: 2, columns: 0..<4),
                     DocumentView.Highlight(row: 3, columns: 0..<7, isCurrent: true),
                     DocumentView.Highlight(row: 40, columns: 0..<3)]
        let buffer = render(DocumentView(layout: try layout(width: 20), top: 0, highlights: marks), width: 20, height: 5)
        #expect(buffer[0, 2].style.reverse)
        #expect(!buffer[0, 2].style.bold)
        #expect(buffer[6, 3].style == Theme.neon.text.patched(with: Theme.neon.currentHighlight))
        #expect(!buffer[7, 3].style.reverse)
    }

    @Test("a left gutter marks other readers' rows beside the text")
    func leftGutter() throws {
        let gutter = DocumentView.Gutter(side: .left, width: 2, markers: [
            2: DocumentView.GutterMarker("A", style: Theme.neon.accent),
            6: DocumentView.GutterMarker("★", style: Theme.neon.strong),
            99: DocumentView.GutterMarker("Z", style: .plain),
        ])
        let width = DocumentView.textWidth(forWidth: 14, gutter: gutter)
        #expect(width == 12)
        let buffer = render(DocumentView(layout: try layout(width: width), top: 0, gutter: gutter), width: 14, height: 10)
        #expect(snapshot(buffer) == """
              Neon 世界

            A Read along
              with
              friends,
              each at
            ★ their own
              pace.

              • first item
            """)
        #expect(buffer[0, 2].style == Theme.neon.accent)
    }

    @Test("a one-column right gutter sits in the last column")
    func rightGutter() throws {
        let gutter = DocumentView.Gutter(side: .right, width: 1, markers: [0: DocumentView.GutterMarker("▶", style: .plain)])
        let buffer = render(DocumentView(layout: try layout(width: 9), top: 0, gutter: gutter), width: 10, height: 1)
        #expect(buffer.lines() == ["Neon 世界▶"])
        let narrow = render(DocumentView(layout: try layout(width: 9), top: 0, gutter: gutter), width: 1, height: 1)
        #expect(narrow.lines() == ["▶"])
    }

    @Test("monochrome draws the same text with no colour and reverse-video matches")
    func monochrome() throws {
        let buffer = render(DocumentView(layout: try layout(width: 20), top: 0, query: "own", theme: .monochrome),
                            width: 20, height: 13)
        #expect(buffer.lines()[4] == "their own pace.")
        #expect(isColorless(buffer))
        #expect(buffer[6, 4].style == Style(reverse: true))
        #expect(buffer[0, 0].style == Style(bold: true))
    }

    @Test("plain text keeps its line breaks")
    func plainText() throws {
        let document = try Document.parse(title: "notes.txt", format: .text, text: "line one\nline 二\n\nnext")
        let buffer = render(DocumentView(layout: Layout(document: document, width: 30), top: 0), width: 30, height: 4)
        #expect(buffer.lines() == ["line one", "line 二", "", "next"])
    }

    @Test("a row of badges is drawn in its line as their alt texts on labels (reverse video, in every theme), not as a box each; a picture alone in its paragraph stays a box")
    func inlinePictures() throws {
        let markdown = "[![build](https://ci.example/b.svg)](https://ci.example) [![coverage](c.svg)](https://cov.example)\n\n![alone](a.png)"
        let layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: markdown), width: 80)
        #expect(layout.document.blocks.map(\.kind) == [.paragraph, .image(source: "a.png")])
        for theme in [Theme.neon, .monochrome, .monochromeASCII] {
            let buffer = render(DocumentView(layout: layout, top: 0, theme: theme), width: 80, height: 6)
            let lines = snapshot(buffer).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines[0] == "build (https://ci.example) coverage (https://cov.example)")
            let build = lines[0].distance(from: lines[0].startIndex, to: try #require(lines[0].range(of: "build")).lowerBound)
            let coverage = lines[0].distance(from: lines[0].startIndex, to: try #require(lines[0].range(of: "coverage")).lowerBound)
            for x in build..<build + 5 { #expect(buffer[x, 0].style.reverse, "\(x) of \"build\"") }
            for x in coverage..<coverage + 8 { #expect(buffer[x, 0].style.reverse) }
            #expect(!buffer[build + 5, 0].style.reverse && !buffer[coverage - 1, 0].style.reverse, "only the alt text")
            #expect(lines[2].hasPrefix(theme.ascii ? "+--" : "┌──"), "the picture alone is its box")
        }
    }
}
