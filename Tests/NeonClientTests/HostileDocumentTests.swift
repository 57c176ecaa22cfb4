import NeonClient
import NeonCore
import NeonTUI
import Testing

/// Documents written to break a presenter's or a follower's client (issue
/// 35: one slide can knock out a whole audience), found by the audit of
/// sizes and by the screens fuzz target (RELIABILITY.md); each draws every
/// step at the sizes that broke and never traps.
@Suite("Hostile documents draw and never trap")
struct HostileDocumentTests {
    /// Presents `text` at `columns` x `rows`, through every step, drawing each.
    func presentEveryStep(_ text: String, columns: Int, rows: Int) -> [[String]] {
        var m = ReaderModel(mode: .present, room: "h", name: "pat", columns: columns, rows: rows,
                            document: DocumentInfo(title: "h.md", format: .markdown, text: text), at: .zero)
        var frames = [m.view(at: .zero, theme: .monochrome).lines()]
        for step in 1...12 {
            _ = m.handle(.key(.right), at: .milliseconds(step * 100))
            frames.append(m.view(at: .milliseconds(step * 100), theme: .monochrome).lines())
        }
        return frames
    }

    @Test("column ratios near Int.max (they overflowed when summed and multiplied) count as 1000 each", arguments: [(80, 16), (50, 16), (200, 40)])
    func hugeColumnRatios(columns: Int, rows: Int) {
        #expect(CommentCommand(html: "<!-- column_layout: [9223372036854775807, 2] -->") == .columnLayout([1000, 2]))
        let deck = """
        Columns
        ---

        <!-- column_layout: [9223372036854775807, 9223372036854775807] -->

        <!-- column: 0 -->

        Left.

        <!-- column: 1 -->

        Right.

        <!-- end_slide -->

        The end
        ---
        """
        let frames = presentEveryStep(deck, columns: columns, rows: rows)
        #expect(frames[0].contains { $0.contains("Left.") && $0.contains("Right.") }, "\(frames[0].joined(separator: "\n"))")
    }

    @Test("a progress bar of NaN draws empty")
    func notANumber() {
        var buffer = Buffer(width: 10, height: 1)
        LinearBar(fraction: .nan, fill: .plain, theme: .monochrome).draw(x: 0, y: 0, width: 10, into: &buffer)
        #expect(buffer.lines(trimming: false) == ["░░░░░░░░░░"])
    }
}
