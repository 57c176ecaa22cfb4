import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("PresenceList")
struct PresenceListTests {
    let entries: [PresenceList.Entry] = [
        .init(name: "Ada", role: .presenter, percent: 42),
        .init(name: "Grace Hopper the long", role: .reader, percent: 100, following: true, isSelf: true),
        .init(name: "李小龍", role: .observer, percent: 7),
        .init(name: "Bo", role: .reader, percent: 0),
    ]

    @Test("a row per reader: role marker, name, bar and percent; an observer watches, with no bar or percent")
    func wide() {
        let buffer = render(PresenceList(entries: entries, time: .zero, theme: .monochrome), width: 30, height: 4)
        #expect(snapshot(buffer) == """
            ★ Ada          ████▏░░░░░  42%
            ↳ Grace Hopper ██████████ 100%
            ◦ 李小龍              watching
              Bo           ░░░░░░░░░░   0%
            """)
        #expect(isColorless(buffer))
        #expect(buffer[2, 1].style == Style(bold: true))
    }

    @Test("a verified name (the server's Unix socket vouches for it) is drawn with a ✓ after it")
    func verified() {
        let info = ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader, percent: 50, verified: true)
        let rows = [PresenceList.Entry(info), .init(name: "bob", role: .reader, percent: 0)]
        let buffer = render(PresenceList(entries: rows, time: .zero, theme: .monochrome), width: 30, height: 2)
        #expect(buffer.lines() == ["  ada ✓        █████░░░░░  50%", "  bob          ░░░░░░░░░░   0%"])
    }

    @Test("a long name swings through its field as time passes")
    func swing() {
        let buffer = render(PresenceList(entries: entries, time: .seconds(3), theme: .monochrome), width: 30, height: 2)
        #expect(buffer.lines() == ["★ Ada          ████▏░░░░░  42%", "↳ per the long ██████████ 100%"])
        let later = render(PresenceList(entries: entries, time: .seconds(6), theme: .monochrome), width: 30, height: 2)
        #expect(later.lines()[1] == "↳ Grace Hopper ██████████ 100%")
    }

    @Test("narrow rows drop the bar, then the percent, then the marker; a name a column or two too wide ends in …, a longer one swings", arguments: [
        (11, ["★ Ada   42%", "↳ Grac 100%", "◦ 李…", "  Bo     0%"]),
        (10, ["★ Ada", "↳ Grace Ho", "◦ 李小龍", "  Bo"]),
        (1, ["…", "G", "", "…"]),
    ])
    func narrow(width: Int, expected: [String]) {
        let buffer = render(PresenceList(entries: entries, time: .zero, theme: .monochrome), width: width, height: 4)
        #expect(buffer.lines() == expected)
    }

    @Test("a wide list gives names the room left beside a ten-cell bar")
    func veryWide() {
        let buffer = render(PresenceList(entries: Array(entries.prefix(1)), time: .zero, theme: .monochrome),
                            width: 80, height: 1)
        #expect(buffer.lines() == ["★ Ada" + String(repeating: " ", count: 60) + "████▏░░░░░  42%"])
    }

    @Test("rows beyond the rectangle and empty rectangles are not drawn")
    func clipped() {
        #expect(render(PresenceList(entries: entries, time: .zero), width: 30, height: 1).lines().count == 1)
        #expect(render(PresenceList(entries: entries, time: .zero), width: 0, height: 0).lines().isEmpty)
    }

    @Test("the presenter is in the accent, observers grey, and the bar in the accent on the track")
    func colours() {
        let theme = Theme.neon
        let buffer = render(PresenceList(entries: entries, time: .zero), width: 30, height: 4)
        #expect(buffer[0, 0].style == theme.strong)
        #expect(buffer[2, 0].style == theme.accent)
        #expect(buffer[2, 1].style == theme.text.patched(with: Style(bold: true)))
        #expect(buffer[2, 2].style == theme.muted)
        #expect(buffer[15, 0].style == theme.barFill)
        #expect(buffer[24, 0].style == theme.barTrack)
    }

    @Test("entries come straight from the room's reader list")
    func fromReaderInfo() {
        let info = ReaderInfo(id: ClientID("c7"), name: "Lin", role: .reader, percent: 55, following: true)
        let entry = PresenceList.Entry(info, isSelf: true)
        #expect(entry == PresenceList.Entry(name: "Lin", role: .reader, percent: 55, following: true, isSelf: true))
    }
}
