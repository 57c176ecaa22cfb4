import NeonCore
import NeonTUI
import Testing

/// Code that lights some lines and dims the rest, with line numbers, as the
/// document view draws it.
@Suite("Lit lines and line numbers on screen")
struct LitCodeRenderingTests {
    static let markdown = "```rust {1|3|all} +line_numbers\nfn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n```"

    func screen(group: Int, theme: Theme, width: Int = 30) throws -> Buffer {
        var layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: Self.markdown), width: width)
        layout.litGroups = [0: group]
        var buffer = Buffer(width: width, height: 4)
        DocumentView(layout: layout, top: 0, theme: theme).render(in: buffer.area, into: &buffer)
        return buffer
    }

    @Test("the lit lines keep the code's colour; the others and every line number are dim in the muted colour on the code's background")
    func neon() throws {
        let buffer = try screen(group: 0, theme: .neon)
        #expect(buffer.lines() == ["1 fn main() {", "2     let x = 1;", "3     println!(\"{x}\");", "4 }"])
        let dim = Theme.neon.code.patched(with: Style(fg: Theme.neon.muted.fg, dim: true))
        #expect(buffer.styles(row: 0)[0] == dim && buffer.styles(row: 0)[2] == Theme.neon.code, "line 1 lit, its number dim")
        for row in 1...3 {
            #expect(buffer.styles(row: row)[2] == dim, "row \(row) dimmed")
        }
        let third = try screen(group: 1, theme: .neon)
        #expect(third.styles(row: 2)[6] == Theme.neon.code && third.styles(row: 0)[2] == dim, "the next step lights line 3 only")
        let all = try screen(group: 2, theme: .neon)
        #expect((0...3).allSatisfy { all.styles(row: $0)[2] == Theme.neon.code }, "all lights every line")
        let bytes = FrameWriter.diff(from: nil, to: buffer)
        #expect(bytes.contains("\u{1B}[0;2;38;2;140;140;140;48;2;28;28;28m2 "), "SGR 2 and the muted colour: \(bytes.debugDescription)")
    }

    @Test("without colour the dimmed lines and the numbers are dim only")
    func monochrome() throws {
        let buffer = try screen(group: 1, theme: .monochrome)
        #expect(buffer.styles(row: 0)[4] == Style(dim: true) && buffer.styles(row: 2)[4] == .plain)
        #expect(buffer.styles(row: 2)[0] == Style(dim: true))
    }

    @Test("drawn into every width from 0 to 40 the rows fit and the gutter shows where there is room")
    func narrow() throws {
        for width in 0...40 {
            var layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: Self.markdown), width: max(width, 1))
            layout.litGroups = [0: 1]
            var buffer = Buffer(width: width, height: 4)
            DocumentView(layout: layout, top: 0, theme: .neon).render(in: buffer.area, into: &buffer)
            if width >= 4 { #expect(buffer.lines()[3].hasPrefix("4 "), "width \(width)") }
        }
    }
}
