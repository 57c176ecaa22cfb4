import NeonCore
import Testing

@Suite("Comments and presenting commands outside slides")
struct CommentLayoutTests {
    static let deck = "First.\n\n<!-- end_slide -->\n\nSecond.\n\n<!-- pause -->\n\nThird.\n\n<!-- just a remark -->\n\n<div>kept</div>\n"

    @Test("a slide break is a dashed rule, other comments are one blank row, other HTML is shown as written")
    func rows() throws {
        let document = try Document.parse(title: "deck.md", format: .markdown, text: Self.deck)
        let layout = Layout(document: document, width: 16)
        let texts = layout.lines(0..<layout.rowCount).map { $0.prefix + $0.text }
        #expect(texts == ["First.", "", String(repeating: "╌", count: 16), "", "Second.", "", "", "", "Third.", "", "", "",
                          "<div>kept</div>"])
        #expect(layout.lines(0..<layout.rowCount).filter { $0.part == .rule }.count == 3)
    }

    @Test("search does not find what only a comment says")
    func search() throws {
        let document = try Document.parse(title: "deck.md", format: .markdown, text: Self.deck)
        #expect(document.matches(of: try #require(TextSearch("end_slide"))).isEmpty)
        #expect(document.matches(of: try #require(TextSearch("remark"))).isEmpty)
        #expect(document.matches(of: try #require(TextSearch("kept"))).count == 1)
    }
}
