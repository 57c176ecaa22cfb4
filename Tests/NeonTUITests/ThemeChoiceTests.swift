import NeonTUI
import Testing

@Suite("Choosing the theme from the environment")
struct ThemeChoiceTests {
    @Test("NO_COLOR and monochrome terminals get no colour at all", arguments: [
        ["NO_COLOR": "1", "TERM": "xterm-256color"], ["TERM": "xterm-mono"], ["TERM": "vt100-m"],
        ["TERM": "xterm-mono", "COLORTERM": "truecolor"],
    ])
    func monochrome(environment: [String: String]) {
        let theme = Theme.chosen(for: environment)
        #expect(theme == .monochrome)
        #expect(!theme.usesColor)
    }

    @Test("colour terminals get the neon colours on the terminal's own background", arguments: [
        (["TERM": "xterm-256color"], Theme.neon256), (["TERM": "screen-256color", "COLORTERM": "truecolor"], Theme.neon),
        (["TERM": "xterm", "COLORTERM": "24bit"], Theme.neon),
    ])
    func colour(environment: [String: String], base: Theme) {
        let theme = Theme.chosen(for: environment)
        #expect(theme.usesColor)
        #expect(theme.background == .plain)
        #expect(theme.text == Style(fg: base.text.fg))
        #expect(theme.strong == Style(fg: base.strong.fg, bold: true))
        #expect(theme.code == base.code)
        #expect(theme.status == base.status)
    }
}

@Suite("Theme choice: names and colour depths")
struct ThemeNameChoiceTests {
    @Test("--theme light gives the light palettes, ascii no colour and ASCII glyphs, even with colour")
    func names() {
        #expect(Theme.chosen(for: ["TERM": "xterm-256color"], name: .light) == Theme.light256.onTerminalBackground)
        #expect(Theme.chosen(for: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], name: .light) == Theme.light.onTerminalBackground)
        #expect(Theme.chosen(for: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], name: .ascii) == .monochromeASCII)
        #expect(Theme.chosen(for: ["TERM": "xterm-256color", "NO_COLOR": "1"], name: .light) == .monochrome)
    }

    @Test("16-colour terminals get the ANSI palette, as termenv reads TERM", arguments: ["linux", "xterm-color", "ansi", "screen-16color"])
    func sixteen(term: String) {
        #expect(Theme.chosen(for: ["TERM": term]) == .ansi16)
        #expect(Theme.chosen(for: ["TERM": term], name: .light) == .ansi16)
    }
}
