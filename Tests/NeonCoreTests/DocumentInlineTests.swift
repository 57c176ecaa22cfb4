import Testing
@testable import NeonCore

@Suite("Markdown inline markup")
struct DocumentInlineTests {
    private func plain(_ text: String) -> String {
        MarkdownInline.plainText(Array(text.utf8))
    }

    @Test("emphasis and strike-through delimiters that pair up are removed")
    func emphasis() {
        #expect(plain("a **bold** and _it_ and *it* and ~~gone~~") == "a bold and it and it and gone")
        #expect(plain("***both***") == "both")
        #expect(plain("**nested _inner_ text**") == "nested inner text")
        #expect(plain("2*3*4") == "234")
    }

    @Test("unpaired or spaced markup stays as written")
    func literal() {
        #expect(plain("5 * 3 = 15") == "5 * 3 = 15")
        #expect(plain("snake_case_name") == "snake_case_name")
        #expect(plain("**unclosed") == "**unclosed")
        #expect(plain("~single~") == "~single~")
        #expect(plain("[not a link]") == "[not a link]")
        #expect(plain("`unclosed") == "`unclosed")
    }

    @Test("code spans keep their content verbatim")
    func codeSpans() {
        #expect(plain("use `a*b*c` here") == "use a*b*c here")
        #expect(plain("`` a ` b ``") == "a ` b")
    }

    @Test("links and images keep their text")
    func links() {
        #expect(plain("see [the docs](https://example.com/a_(b)) now") == "see the docs now")
        #expect(plain("![logo](logo.png) and [**bold** link](x)") == "logo and bold link")
        #expect(plain("[outer [inner](a)](b)") == "outer inner")
    }

    @Test("backslash escapes keep only the punctuation")
    func escapes() {
        #expect(plain("\\*not emphasis\\* and \\\\") == "*not emphasis* and \\")
        #expect(plain("a \\q b") == "a \\q b")
    }

    @Test("markup in headings, list items and quotes is removed too")
    func inBlocks() throws {
        let document = try Document.parse(title: "T", format: .markdown,
                                          text: "# The `main` **loop**\n- [item](u)\n> _quoted_")
        #expect(document.blocks.map(\.text) == ["The main loop", "item", "quoted"])
        #expect(document.sections[0].title == "The main loop")
    }

    @Test("pathological markup finishes quickly")
    func pathological() {
        let brackets = String(repeating: "[", count: 50_000) + String(repeating: "](", count: 50_000)
        #expect(plain(brackets).utf8.count == 150_000)
        let mixed = String(repeating: "_a ", count: 20_000) + String(repeating: "a* ", count: 20_000)
        #expect(plain(mixed).utf8.count == 120_000)
        let ticks = (1...300).map { String(repeating: "`", count: $0) }.joined(separator: " ")
        #expect(plain(ticks) == ticks)
    }
}
