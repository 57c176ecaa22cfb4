import Testing
@testable import NeonCore

@Suite("Text search")
struct TextSearchTests {
    @Test("a search ignores case and gives character offsets, not bytes")
    func caseAndOffsets() throws {
        let search = try #require(TextSearch("NEON"))
        #expect(search.ranges(in: "neon Neon 世界 nEoN") == [0..<4, 5..<9, 13..<17])
        #expect(try #require(TextSearch("世界")).ranges(in: "Neon 世界!") == [5..<7])
        #expect(try #require(TextSearch("ÉTÉ")).ranges(in: "un été chaud") == [3..<6])
        #expect(TextSearch("") == nil)
    }

    @Test("a match never starts or ends inside a grapheme cluster")
    func clusters() throws {
        let decomposed = "cafe\u{301} cafe"
        #expect(try #require(TextSearch("cafe")).ranges(in: decomposed) == [5..<9])
        #expect(try #require(TextSearch("👩")).ranges(in: "👩‍💻 and 👩") == [6..<7])
        #expect(try #require(TextSearch("a\r")).ranges(in: "a\r\nb").isEmpty)
    }

    @Test("matches are found left to right without overlapping")
    func overlapping() throws {
        #expect(try #require(TextSearch("aa")).ranges(in: "aaaaa") == [0..<2, 2..<4])
        #expect(try #require(TextSearch("x")).ranges(in: "").isEmpty)
    }

    static let phrase = "wait for three seconds"

    /// A paragraph whose first row, at `width`, ends with "three".
    static func paragraph(wrappingAt width: Int) -> String {
        String(repeating: "m", count: width - 6) + " three seconds later the wheel shows."
    }

    @Test("a phrase the layout wraps between rows is found at every width, on every row it spans", arguments: [80, 120])
    func wrapped(width: Int) throws {
        let text = "# Intro\n\n" + Self.paragraph(wrappingAt: 80) + "\n\n" + Self.paragraph(wrappingAt: 120)
        let document = try Document.parse(title: "t", format: .markdown, text: text)
        let search = try #require(TextSearch("Three Seconds"))
        let matches = document.matches(of: search)
        #expect(matches == [DocumentMatch(block: 1, characters: 75..<88), DocumentMatch(block: 2, characters: 115..<128)])
        let layout = Layout(document: document, width: width)
        let wrapped = width == 80 ? matches[0] : matches[1]
        let rows = try #require(layout.rows(of: wrapped))
        #expect(rows.count == 2)
        #expect(layout.line(at: rows.lowerBound).text.hasSuffix("three"))
        #expect(layout.spans(of: wrapped, in: 0..<layout.rowCount)
            == [Layout.MatchSpan(row: rows.lowerBound, columns: width - 5..<width),
                Layout.MatchSpan(row: rows.lowerBound + 1, columns: 0..<7)])
        #expect(layout.spans(of: wrapped, in: rows.lowerBound + 1..<rows.upperBound)
            == [Layout.MatchSpan(row: rows.lowerBound + 1, columns: 0..<7)])
        #expect(layout.spans(of: search, in: 0..<layout.rowCount).count == 3)
    }

    @Test("spans count display columns from the row's first column, a list marker included")
    func prefixedSpans() throws {
        let document = try Document.parse(title: "t", format: .markdown, text: "- 世界 and more 世界 words")
        let layout = Layout(document: document, width: 12)
        let search = try #require(TextSearch("世界"))
        #expect(layout.spans(of: search, in: 0..<layout.rowCount)
            == [Layout.MatchSpan(row: 0, columns: 2..<6), Layout.MatchSpan(row: 1, columns: 7..<11)])
    }

    @Test("a match in the part of a card's headline the layout cuts is not shown; the card's name is searched too")
    func cards() throws {
        let catalog = #"[{"type": "Birds", "body": [{"name": "Kestrel hawk", "headline": "A small falcon that hovers over fields and hunts small hawk prey by sight"}]}]"#
        let document = try Document.parse(title: "c", format: .catalog, text: catalog)
        let matches = document.matches(of: try #require(TextSearch("hawk")))
        #expect(matches.map(\.inName) == [true, false])
        let layout = Layout(document: document, width: 20)
        let card = layout.rows(ofBlock: matches[0].block)
        #expect(layout.rows(of: matches[0]) == card.lowerBound..<card.lowerBound + 1)
        #expect(layout.rows(of: matches[1]) == nil)
        #expect(Layout(document: document, width: 80).rows(of: matches[1]) != nil)
    }

    @Test("a 1 MB single line counts every one of its 100,000 matches, each on the rows that show it")
    func megabyteLine() throws {
        let line = String(repeating: "neon sync ", count: 100_000)
        #expect(line.utf8.count == 1_000_000)
        let document = try Document.parse(title: "big", format: .text, text: line)
        let matches = document.matches(of: try #require(TextSearch("sync")))
        #expect(matches.count == 100_000)
        let layout = Layout(document: document, width: 77)
        let rows = matches.compactMap(layout.rows(of:))
        #expect(rows.count == 100_000)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.lowerBound <= $1.lowerBound }, "rows follow document order")
        #expect(rows.allSatisfy { $0.count == 1 }, "word wrapping never cuts a word")
        let code = Layout(document: try Document.parse(title: "big", format: .markdown, text: "```\n" + line + "\n```"), width: 77)
        let codeMatches = code.document.matches(of: try #require(TextSearch("sync")))
        #expect(codeMatches.count == 100_000)
        #expect(codeMatches.allSatisfy { code.rows(of: $0) == 0..<1 }, "a code line is one row, never broken")
        #expect(code.codeOverflow == 999_999 - 77, "the line scrolls sideways by as much as it is too wide")
    }
}
