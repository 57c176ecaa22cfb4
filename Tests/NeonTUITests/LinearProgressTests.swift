import NeonCore
import NeonTUI
import Testing

@Suite("ProgressBar, linear style")
struct LinearProgressTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var fraction: Double
        var width: Int
        var expected: String
        var testDescription: String { "\(fraction) at width \(width)" }
    }

    /// Eighth-cell steps, shown by the monochrome theme whose track is `░`.
    @Test("the fill has eighth-cell precision", arguments: [
        Case(fraction: 0, width: 8, expected: "░░░░░░░░"),
        Case(fraction: 1.0 / 64, width: 8, expected: "▏░░░░░░░"),
        Case(fraction: 0.5, width: 8, expected: "████░░░░"),
        Case(fraction: 0.99, width: 8, expected: "███████▉"),
        Case(fraction: 1, width: 8, expected: "████████"),
        Case(fraction: 0, width: 10, expected: "░░░░░░░░░░"),
        Case(fraction: 1.0 / 80, width: 10, expected: "▏░░░░░░░░░"),
        Case(fraction: 0.01, width: 10, expected: "░░░░░░░░░░"),
        Case(fraction: 0.5, width: 10, expected: "█████░░░░░"),
        Case(fraction: 0.99, width: 10, expected: "█████████▉"),
        Case(fraction: 1, width: 10, expected: "██████████"),
        Case(fraction: 0, width: 1, expected: "░"),
        Case(fraction: 1.0 / 8, width: 1, expected: "▏"),
        Case(fraction: 0.5, width: 1, expected: "▌"),
        Case(fraction: 0.99, width: 1, expected: "▉"),
        Case(fraction: 1, width: 1, expected: "█"),
        Case(fraction: 0.33, width: 20, expected: "██████▌░░░░░░░░░░░░░"),
        Case(fraction: 0.99, width: 20, expected: "███████████████████▊"),
        Case(fraction: 0.5, width: 0, expected: ""),
    ])
    func eighths(_ test: Case) throws {
        let bar = ProgressBar(try progress(test.fraction), style: .linear, theme: .monochrome)
        let buffer = render(bar, width: test.width, height: 1)
        #expect(buffer.lines() == (test.width == 0 ? [""] : [test.expected]))
        #expect(isColorless(buffer))
    }

    @Test("the colour theme draws the track as the dim green behind the cells")
    func colourTrack() throws {
        let buffer = render(ProgressBar(try progress(0.5 + 1.0 / 16), style: .linear), width: 8, height: 1)
        #expect(buffer.lines() == ["████▌"])
        let theme = Theme.neon
        #expect(buffer[0, 0].style == theme.barFill)
        #expect(buffer[4, 0].style == theme.barFill)
        #expect(buffer[5, 0] == Cell(" ", style: theme.barTrack))
        #expect(theme.barFill.fg == .rgb(0, 255, 102))
        #expect(theme.barTrack.bg == theme.barFill.bg)
    }

    @Test("a tint replaces the accent of the fill")
    func tint() throws {
        let buffer = render(ProgressBar(try progress(1), style: .linear, tint: .rgb(128, 0, 255)), width: 4, height: 1)
        #expect(buffer[3, 0].style.fg == .rgb(128, 0, 255))
        let mono = render(ProgressBar(try progress(1), style: .linear, tint: .red, theme: .monochrome), width: 4, height: 1)
        #expect(isColorless(mono))
    }

    @Test("ASCII glyphs fill whole cells with # over a dotted track")
    func ascii() throws {
        let buffer = render(ProgressBar(try progress(0.55), style: .linear, theme: .monochromeASCII), width: 10, height: 1)
        #expect(buffer.lines() == ["#####....."])
    }

    @Test("the label goes above the bar and the current-value label below when rows allow")
    func labels() throws {
        let model = try progress(30, total: 100, label: "Loading 世界.md", currentValueLabel: "30 of 100")
        let tall = render(ProgressBar(model, style: .linear, theme: .monochrome), width: 12, height: 3)
        #expect(snapshot(tall) == """
            Loading 世…
            ███▌░░░░░░░░
            30 of 100
            """)
        let short = render(ProgressBar(model, style: .linear, theme: .monochrome), width: 12, height: 1)
        #expect(snapshot(short) == "███▌░░░░░░░░")
    }
}
