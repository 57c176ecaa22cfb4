import Dispatch
import NeonLock
import Testing
@testable import NeonCore

@Suite("Markdown inline markup")
struct DocumentInlineTests {
    /// The one block `text` parses to.
    private func block(_ text: String) throws -> Block {
        let document = try Document.parse(title: "T", format: .markdown, text: text)
        try #require(document.blocks.count == 1)
        return document.blocks[0]
    }

    private func plain(_ text: String) throws -> String { try block(text).text }

    /// The text each style covers, in order.
    private func styled(_ text: String) throws -> [(String, InlineStyle)] {
        let block = try block(text)
        let bytes = Array(block.text.utf8)
        return block.styles.map { (String(decoding: bytes[$0.bytes], as: UTF8.self), $0.style) }
    }

    @Test("documents parsed on eight threads at once each keep their strikethrough (cmark-gfm's special characters are process-wide)")
    func concurrentParses() {
        let lost = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0 ..< 300 {
                let document = try? Document.parse(title: "T", format: .markdown, text: "a ~~gone~~ b")
                if document?.blocks.first?.styles.contains(where: { $0.style == .strikethrough }) != true {
                    lost.withLock { $0 += 1 }
                }
            }
        }
        #expect(lost.withLock { $0 } == 0, "parses that lost ~~ of 2,400")
    }

    @Test("emphasis, strong and strikethrough are removed from the text and kept as styles")
    func emphasis() throws {
        #expect(try plain("a **bold** and _it_ and *it* and ~~gone~~") == "a bold and it and it and gone")
        #expect(try plain("***both***") == "both")
        let styles = try styled("a **bold _inner_** ~~gone~~ `co*de`")
        #expect(styles.map(\.0) == ["bold ", "inner", "gone", "co*de"])
        #expect(styles.map(\.1) == [.strong, [.strong, .emphasis], .strikethrough, .code])
    }

    @Test("unpaired or spaced markup stays as written")
    func literal() throws {
        #expect(try plain("5 * 3 = 15") == "5 * 3 = 15")
        #expect(try plain("snake_case_name") == "snake_case_name")
        #expect(try plain("**unclosed") == "**unclosed")
        #expect(try plain("[not a link]") == "[not a link]")
        #expect(try plain("`unclosed") == "`unclosed")
    }

    @Test("code spans keep their content verbatim")
    func codeSpans() throws {
        #expect(try plain("use `a*b*c` here") == "use a*b*c here")
        #expect(try plain("`` a ` b ``") == "a ` b")
    }

    @Test("links show their text, then their address; images their alt text; autolinks once")
    func links() throws {
        #expect(try plain("see [the docs](https://example.com/a_(b)) now") == "see the docs (https://example.com/a_(b)) now")
        #expect(try plain("![logo](logo.png) and [**bold** link](x)") == "logo and bold link (x)")
        #expect(try plain("visit https://neon.example/x or www.neon.example") == "visit https://neon.example/x or www.neon.example")
        let styles = try styled("[docs](u)")
        #expect(styles.map(\.0) == ["docs", " (u)"])
        #expect(styles.map(\.1) == [.link, .url])
    }

    @Test("backslash escapes keep only the punctuation; hard breaks are newlines")
    func escapes() throws {
        #expect(try plain("\\*not emphasis\\* and \\\\") == "*not emphasis* and \\")
        #expect(try plain("a \\q b") == "a \\q b")
        #expect(try plain("one\\\ntwo  \nthree\nfour") == "one\ntwo\nthree four")
    }

    @Test("markup in headings, list items and quotes is removed too")
    func inBlocks() throws {
        let document = try Document.parse(title: "T", format: .markdown,
                                          text: "# The `main` **loop**\n- [item](u)\n> _quoted_")
        #expect(document.blocks.map(\.text) == ["The main loop", "item (u)", "quoted"])
        #expect(document.sections[0].title == "The main loop")
    }

    @Test("pathological markup parses quickly and keeps every character")
    func pathological() throws {
        let brackets = String(repeating: "[", count: 50_000) + String(repeating: "](", count: 50_000)
        #expect(try plain(brackets).utf8.count == 150_000)
        let mixed = String(repeating: "_a ", count: 20_000) + String(repeating: "a* ", count: 20_000)
        #expect(try plain(mixed).utf8.count == 120_000 - 1)
        let emphasis = String(repeating: "*a **a ", count: 65_000 / 3) + "b" + String(repeating: " a** a*", count: 65_000 / 3)
        #expect(try plain(emphasis).contains("b"))
    }
}
