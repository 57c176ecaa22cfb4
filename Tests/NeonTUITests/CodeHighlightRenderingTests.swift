import NeonCore
import NeonTUI
import Testing

/// Highlighted code as the frame writer puts it on a terminal: each token in
/// its class's colour on the code background, the row's text unchanged.
@Suite("Highlighted code on screen")
struct CodeHighlightRenderingTests {
    static let markdown = "```swift\nlet answer = 42 // ok\n```"

    /// The tokens a highlighter would hand over for `markdown`'s code block.
    static let highlights = CodeHighlights(runs: [0: [
        CodeRun(bytes: 0..<3, kind: .keyword), CodeRun(bytes: 13..<15, kind: .number),
        CodeRun(bytes: 16..<21, kind: .comment),
    ]])

    func screen(theme: Theme, highlighted: Bool, width: Int = 30, codeShift: Int = 0) throws -> Buffer {
        var layout = Layout(document: try Document.parse(title: "t", format: .markdown, text: Self.markdown), width: width)
        if highlighted { layout.highlights = Self.highlights }
        var buffer = Buffer(width: width, height: 1)
        DocumentView(layout: layout, top: 0, codeShift: codeShift, theme: theme).render(in: buffer.area, into: &buffer)
        return buffer
    }

    @Test("the frame writer selects each token's colour before it and the code colour after it, on the code background")
    func escapes() throws {
        let bytes = FrameWriter.diff(from: nil, to: try screen(theme: .neon, highlighted: true))
        let code = "48;2;28;28;28"
        #expect(bytes.contains("\u{1B}[0;38;2;255;121;198;\(code)mlet\u{1B}[0;38;2;190;190;190;\(code)m answer = "))
        #expect(bytes.contains("\u{1B}[0;38;2;189;147;249;\(code)m42"))
        #expect(bytes.contains("\u{1B}[0;3;38;2;125;135;165;\(code)m// ok"))
    }

    @Test("highlighting changes no character of the row, in every theme")
    func sameText() throws {
        for theme in [Theme.neon, .neon256, .light, .light256, .ansi16, .monochrome, .monochromeASCII] {
            #expect(try screen(theme: theme, highlighted: true).lines() == screen(theme: theme, highlighted: false).lines())
            #expect(try screen(theme: theme, highlighted: true).lines() == ["let answer = 42 // ok"])
        }
    }

    @Test("without colour keywords are bold and comments italic, and no colour is selected")
    func monochrome() throws {
        let buffer = try screen(theme: .monochrome, highlighted: true)
        let styles = buffer.styles(row: 0)
        #expect(styles[0] == Style(bold: true))
        #expect(styles[4] == .plain)
        #expect(styles[16] == Style(italic: true))
        let bytes = FrameWriter.diff(from: nil, to: buffer)
        #expect(!bytes.contains("38;"), "no colour: \(bytes.debugDescription)")
        #expect(bytes.contains("\u{1B}[0;1mlet"))
    }

    @Test("the light, 256-colour and 16-colour themes each give keywords their own colour")
    func palettes() throws {
        #expect(try screen(theme: .light, highlighted: true).styles(row: 0)[0].fg == .rgb(207, 34, 46))
        #expect(try screen(theme: .neon256, highlighted: true).styles(row: 0)[0].fg == .indexed(212))
        #expect(try screen(theme: .light256, highlighted: true).styles(row: 0)[0].fg == .indexed(160))
        #expect(try screen(theme: .ansi16, highlighted: true).styles(row: 0)[0].fg == .magenta)
        let bytes = FrameWriter.diff(from: nil, to: try screen(theme: .ansi16, highlighted: true))
        #expect(bytes.contains("\u{1B}[0;35mlet"), "\(bytes.debugDescription)")
    }

    @Test("code scrolled sideways keeps each token's colour on its own characters")
    func shifted() throws {
        let buffer = try screen(theme: .neon256, highlighted: true, width: 12, codeShift: 9)
        #expect(buffer.lines() == ["‹ = 42 // ok"])
        let styles = buffer.styles(row: 0)
        #expect(styles[4].fg == .indexed(141) && styles[5].fg == .indexed(141))
        #expect(styles[3].fg == .indexed(250))
        #expect(styles[7].fg == .indexed(103))
    }
}
