import Testing
@testable import NeonCore

/// Code blocks that light their lines in groups, one group a step
/// (presenterm's dynamic highlighting), and line numbers beside code.
@Suite("Lines lit step by step, and line numbers")
struct LitLinesTests {
    /// One slide: words, a pause, a Rust block lighting three groups with
    /// line numbers, a pause, words, and a Python block lighting line 2.
    static let slide = """
    # Code

    Before.

    <!-- pause -->

    ```rust {1|3|all} +line_numbers
    fn main() {
        let x = 1;
        println!("{x}");
    }
    ```

    <!-- pause -->

    After.

    ```python {2}
    a = 1
    b = 2
    ```
    """

    func parse(_ text: String) throws -> Document {
        try Document.parse(title: "deck.md", format: .markdown, text: text)
    }

    /// Whether each row of block `block` is dimmed.
    func dimmed(_ layout: Layout, block: Int) -> [Bool] {
        layout.rows(ofBlock: block).map { layout.line(at: $0).isDimmed }
    }

    @Test("a block with N groups adds N-1 steps where it stands among the pauses; a block with one group adds none")
    func steps() throws {
        let deck = SlideDeck(try parse(Self.slide))
        let slide = deck.slides[0]
        #expect(slide.stops == [.pause(2), .lines(3), .lines(3), .pause(4)])
        #expect(slide.steps == 5 && slide.pauses == [2, 4])
        #expect((0..<5).map { slide.hidden(from: $0) } == [2, 4, 4, 4, nil])
        #expect((0..<5).map { slide.litGroups(at: $0) } == [[3: 0], [3: 0], [3: 1], [3: 2], [3: 2]])
        #expect(SlideDeck(try parse("```rust {1|2}\na\nb\n```\n\n<!-- pause -->\n\nEnd.")).slides[0].stops == [.lines(0), .pause(1)])
    }

    @Test("each step lights its group and dims the other lines; all lights every line; a block shown whole lights its last group")
    func dimmedPerStep() throws {
        let document = try parse(Self.slide)
        var layout = Layout(document: document, width: 60)
        let expected: [[Bool]] = [[false, true, true, true], [true, true, false, true], [false, false, false, false]]
        for (group, rows) in expected.enumerated() {
            layout.litGroups = [3: group]
            #expect(dimmed(layout, block: 3) == rows, "group \(group)")
        }
        layout.litGroups = [:]
        #expect(dimmed(layout, block: 3) == [false, false, false, false], "the last group, all")
        #expect(dimmed(layout, block: 6) == [true, false], "one group: line 2 lit")
        #expect(layout.line(at: layout.rows(ofBlock: 1).lowerBound).isDimmed == false, "words are never dimmed")
        #expect(CodeFence(info: "rust {1|9}").litLines(group: 5) == [9] && CodeFence(info: "rust").litLines(group: 0) == nil)
    }

    @Test("line numbers stand right-aligned in a gutter as wide as the last line's number, at every width from 1 to 120; where they would leave under two columns there is none, and nothing traps")
    func gutterSweep() throws {
        let code = (1...12).map { "line \($0) of the block" }.joined(separator: "\n")
        let document = try parse("Text.\n\n```sh +line_numbers {2|all}\n\(code)\n```\n\n- item\n\n  ```sh +line_numbers\n  one\n  two\n  ```")
        for width in 1...120 {
            let layout = Layout(document: document, width: width)
            for row in layout.rows(ofBlock: 1) {
                let line = layout.line(at: row)
                let number = row - layout.rows(ofBlock: 1).lowerBound + 1
                #expect(DisplayWidth.of(line.prefix) <= width, "width \(width): the gutter fits")
                if width >= 5 {
                    #expect(line.numberColumns == 3 && line.prefix == (number < 10 ? " \(number) " : "\(number) "), "width \(width)")
                } else {
                    #expect(line.numberColumns == 0 && line.prefix.isEmpty, "width \(width): no gutter")
                }
            }
            for row in layout.rows(ofBlock: 3) where layout.line(at: row).part == .text {
                let line = layout.line(at: row)
                #expect(DisplayWidth.of(line.prefix) <= max(width, 1), "width \(width): indent and gutter fit")
                #expect(line.numberColumns == 0 || line.prefix.hasSuffix("\(row - layout.rows(ofBlock: 3).lowerBound + 1) "))
            }
            if width >= 5 {
                #expect(layout.codeOverflow == max(DisplayWidth.of("line 12 of the block") + 3 - width, 0), "width \(width): the gutter leaves less room")
            }
        }
    }
}
