import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("TabHeader")
struct TabHeaderTests {
    @Test("titles across a row with the current one underlined on the row below")
    func wide() {
        let buffer = render(TabHeader(titles: ["Intro", "Setup", "Usage"], current: 1, offset: 0), width: 30, height: 2)
        #expect(snapshot(buffer) == """
             Intro  Setup  Usage
            ────────━━━━━─────────────────
            """)
        #expect(buffer[8, 0].style == Theme.neon.strong)
        #expect(buffer[8, 0].style.fg == .rgb(0, 255, 102))
        #expect(buffer[8, 1].style == Theme.neon.strong)
        #expect(buffer[1, 0].style == Theme.neon.muted)
        #expect(buffer[0, 1].style == Theme.neon.trackLine)
    }

    @Test("a scrolled header marks tabs hidden on both sides")
    func scrolled() {
        let titles = ["Intro", "世界 Setup", "Usage", "FAQ"]
        let offset = TabHeader.scrollOffset(titles: titles, current: 1, width: 16, previous: 3)
        #expect(offset == 3)
        let buffer = render(TabHeader(titles: titles, current: 1, offset: offset), width: 16, height: 2)
        #expect(snapshot(buffer) == """
            ‹I…  世界 Setup›
            ─────━━━━━━━━━━─
            """)
        #expect(buffer[0, 0].style == Theme.neon.accent)
    }

    @Test("CJK titles scroll to the last tab in a narrow header")
    func narrowCJK() {
        let titles = ["概要", "設定", "使い方"]
        let offset = TabHeader.scrollOffset(titles: titles, current: 2, width: 8, previous: 0)
        #expect(offset == 12)
        let buffer = render(TabHeader(titles: titles, current: 2, offset: offset), width: 8, height: 2)
        #expect(snapshot(buffer) == """
            ‹使い方
            ─━━━━━━─
            """)
    }

    @Test("a tab cut by the strip's edge never shows half a wide character and ends in …")
    func cutWide() {
        let buffer = render(TabHeader(titles: ["概要", "設定"], current: 0, offset: 1), width: 8, height: 1)
        #expect(buffer.lines() == ["‹ 要  …›"])
    }

    @Test("helpers give the widths, strip and offset the caller feeds TabStrip")
    func helpers() {
        #expect(TabHeader.titleWidths(["Intro", "世界", "👩‍💻x"]) == [5, 4, 3])
        #expect(TabHeader.titleWidths(["A very long title"], maxTitleWidth: 6) == [6])
        #expect(TabHeader.stripWidth(forWidth: 10) == 8)
        #expect(TabHeader.stripWidth(forWidth: 2) == 2)
        #expect(TabHeader.stripWidth(forWidth: 0) == 0)
        let titles = ["One", "Two", "Three", "Four"]
        #expect(TabHeader.scrollOffset(titles: titles, current: 3, width: 12, previous: 0)
            == TabStrip.scrollOffset(widths: [3, 3, 5, 4], spacing: 2, current: 3, viewWidth: 10, previous: 0))
    }

    @Test("long titles are clipped to maxTitleWidth and the current one swings inside its field")
    func swingingTitle() {
        let titles = ["A very long section title", "B"]
        let header = TabHeader(titles: titles, current: 0, offset: 0, maxTitleWidth: 10, currentTitleOffset: -3)
        let buffer = render(header, width: 20, height: 2)
        #expect(snapshot(buffer) == """
             ery long s  B
            ─━━━━━━━━━━─────────
            """)
    }

    @Test("a title too wide for its field ends in … unless it is the current one, which swings")
    func cutTitles() {
        let titles = ["A very long section title", "Short", "世界世界世界"]
        let widths = TabHeader.titleWidths(titles, maxTitleWidth: 10)
        #expect(widths == [10, 5, 10])
        let header = TabHeader(titles: titles, current: 1, offset: 0, widths: widths)
        #expect(render(header, width: 40, height: 2).lines() == [" A very lo…  Short  世界世界…", "─────────────━━━━━──────────────────────"])
        let motion = TabHeader.titleMotion(titles[0], fieldWidth: widths[0])
        #expect(motion.amplitude == 15)
        let swinging = TabHeader(titles: titles, current: 0, offset: 0, currentTitleOffset: motion.offset(at: .seconds(3)),
                                 widths: widths)
        #expect(render(swinging, width: 40, height: 1).lines() == [" tion title  Short  世界世界…"])
        let start = TabHeader(titles: titles, current: 0, offset: 0, currentTitleOffset: motion.offset(at: .zero), widths: widths)
        #expect(render(start, width: 40, height: 1).lines() == [" A very lon  Short  世界世界…"])
    }

    @Test("fields never exceed the strip, so a narrow header swings or cuts a title instead of hiding its end")
    func narrowFields() {
        let widths = TabHeader.fieldWidths(TabHeader.titleWidths(["Installation guide", "FAQ"], maxTitleWidth: 24), width: 12)
        #expect(widths == [10, 3])
        let header = TabHeader(titles: ["Installation guide", "FAQ"], current: 1, offset: TabStrip.scrollOffset(
            widths: widths, spacing: TabHeader.spacing, current: 1, viewWidth: 10, previous: 0), widths: widths)
        #expect(render(header, width: 12, height: 1).lines() == ["‹Inst…  FAQ"])
        let first = TabHeader(titles: ["Installation guide", "FAQ"], current: 0, offset: 0, widths: widths)
        #expect(render(first, width: 12, height: 1).lines() == [" Installati›"])
    }

    @Test("ZWJ and skin-tone emoji titles take tmux's widths and the header stays exactly as wide as the row")
    func emojiTitles() {
        let titles = ["👨‍👩‍👧 Family", "👩🏽‍💻 Pairing"]
        #expect(TabHeader.titleWidths(titles) == [9, 12])
        let buffer = render(TabHeader(titles: titles, current: 1, offset: 0), width: 30, height: 2)
        #expect(buffer.lines() == [" 👨‍👩‍👧 Family  👩🏽‍💻 Pairing", "────────────━━━━━━━━━━━━──────"])
    }

    @Test("one row draws the current title underlined")
    func oneRow() {
        let buffer = render(TabHeader(titles: ["Intro", "Setup"], current: 0, offset: 0), width: 20, height: 1)
        #expect(buffer.lines() == [" Intro  Setup"])
        #expect(buffer[1, 0].style == Theme.neon.strong.patched(with: Style(underline: true)))
    }

    @Test("monochrome marks the current tab by bold, underline and the ━ row, without colour")
    func monochrome() {
        let titles = ["Intro", "Setup", "Usage"]
        let offset = TabHeader.scrollOffset(titles: titles, current: 2, width: 12, previous: 0)
        let buffer = render(TabHeader(titles: titles, current: 2, offset: offset, theme: .monochrome),
                            width: 12, height: 2)
        #expect(snapshot(buffer) == """
            ‹Se…  Usage
            ──────━━━━━─
            """)
        #expect(buffer[6, 0].style == Style(bold: true, underline: true))
        #expect(buffer[1, 0].style == .plain)
        #expect(isColorless(buffer))
    }

    @Test("ASCII headers use < > markers and = under the current tab")
    func ascii() {
        let titles = ["Intro", "Setup", "Usage"]
        let offset = TabHeader.scrollOffset(titles: titles, current: 1, width: 12, previous: 0)
        let buffer = render(TabHeader(titles: titles, current: 1, offset: offset, theme: .monochromeASCII),
                            width: 12, height: 2)
        #expect(snapshot(buffer) == """
            <In~  Setup>
            ------=====-
            """)
    }

    @Test("tiny headers", arguments: [
        (0, [String]()), (1, ["I", "━"]), (2, ["In", "━━"]), (3, ["‹S›", "─━─"]),
    ])
    func tiny(width: Int, expected: [String]) {
        let titles = ["Intro", "Setup"]
        let current = width == 3 ? 1 : 0
        let offset = TabHeader.scrollOffset(titles: titles, current: current, width: width, previous: 0)
        let buffer = render(TabHeader(titles: titles, current: current, offset: offset), width: width,
                            height: width == 0 ? 0 : 2)
        #expect(buffer.lines() == expected)
    }

    @Test("no titles draw only the baseline")
    func empty() {
        let buffer = render(TabHeader(titles: [], current: 0, offset: 0), width: 5, height: 2)
        #expect(buffer.lines() == ["", "─────"])
    }
}
