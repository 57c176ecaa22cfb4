import NeonCore
import NeonTUI
import Testing

@Suite("Spinner")
struct SpinnerTests {
    @Test("frames cycle through the braille set, any index taken modulo", arguments: [
        (0, "⠋"), (3, "⠸"), (9, "⠏"), (13, "⠸"), (-1, "⠏"),
    ])
    func frames(frame: Int, glyph: String) {
        let buffer = render(Spinner(frame: frame), width: 4, height: 1)
        #expect(buffer.lines() == [glyph])
    }

    @Test("ASCII frames are - \\ | /")
    func asciiFrames() {
        let glyphs = (0..<5).map { render(Spinner(frame: $0, theme: .monochromeASCII), width: 1, height: 1).lines()[0] }
        #expect(glyphs == ["-", "\\", "|", "/", "-"])
        #expect(Spinner.frameCount(for: .monochromeASCII) == 4)
        #expect(Spinner.frameCount(for: .neon) == 10)
    }

    @Test("the frame comes from the model's SpinnerClock")
    func clock() {
        let clock = SpinnerClock(frameCount: Spinner.frameCount(for: .neon), interval: .milliseconds(80))
        let buffer = render(Spinner(frame: clock.frame(at: .milliseconds(250)), label: "Sync"), width: 10, height: 1)
        #expect(buffer.lines() == ["⠸ Sync"])
    }

    @Test("the label is cut with an ellipsis and wide characters never straddle the edge", arguments: [
        (0, [""]), (1, ["⠋"]), (2, ["⠋"]), (5, ["⠋ 読…"]), (6, ["⠋ 読…"]), (7, ["⠋ 読み…"]), (40, ["⠋ 読み込み中"]),
    ])
    func widths(width: Int, expected: [String]) {
        let buffer = render(Spinner(frame: 0, label: "読み込み中"), width: width, height: 1)
        #expect(buffer.lines() == expected)
    }

    @Test("the glyph is bold accent, or bold alone without colour")
    func styles() {
        #expect(render(Spinner(frame: 0), width: 1, height: 1)[0, 0].style == Theme.neon.strong)
        #expect(render(Spinner(frame: 0, tint: .cyan), width: 1, height: 1)[0, 0].style.fg == .cyan)
        #expect(render(Spinner(frame: 0, label: "x", tint: .cyan, theme: .monochrome), width: 3, height: 1)[0, 0].style
            == Style(bold: true))
    }
}
