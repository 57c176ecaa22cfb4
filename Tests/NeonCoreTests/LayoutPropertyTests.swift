import NeonTestSupport
import Testing
@testable import NeonCore

/// Random Markdown mixing ASCII, CJK, emoji sequences and combining marks
/// in headings, paragraphs, lists, quotes and code.
private struct RandomMarkdown {
    var random: SplitMix64

    private static let words = ["a", "to", "the", "reader", "follows", "x", "supercalifragilistic",
                                "漢字", "かな", "한국", "ｆｕｌｌ", "👍", "👍🏽", "👨‍👩‍👧", "🇫🇷", "1️⃣", "❤️",
                                "e\u{301}", "cafe\u{301}", "\u{200B}", "**bold**", "`code`", "[link](u)",
                                "漢\u{302}字", "\u{AC00}\u{11A8}", "か\u{3099}", "字👍🏽", "\u{0600}1", "\r\n"]

    mutating func word() -> String {
        Self.words.randomElement(using: &random)!
    }

    mutating func words(_ range: ClosedRange<Int>) -> String {
        (0..<Int.random(in: range, using: &random)).map { _ in word() }.joined(separator: " ")
    }

    mutating func document() -> String {
        var blocks: [String] = []
        for _ in 0..<Int.random(in: 0...25, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: blocks.append(String(repeating: "#", count: Int.random(in: 1...6, using: &random)) + " " + words(0...5))
            case 1: blocks.append("- " + words(1...30))
            case 2: blocks.append("12. " + words(1...10))
            case 3: blocks.append("> " + words(1...20))
            case 4:
                let lines = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    String(repeating: " ", count: Int.random(in: 0...3, using: &random))
                        + (0..<Int.random(in: 0...12, using: &random)).map { _ in word() }.joined()
                }
                blocks.append("```\n" + lines.joined(separator: "\n") + "\n```")
            default: blocks.append(words(1...60))
            }
        }
        return blocks.joined(separator: "\n\n")
    }
}

@Suite("Layout properties")
struct LayoutPropertyTests {
    @Test("random documents at random widths: anchors round-trip, offsets match the text, no row is too wide")
    func randomDocuments() throws {
        var generator = RandomMarkdown(random: SplitMix64(seed: 0x5EED_2024))
        for _ in 0..<300 {
            let markdown = generator.document()
            let width = Int.random(in: 1...200, using: &generator.random)
            let layout = try Layout(markdown: markdown, width: width)
            try check(layout, generator: &generator)
        }
    }

    private func check(_ layout: Layout, generator: inout RandomMarkdown) throws {
        let blocks = layout.document.blocks
        let characters = blocks.map { Array($0.text) }
        for row in 0..<layout.rowCount {
            let line = layout.line(at: row)
            let anchor = layout.anchor(forRow: row)
            let back = layout.row(for: anchor)
            let expected = line.part == .separator ? row + 1 : row
            #expect(back == expected, "width \(layout.width), row \(row)")
            #expect(layout.anchor(forRow: back).block == anchor.block)

            let loneWide = line.text.count == 1 && DisplayWidth.of(line.text) > layout.width - DisplayWidth.of(line.prefix)
            let cutCode = if case .codeBlock = line.kind { line.isTruncated } else { false }
            #expect(line.displayWidth <= layout.width || loneWide || cutCode, "width \(layout.width): \(line.text)")

            if line.part == .text {
                let isCode = if case .codeBlock = line.kind { true } else { false }
                #expect(isCode || (line.text.first != " " && line.text.last != " "), "\(line.text)")
                let text = characters[line.block]
                let start = anchor.offset
                #expect(start + line.text.count <= text.count)
                #expect(Array(line.text) == Array(text[start..<min(start + line.text.count, text.count)]))
            }
        }
        for (index, block) in blocks.enumerated() {
            let drawn = layout.rows(ofBlock: index).map { layout.line(at: $0).text }.joined()
            switch block.kind {
            case .table, .thematicBreak: break
            default: #expect(drawn.filter { !$0.isWhitespace } == block.text.filter { !$0.isWhitespace })
            }
            for _ in 0..<3 {
                let anchor = Anchor(block: index, offset: Int.random(in: 0...characters[index].count, using: &generator.random))
                let row = layout.row(for: anchor)
                #expect(layout.rows(ofBlock: index).contains(row))
                let landed = layout.anchor(forRow: row)
                #expect(landed.block == index && landed.offset <= anchor.offset)
            }
        }
        let separators = blocks.dropFirst().filter { !$0.isTight }.count
        #expect(blocks.indices.reduce(separators) { $0 + layout.rows(ofBlock: $1).count } == layout.rowCount)
    }

    @Test("random catalogs: cards never take more than three rows")
    func randomCatalogs() throws {
        var generator = RandomMarkdown(random: SplitMix64(seed: 42))
        for _ in 0..<100 {
            let entries = (0..<Int.random(in: 0...5, using: &generator.random)).map { _ in
                "{\"name\": \(quoted(generator.words(0...4))), \"headline\": \(quoted(generator.words(0...40)))}"
            }
            let json = "[{\"type\": \(quoted(generator.words(1...3))), \"body\": [\(entries.joined(separator: ","))]}]"
            let layout = Layout(document: try Document.parse(title: "C", format: .catalog, text: json),
                                width: Int.random(in: 1...80, using: &generator.random))
            for (index, block) in layout.document.blocks.enumerated() where block.kind != .heading(level: 1) {
                #expect(layout.rows(ofBlock: index).count <= 3)
            }
            for line in layout.lines(0..<layout.rowCount) {
                #expect(line.displayWidth <= layout.width || (line.prefix.isEmpty && line.text.count == 1))
            }
        }
    }

    @Test("random text in every format parses (or fails with a message) and lays out")
    func randomText() throws {
        var random = SplitMix64(seed: 99)
        let pool: [Character] = ["#", "*", "_", "`", "~", "[", "]", "(", ")", "!", "\\", ">", "-", "+", "1", ".",
                                 " ", " ", "\n", "\n", "\r\n", "\r", "\t", "a", "b", "漢", "👍", "\u{301}", "\u{1B}",
                                 "{", "}", "\"", ":", ",", "="]
        for _ in 0..<300 {
            let text = String((0..<Int.random(in: 0...300, using: &random)).map { _ in pool.randomElement(using: &random)! })
            for format in DocumentFormat.allCases {
                let document: Document
                do {
                    document = try Document.parse(title: "R", format: format, text: text)
                } catch {
                    #expect(format == .catalog && !error.sentence.isEmpty)
                    continue
                }
                #expect(!document.sections.isEmpty)
                #expect(document.blocks.allSatisfy { !$0.text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" } })
                let layout = Layout(document: document, width: Int.random(in: 1...30, using: &random))
                for line in layout.lines(0..<layout.rowCount) {
                    if case .codeBlock = line.kind, line.part == .text, line.displayWidth > layout.width {
                        #expect(line.isTruncated, "a code line too wide is cut, and scrolls")
                        continue
                    }
                    #expect(line.displayWidth <= layout.width || (line.prefix.isEmpty && line.text.count == 1))
                }
            }
        }
    }

    /// `text` as a JSON string literal.
    private func quoted(_ text: String) -> String {
        let escaped = text.unicodeScalars.map { scalar in
            switch scalar {
            case "\"", "\\": "\\\(scalar)"
            case "\r": "\\r"
            case "\n": "\\n"
            default: String(scalar)
            }
        }
        return "\"" + escaped.joined() + "\""
    }

    @Test("a 1 MB document parses and lays out, and its last row round-trips")
    func hugeDocument() throws {
        var generator = RandomMarkdown(random: SplitMix64(seed: 7))
        var markdown = ""
        var section = 0
        while markdown.utf8.count < 1_000_000 {
            section += 1
            markdown += "# Section \(section)\n\n" + generator.document() + "\n\n"
        }
        let document = try Document.parse(title: "Big", format: .markdown, text: markdown)
        #expect(document.sections.count >= section)
        let layout = Layout(document: document, width: 80)
        let last = layout.rowCount - 1
        #expect(layout.row(for: layout.anchor(forRow: last)) == last)
        #expect(layout.section(atTop: last) == document.sections.count - 1)
        let title = "Section \(section / 2)"
        let middle = try #require(document.sections.firstIndex { $0.title == title })
        #expect(layout.line(at: layout.firstRow(ofSection: middle)).text == title[...])
    }
}
