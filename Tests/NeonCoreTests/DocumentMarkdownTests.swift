import Testing
@testable import NeonCore

@Suite("Markdown documents")
struct DocumentMarkdownTests {
    private func parse(_ text: String, title: String = "Notes") throws -> Document {
        try Document.parse(title: title, format: .markdown, text: text)
    }

    private func kinds(_ document: Document) -> [BlockKind] {
        document.blocks.map(\.kind)
    }

    @Test("headings start sections and text before the first heading gets a section titled by the document")
    func sectionsAndPreamble() throws {
        let document = try parse("Intro line.\n\n# One\n\nFirst.\n\n## Two ##\n\nSecond.\n")
        #expect(document.title == "Notes")
        #expect(document.format == .markdown)
        #expect(document.sections == [
            Section(title: "Notes", firstBlock: 0),
            Section(title: "One", firstBlock: 1),
            Section(title: "Two", firstBlock: 3),
        ])
        #expect(document.blocks == [
            Block(kind: .paragraph, text: "Intro line.", section: 0),
            Block(kind: .heading(level: 1), text: "One", section: 1),
            Block(kind: .paragraph, text: "First.", section: 1),
            Block(kind: .heading(level: 2), text: "Two", section: 2),
            Block(kind: .paragraph, text: "Second.", section: 2),
        ])
    }

    @Test("a document that starts with a heading has no preamble section")
    func noPreamble() throws {
        let document = try parse("\n\n# Start\ntext")
        #expect(document.sections == [Section(title: "Start", firstBlock: 0)])
        #expect(kinds(document) == [.heading(level: 1), .paragraph])
    }

    @Test("heading levels one to six are headings; seven hashes or no space are text")
    func headingLevels() throws {
        let document = try parse("###### Six\n####### too many\n#hashtag\n    # indented four")
        #expect(document.blocks == [
            Block(kind: .heading(level: 6), text: "Six", section: 0),
            Block(kind: .paragraph, text: "####### too many #hashtag # indented four", section: 0),
        ])
    }

    @Test("closing hashes are dropped only after a blank")
    func closingHashes() throws {
        let document = try parse("# C#\n# Title ###   \n# ###\n#\tTabbed\theading\t#")
        #expect(document.blocks.map(\.text) == ["C#", "Title", "", "Tabbed heading"])
    }

    @Test("a heading with no text still starts a section, titled by its number")
    func emptyHeading() throws {
        let document = try parse("# First\n#\nbody\n##   \n")
        #expect(document.sections.map(\.title) == ["First", "Section 2", "Section 3"])
        #expect(document.blocks[1] == Block(kind: .heading(level: 1), text: "", section: 1))
        #expect(document.blocks[3] == Block(kind: .heading(level: 2), text: "", section: 2))
    }

    @Test("setext underlines make headings and thematic breaks are blocks of their own")
    func setextAndBreaks() throws {
        let document = try parse("Big\n===\n\nSmall\n---\n\n***\n- - -\n---\n\n==\n")
        #expect(document.blocks == [
            Block(kind: .heading(level: 1), text: "Big", section: 0),
            Block(kind: .heading(level: 2), text: "Small", section: 1),
            Block(kind: .thematicBreak, text: "", section: 1),
            Block(kind: .thematicBreak, text: "", section: 1),
            Block(kind: .thematicBreak, text: "", section: 1),
            Block(kind: .paragraph, text: "==", section: 1),
        ])
        #expect(document.sections.map(\.title) == ["Big", "Small"])
    }

    @Test("lines of a paragraph are joined by one space; two trailing spaces make a hard break")
    func paragraphs() throws {
        let document = try parse("one\n  two  \nthree\n\n\n\nfour\tfive")
        #expect(document.blocks.map(\.text) == ["one two\nthree", "four five"])
    }

    @Test("list items keep a bullet or their number, nested ones their parents' indent; tight items stay together")
    func lists() throws {
        let document = try parse("- apple\n- apricot\n* banana\n  still banana\n+ cherry\n  - pit\n1. first\n10) tenth\n-\n-not a list")
        let bullet = BlockIndent(first: "• ", rest: "  ")
        #expect(document.blocks == [
            Block(kind: .listItem(marker: "•"), text: "apple", section: 0, indent: bullet),
            Block(kind: .listItem(marker: "•"), text: "apricot", section: 0, indent: bullet, isTight: true),
            Block(kind: .listItem(marker: "•"), text: "banana still banana", section: 0, indent: bullet),
            Block(kind: .listItem(marker: "•"), text: "cherry", section: 0, indent: bullet),
            Block(kind: .listItem(marker: "•"), text: "pit", section: 0, indent: BlockIndent(first: "  • ", rest: "    "), isTight: true),
            Block(kind: .listItem(marker: "1."), text: "first", section: 0, indent: BlockIndent(first: "1. ", rest: "   ")),
            Block(kind: .listItem(marker: "10)"), text: "tenth", section: 0, indent: BlockIndent(first: "10) ", rest: "    ")),
            Block(kind: .listItem(marker: "•"), text: "", section: 0, indent: bullet),
            Block(kind: .paragraph, text: "-not a list", section: 0),
        ])
    }

    @Test("only an ordered item numbered 1 interrupts a paragraph")
    func orderedInterruption() throws {
        let document = try parse("We met in\n2019. It rained.\n1. first")
        #expect(document.blocks == [
            Block(kind: .paragraph, text: "We met in 2019. It rained.", section: 0),
            Block(kind: .listItem(marker: "1."), text: "first", section: 0, indent: BlockIndent(first: "1. ", rest: "   ")),
        ])
    }

    @Test("fenced code keeps its lines verbatim and names its language")
    func fencedCode() throws {
        let document = try parse("```swift\nlet x = 1\n\n  if x { print(\"# not a heading\") }   \n```\n~~~\n\tindented\n~~~\nafter")
        #expect(document.blocks == [
            Block(kind: .codeBlock(language: "swift"), text: "let x = 1\n\n  if x { print(\"# not a heading\") }", section: 0),
            Block(kind: .codeBlock(language: nil), text: "    indented", section: 0),
            Block(kind: .paragraph, text: "after", section: 0),
        ])
    }

    @Test("a fence closes only with at least as many of its own markers")
    func fenceClosing() throws {
        let document = try parse("````md\n```\n~~~~\n````\n")
        #expect(document.blocks == [Block(kind: .codeBlock(language: "md"), text: "```\n~~~~", section: 0)])
    }

    @Test("an unclosed fence runs to the end of the document without an error")
    func unclosedFence() throws {
        let document = try parse("# Code\n```python\nprint(1)\n# still code\n")
        #expect(document.blocks == [
            Block(kind: .heading(level: 1), text: "Code", section: 0),
            Block(kind: .codeBlock(language: "python"), text: "print(1)\n# still code", section: 0),
        ])
        #expect(document.sections.count == 1)
    }

    @Test("block quotes become quote blocks, a bare '>' line splits their paragraphs")
    func quotes() throws {
        let document = try parse("> wise\n> words\nlazy\n>\n> more\n\nplain")
        #expect(document.blocks == [
            Block(kind: .quote, text: "wise words lazy", section: 0, indent: BlockIndent(first: "│ ", rest: "│ ")),
            Block(kind: .quote, text: "more", section: 0, indent: BlockIndent(first: "│ ", rest: "│ ")),
            Block(kind: .paragraph, text: "plain", section: 0),
        ])
    }

    @Test("text that is empty or only blank lines gives one section and no blocks")
    func blankOnly() throws {
        for text in ["", "\n\n  \n\t\n", "\r\n\r\n"] {
            let document = try parse(text, title: "Empty")
            #expect(document.blocks.isEmpty)
            #expect(document.sections == [Section(title: "Empty", firstBlock: 0)])
        }
    }

    @Test("CRLF and CR line endings read like LF")
    func lineEndings() throws {
        let unix = try parse("# A\n\npara\ngraph\n\n```\ncode\n```\n")
        #expect(try parse("# A\r\n\r\npara\r\ngraph\r\n\r\n```\r\ncode\r\n```\r\n") == unix)
        #expect(try parse("# A\r\rpara\rgraph\r\r```\rcode\r```\r") == unix)
    }

    @Test("control characters become U+FFFD so they cannot drive a terminal")
    func controlCharacters() throws {
        let document = try parse("bell\u{07} esc\u{1B}[31m c1\u{85} ok")
        #expect(document.blocks.map(\.text) == ["bell\u{FFFD} esc\u{FFFD}[31m c1\u{FFFD} ok"])
    }

    @Test("malformed Markdown never fails")
    func malformed() throws {
        let inputs = ["```", "#", "> ", "- ", "1.", "[", "](", "**", "`", "\u{301}", "~~~~~~~", "|a|b|\n|-|-|", "<div>"]
        for input in inputs {
            let document = try parse(input)
            #expect(document.sections.count >= 1)
        }
    }
}
