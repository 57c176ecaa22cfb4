import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("DraftRing")
struct DraftRingTests {
    @Test("the ring fills in quarter steps and shows the remaining count from limit − 20", arguments: [
        (0, "○"), (100, "◔"), (140, "◑"), (259, "◕"), (260, "◕ 20"), (279, "◕ 1"),
        (280, "● 0"), (289, "● -9"), (290, "-10"), (400, "-120"),
    ])
    func glyphs(count: Int, expected: String) throws {
        let status = try draftStatus(count: count)
        #expect(render(DraftRing(status: status), width: 8, height: 1).lines() == [expected])
        #expect(DraftRing.text(for: status) == expected)
    }

    @Test("blue while short, yellow from limit − 20, red from the limit")
    func levels() throws {
        let theme = Theme.neon
        #expect(render(DraftRing(status: try draftStatus(count: 10)), width: 8, height: 1)[0, 0].style == theme.levelNormal)
        #expect(theme.levelNormal.fg == .rgb(29, 155, 240))
        let warning = render(DraftRing(status: try draftStatus(count: 265)), width: 8, height: 1)
        #expect(warning[0, 0].style == theme.levelWarning)
        #expect(warning[2, 0].style == theme.muted)
        let limit = render(DraftRing(status: try draftStatus(count: 280)), width: 8, height: 1)
        #expect(limit[0, 0].style == theme.levelLimit)
        #expect(limit[2, 0].style == theme.levelLimit)
        let over = render(DraftRing(status: try draftStatus(count: 300)), width: 8, height: 1)
        #expect(over.lines() == ["-20"])
        #expect((0..<3).allSatisfy { over[$0, 0].style == theme.levelLimit })
        #expect(theme.levelLimit.fg == .rgb(244, 33, 46))
    }

    @Test("the pulse at the limit draws the ring bold and reversed")
    func pulse() throws {
        let buffer = render(DraftRing(status: try draftStatus(count: 280), pulse: true), width: 8, height: 1)
        #expect(buffer[0, 0].style == Theme.neon.levelLimit.patched(with: Style(bold: true, reverse: true)))
    }

    @Test("monochrome tells the levels apart by characters and bold or reverse")
    func monochrome() throws {
        let buffer = render(DraftRing(status: try draftStatus(count: 285), theme: .monochrome), width: 8, height: 1)
        #expect(buffer.lines() == ["● -5"])
        #expect(buffer[2, 0].style == Style(bold: true, reverse: true))
        #expect(isColorless(buffer))
        let ascii = render(DraftRing(status: try draftStatus(count: 140), theme: .monochromeASCII), width: 8, height: 1)
        #expect(ascii.lines() == ["+"])
    }

    @Test("a number that does not fit is left out, never cut", arguments: [
        (265, 1, "◕"), (265, 3, "◕"), (265, 4, "◕ 15"), (300, 2, ""), (300, 3, "-20"), (10, 0, ""),
    ])
    func narrow(count: Int, width: Int, expected: String) throws {
        let buffer = render(DraftRing(status: try draftStatus(count: count)), width: width, height: 1)
        #expect(buffer.lines() == [expected])
    }

    @Test("a room limit other than 280 moves every threshold")
    func customLimit() throws {
        #expect(DraftRing.text(for: try draftStatus(count: 29, limit: 50)) == "◑")
        #expect(DraftRing.text(for: try draftStatus(count: 30, limit: 50)) == "◑ 20")
        #expect(DraftRing.text(for: try draftStatus(count: 45, limit: 50)) == "◕ 5")
        #expect(DraftRing.text(for: try draftStatus(count: 60, limit: 50)) == "-10")
    }
}
