import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("BackToTopButton")
struct BackToTopButtonTests {
    @Test("the back-to-top button is a small box with the arrow and the key hint")
    func button() {
        #expect(BackToTopButton.size() == (13, 3))
        let buffer = render(BackToTopButton(), width: 13, height: 3)
        #expect(snapshot(buffer) == """
            ╭───────────╮
            │ ↑ top [g] │
            ╰───────────╯
            """)
        #expect(buffer[2, 1].style == Theme.neon.strong)
        #expect(buffer[8, 1].style == Theme.neon.muted)
        #expect(buffer[0, 0].style == Theme.neon.border)
    }

    @Test("the button centres itself and shows another key")
    func centred() {
        let buffer = render(BackToTopButton(key: "t"), width: 17, height: 5)
        #expect(buffer.lines() == ["", "  ╭───────────╮", "  │ ↑ top [t] │", "  ╰───────────╯", ""])
    }

    @Test("without room for the box the button is one row", arguments: [
        (8, 3, ["", "↑ top", ""]), (40, 1, ["↑ top [g]"]), (1, 1, ["↑"]), (0, 0, [String]()),
    ])
    func small(width: Int, height: Int, expected: [String]) {
        #expect(render(BackToTopButton(), width: width, height: height).lines() == expected)
    }

    @Test("ASCII and monochrome buttons")
    func ascii() {
        let buffer = render(BackToTopButton(theme: .monochromeASCII), width: 13, height: 3)
        #expect(snapshot(buffer) == """
            +-----------+
            | ^ top [g] |
            +-----------+
            """)
        #expect(isColorless(buffer))
        #expect(buffer[2, 1].style == Style(bold: true))
    }
}
