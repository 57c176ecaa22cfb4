import NeonCore
import NeonTUI
import Testing

@Suite("Theme")
struct ThemeTests {
    /// Every `Style` a theme holds.
    func styles(of theme: Theme) -> [Style] {
        Mirror(reflecting: theme).children.compactMap { $0.value as? Style }
    }

    /// Every character a glyph set holds.
    func characters(of glyphs: Glyphs) -> [Character] {
        Mirror(reflecting: glyphs).children.flatMap { child -> [Character] in
            if let character = child.value as? Character { return [character] }
            return child.value as? [Character] ?? []
        }
    }

    @Test("monochrome themes have no colour anywhere")
    func monochrome() {
        for theme in [Theme.monochrome, .monochromeASCII] {
            #expect(!theme.usesColor)
            #expect(styles(of: theme).count == 17)
            #expect(styles(of: theme).allSatisfy { !$0.hasColor && !$0.dim && !$0.italic })
        }
        #expect(Theme.monochrome.strong.bold)
        #expect(Theme.monochrome.highlight.reverse)
    }

    @Test("the neon themes are near-black with a green accent")
    func neon() {
        #expect(Theme.neon.background.bg == .rgb(13, 13, 13))
        #expect(Theme.neon.accent.fg == .rgb(0, 255, 102))
        #expect(Theme.neon.strong == Style(fg: .rgb(0, 255, 102), bg: .rgb(13, 13, 13), bold: true))
        #expect(Theme.neon.barTrack.bg == .rgb(9, 86, 40))
        #expect(Theme.neon256.background.bg == .indexed(233))
        #expect(Theme.neon256.accent.fg == .indexed(47))
        let palette = styles(of: .neon256).flatMap { [$0.fg, $0.bg] }
        #expect(palette.allSatisfy { if case .rgb = $0 { false } else { true } })
        #expect(styles(of: .neon).allSatisfy { $0.bg != .default })
    }

    @Test("ASCII glyphs are seven-bit and every glyph takes one column")
    func glyphs() {
        #expect(characters(of: .ascii).allSatisfy { $0.isASCII })
        #expect(characters(of: .unicode).allSatisfy { DisplayWidth.of($0) == 1 })
        #expect(characters(of: .ascii).allSatisfy { DisplayWidth.of($0) == 1 })
        #expect(Glyphs.unicode.wheel.count == 12 && Glyphs.ascii.wheel.count == 12)
        #expect(Glyphs.unicode.barEighths == ["▏", "▎", "▍", "▌", "▋", "▊", "▉"])
        #expect(Theme.monochromeASCII.glyphs == .ascii)
        #expect(Theme.neon.glyphs == .unicode)
    }

    @Test("a neon theme can switch to ASCII glyphs and keep its colours")
    func asciiColour() throws {
        var theme = Theme.neon
        theme.ascii = true
        let buffer = render(ProgressBar(try progress(0.5), style: .linear, theme: theme), width: 4, height: 1)
        #expect(buffer.lines() == ["##"])
        #expect(buffer[0, 0].style == Theme.neon.barFill)
        #expect(buffer[3, 0].style == Theme.neon.barTrack)
    }
}
