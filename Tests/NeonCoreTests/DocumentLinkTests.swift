import NeonCore
import Testing

@Suite("Documents: links")
struct DocumentLinkTests {
    func links(_ markdown: String) throws -> [(text: String, url: String)] {
        let document = try Document.parse(title: "t", format: .markdown, text: markdown)
        return document.blocks.flatMap { block in
            block.links.map { (String(decoding: Array(block.text.utf8)[$0.bytes], as: UTF8.self), $0.url) }
        }
    }

    @Test("a link covers its text and the address shown after it; the block's text is unchanged")
    func inline() throws {
        let found = try links("See [the spec](https://e.example/s) and <https://a.example>.")
        #expect(found.map(\.text) == ["the spec (https://e.example/s)", "https://a.example"])
        #expect(found.map(\.url) == ["https://e.example/s", "https://a.example"])
        let document = try Document.parse(title: "t", format: .markdown, text: "See [the spec](https://e.example/s).")
        #expect(document.blocks[0].text == "See the spec (https://e.example/s).")
    }

    @Test("reference links carry their resolved address, autolinks theirs with the scheme, headings and list items too")
    func kinds() throws {
        let found = try links("# [Title](https://t.example)\n\n- www.example.org\n- [r][1]\n\n[1]: https://r.example/x")
        #expect(found.map(\.url) == ["https://t.example", "http://www.example.org", "https://r.example/x"])
    }

    @Test("a layout row carries the part of a link it shows, wrapped links on each of their rows")
    func rows() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: "[one two three](https://w.example)")
        let layout = Layout(document: document, width: 9)
        let lines = layout.lines(0..<layout.rowCount)
        #expect(lines.allSatisfy { $0.links.first?.url == "https://w.example" })
        #expect(lines.map { line in
            String(decoding: Array(line.text.utf8)[line.links[0].bytes], as: UTF8.self)
        } == lines.map { String($0.text) })
    }
}
