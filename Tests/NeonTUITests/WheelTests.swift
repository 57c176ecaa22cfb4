import NeonCore
import NeonTUI
import Testing

@Suite("ProgressBar, wheel style")
struct WheelTests {
    @Test("an empty wheel is a dotted ring around 0%")
    func empty() throws {
        let buffer = render(ProgressBar(try progress(0), style: .wheel, theme: .monochrome), width: 7, height: 3)
        #expect(snapshot(buffer) == """
             ·····
            · 0%  ·
             ·····
            """)
    }

    @Test("a quarter fills the ring from 12 to 3 o'clock")
    func quarter() throws {
        let buffer = render(ProgressBar(try progress(0.25), style: .wheel, theme: .monochrome), width: 7, height: 3)
        #expect(snapshot(buffer) == """
             ··▄▄▖
            · 25% ▌
             ·····
            """)
    }

    @Test("a half fills the right side down to 6 o'clock")
    func half() throws {
        let buffer = render(ProgressBar(try progress(0.5), style: .wheel, theme: .monochrome), width: 7, height: 3)
        #expect(snapshot(buffer) == """
             ··▄▄▖
            · 50% ▌
             ··▀▀▘
            """)
    }

    @Test("a full wheel is a closed ring around 100%")
    func full() throws {
        let buffer = render(ProgressBar(try progress(1), style: .wheel, theme: .monochrome), width: 7, height: 3)
        #expect(snapshot(buffer) == """
             ▗▄▄▄▖
            ▐100% ▌
             ▝▀▀▀▘
            """)
    }

    @Test("with colour the whole ring shows, filled cells in the accent and the rest in the dim track")
    func colour() throws {
        let buffer = render(ProgressBar(try progress(0.25), style: .wheel), width: 11, height: 3)
        #expect(snapshot(buffer) == """
               ▗▄▄▄▖
              ▐ 25% ▌
               ▝▀▀▀▘
            """)
        let theme = Theme.neon
        #expect(buffer[5, 0].style == theme.accent)
        #expect(buffer[8, 1].style == theme.accent)
        #expect(buffer[4, 0].style == theme.trackLine)
        #expect(buffer[5, 2].style == theme.trackLine)
        #expect(buffer[4, 1].style == theme.strong)
    }

    @Test("any progress lights 12 o'clock and the ring is full only near the end")
    func litCells() throws {
        let tiny = render(ProgressBar(try progress(0.01), style: .wheel), width: 7, height: 3)
        #expect(tiny[3, 0].style == Theme.neon.accent)
        #expect(tiny[4, 0].style == Theme.neon.trackLine)
        let almost = render(ProgressBar(try progress(0.9), style: .wheel), width: 7, height: 3)
        #expect(almost[2, 0].style == Theme.neon.trackLine)
        #expect(almost[1, 0].style == Theme.neon.accent)
    }

    @Test("ASCII glyphs draw the ring with slashes and bars")
    func ascii() throws {
        let buffer = render(ProgressBar(try progress(1), style: .wheel, theme: .monochromeASCII), width: 7, height: 3)
        #expect(snapshot(buffer) == """
             /---\\
            |100% |
             \\---/
            """)
    }

    @Test("too small for the ring, the wheel degrades to (NN%), then NN%, then nothing (a number is never cut)", arguments: [
        (6, 3, ["", "(42%)", ""]), (20, 1, ["       (42%)"]), (3, 3, ["", "42%", ""]), (1, 1, [""]),
    ])
    func degraded(width: Int, height: Int, expected: [String]) throws {
        let buffer = render(ProgressBar(try progress(0.42), style: .wheel), width: width, height: height)
        #expect(buffer.lines() == expected)
    }

    @Test("a zero-sized wheel draws nothing")
    func zero() throws {
        let buffer = render(ProgressBar(try progress(0.42), style: .wheel), width: 0, height: 3)
        #expect(buffer.lines() == ["", "", ""])
    }
}
