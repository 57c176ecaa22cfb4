import NeonCore
import NeonTUI
import Testing

/// How the reader draws GitHub Flavored Markdown: tables, task lists,
/// strikethrough, autolinks, nested quotes and lists, code that scrolls.
@Suite("Markdown rendering")
struct MarkdownRenderingTests {
    static let table = """
        | Name | Qty | Note |
        |:-----|----:|:----:|
        | apple | 3 | red and crisp |
        | kiwi | 12 | fuzzy |
        """

    func layout(_ markdown: String, width: Int) throws -> Layout {
        Layout(document: try Document.parse(title: "T", format: .markdown, text: markdown), width: width)
    }

    func screen(_ markdown: String, width: Int, height: Int? = nil, codeShift: Int = 0, theme: Theme = .neon) throws -> Buffer {
        let layout = try layout(markdown, width: width)
        return render(DocumentView(layout: layout, top: 0, codeShift: codeShift, theme: theme), width: width,
                      height: height ?? layout.rowCount)
    }

    @Test("a table that fits is box-drawn, columns sized to content, aligned as its delimiter row says")
    func boxedTable() throws {
        let buffer = try screen(Self.table, width: 40)
        #expect(snapshot(buffer) == """
            ┌───────┬─────┬───────────────┐
            │ Name  │ Qty │     Note      │
            ├───────┼─────┼───────────────┤
            │ apple │   3 │ red and crisp │
            │ kiwi  │  12 │     fuzzy     │
            └───────┴─────┴───────────────┘
            """)
        #expect(buffer[2, 1].style == Theme.neon.strong, "header cells are bold")
        #expect(buffer[0, 1].style.fg == Theme.neon.border.fg && buffer[0, 0].style == Theme.neon.border, "the box is in the border colour")
        #expect(buffer[2, 3].style == Theme.neon.text)
    }

    @Test("a table wider than the screen wraps its cells, keeping words whole")
    func wrappedTable() throws {
        let markdown = """
            | flag | meaning |
            |---|---|
            | --port N | the WebSocket and HTTP port to listen on |
            """
        #expect(snapshot(try screen(markdown, width: 30)) == """
            ┌─────────┬──────────────────┐
            │ flag    │ meaning          │
            ├─────────┼──────────────────┤
            │ --port  │ the WebSocket    │
            │ N       │ and HTTP port to │
            │         │ listen on        │
            └─────────┴──────────────────┘
            """)
    }

    @Test("a table that cannot keep its words whole is stacked: one 'header: value' row per cell")
    func stackedTable() throws {
        #expect(snapshot(try screen(Self.table, width: 20)) == """
            Name: apple
            Qty: 3
            Note: red and crisp
            ────────────────────
            Name: kiwi
            Qty: 12
            Note: fuzzy
            """)
        #expect(snapshot(try screen("| a header that is long |\n|---|\n| x |", width: 12)) == """
            ┌──────────┐
            │ a header │
            │ that is  │
            │ long     │
            ├──────────┤
            │ x        │
            └──────────┘
            """, "a header wraps like any cell")
        let wide = "| alpha | bravo | charlie | delta |\n|---|---|---|---|\n| one | two | three | four |"
        #expect(snapshot(try screen(wide, width: 24)) == """
            alpha: one
            bravo: two
            charlie: three
            delta: four
            """)
    }

    @Test("task lists show ☐ and ☑, nested lists their parents' indent, tight lists no blank rows")
    func taskLists() throws {
        let markdown = "- [ ] write the tests\n- [x] parse with cmark-gfm\n  1. nested *one*\n  2. nested ~~two~~\n\nafter"
        let buffer = try screen(markdown, width: 30)
        #expect(snapshot(buffer) == """
            ☐ write the tests
            ☑ parse with cmark-gfm
              1. nested one
              2. nested two

            after
            """)
        #expect(buffer[0, 0].style == Theme.neon.accent)
        #expect(buffer[12, 2].style.italic, "emphasis is italic")
        #expect(buffer[12, 3].style.strikethrough, "strikethrough is crossed out")
    }

    @Test("nested quotes draw a bar per level, and the bar runs between their paragraphs")
    func quotes() throws {
        #expect(snapshot(try screen("> quoted\n> > deeper `code`\n>\n> back", width: 20)) == """
            │ quoted
            │
            │ │ deeper code
            │
            │ back
            """)
    }

    @Test("links show their address after the text, muted; autolinks once; images their alt text on a label")
    func links() throws {
        let buffer = try screen("[docs](https://d.example) www.neon.example ![a cat](cat.png)", width: 60)
        #expect(snapshot(buffer) == "docs (https://d.example) www.neon.example a cat")
        #expect(buffer[0, 0].style.underline && buffer[0, 0].style.fg == Theme.neon.accent.fg)
        #expect(buffer[6, 0].style.fg == Theme.neon.muted.fg)
        #expect(buffer[43, 0].style.reverse && !buffer[43, 0].style.italic)
    }

    @Test("a code line wider than the screen is cut with ›, and scrolls sideways with ‹ on the left")
    func codeScrolls() throws {
        let markdown = "```\nlet line = \"abcdefghijklmnopqrstuvwxyz\"\nshort\n```"
        let layout = try layout(markdown, width: 20)
        #expect(layout.codeOverflow == 39 - 20)
        #expect(try screen(markdown, width: 20).lines() == ["let line = \"abcdefg›", "short"])
        #expect(try screen(markdown, width: 20, codeShift: 8).lines() == ["‹= \"abcdefghijklmno›", "‹"])
        #expect(try screen(markdown, width: 20, codeShift: 19).lines() == ["‹ijklmnopqrstuvwxyz\"", "‹"])
        #expect(try screen(markdown, width: 20, theme: .monochromeASCII).lines() == ["let line = \"abcdefg>", "short"])
    }

    @Test("thematic breaks are rules across the width; HTML blocks are shown as text")
    func rulesAndHTML() throws {
        #expect(snapshot(try screen("a\n\n---\n\n<div>raw *html*</div>", width: 12)) == """
            a

            ────────────

            <div>raw *ht
            ml*</div>
            """)
    }

    @Test("an ASCII theme draws tables, bullets, boxes and bars in ASCII")
    func ascii() throws {
        let buffer = try screen("| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- item\n\n> q", width: 20, theme: .monochromeASCII)
        #expect(snapshot(buffer) == """
            +---+---+
            | a | b |
            +---+---+
            | 1 | 2 |
            +---+---+

            x done
            * item

            | q
            """)
    }

    @Test("search finds text in table cells and code, and marks it where it is drawn")
    func searchInTables() throws {
        let layout = try layout(Self.table + "\n\n```\nfind the crisp code\n```", width: 40)
        let matches = layout.document.matches(of: try #require(TextSearch("crisp")))
        #expect(matches.count == 2)
        #expect(matches.compactMap(layout.rows(of:)) == [3..<4, 7..<8])
        let spans = layout.spans(of: matches[0], in: 0..<layout.rowCount)
        #expect(spans == [Layout.MatchSpan(row: 3, columns: 24..<29)])
        let line = layout.line(at: 3)
        let characters = Array(String(line.text))
        #expect(String(characters[24..<29]) == "crisp")
    }

    @Test("an anchor inside a table lands on the same table row at every width, boxed or stacked")
    func anchorsInTables() throws {
        let markdown = "# T\n\n" + Self.table + "\n\nafter"
        let wide = try layout(markdown, width: 60)
        for row in wide.rows(ofBlock: 1) {
            let anchor = wide.anchor(forRow: row)
            for width in [20, 30, 40, 120] {
                let other = try layout(markdown, width: width)
                let landed = other.line(at: other.row(for: anchor))
                let shown = String(landed.text)
                if wide.line(at: row).text.contains("kiwi") {
                    #expect(shown.contains("kiwi"), "width \(width): \(shown)")
                } else if wide.line(at: row).text.contains("apple") {
                    #expect(shown.contains("apple"), "width \(width): \(shown)")
                }
            }
        }
    }
}
