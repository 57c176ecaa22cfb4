import Testing
@testable import NeonCore

@Suite("Plain-text documents")
struct DocumentPlainTextTests {
    private func parse(_ text: String) throws -> Document {
        try Document.parse(title: "notes.txt", format: .text, text: text)
    }

    @Test("a text file is one section titled by the document, split into paragraphs at blank lines")
    func paragraphs() throws {
        let document = try parse("First line\nsecond line\n\n  \nNext   \n")
        #expect(document.sections == [Section(title: "notes.txt", firstBlock: 0)])
        #expect(document.blocks == [
            Block(kind: .paragraph, text: "First line\nsecond line", section: 0),
            Block(kind: .paragraph, text: "Next", section: 0),
        ])
    }

    @Test("indentation is kept and tabs expand to stops of four columns")
    func indentation() throws {
        let document = try parse("a\tb\n\tc\n  漢\td")
        #expect(document.blocks.map(\.text) == ["a   b\n    c\n  漢    d"])
    }

    @Test("Markdown syntax in a text file is kept as written")
    func noMarkup() throws {
        let document = try parse("# not a heading\n**not bold**")
        #expect(document.blocks.map(\.text) == ["# not a heading\n**not bold**"])
        #expect(document.sections.count == 1)
    }

    @Test("CRLF line endings read like LF")
    func lineEndings() throws {
        #expect(try parse("a\r\nb\r\n\r\nc") == parse("a\nb\n\nc"))
    }

    @Test("an empty text file gives one section and no blocks")
    func empty() throws {
        let document = try parse("\n \n")
        #expect(document.blocks.isEmpty)
        #expect(document.sections == [Section(title: "notes.txt", firstBlock: 0)])
    }

    @Test("a blank document title becomes a numbered section title")
    func blankTitle() throws {
        let document = try Document.parse(title: " \n", format: .text, text: "x")
        #expect(document.sections.map(\.title) == ["Section 1"])
    }
}
