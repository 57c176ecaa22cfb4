import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTUI
import Testing

@Suite("Monitor view")
struct MonitorViewTests {
    @Test("at 100×30 the screen shows the title with the draft ring, the readers and the feed")
    func snapshot() {
        var m = watchingMonitor()
        _ = m.receive(progress("c1", 47, section: 1), at: .seconds(65))
        _ = m.receive(ServerMessage(seq: 5, .follow(FollowInfo(id: ClientID("c1"), on: true))), at: .seconds(70))
        let crossing = LimitInfo(status: try! DraftCounter(limit: 25).status(forCount: 22), by: ClientID("c2"))
        _ = m.receive(ServerMessage(seq: 6, .limit(crossing)), at: .seconds(71))
        let screen = m.view(at: .zero, theme: .neon)
        let empty = "│" + String(repeating: " ", count: 98) + "│"
        let expected = [
            "Monitor · talk · \"Guide\"                                                    draft 22/25 warning ◕ 3",
            "╭─ Readers (2) " + String(repeating: "─", count: 84) + "╮",
            row("★ bob                                 0%  presenter · tab 1 \"Intro\""),
            row("↳ ada                    ████▋       47%  reader · tab 2 \"Usage\" · following"),
            "╰" + String(repeating: "─", count: 98) + "╯",
            "╭─ Events " + String(repeating: "─", count: 89) + "╮",
        ] + Array(repeating: empty, count: 18) + [
            row(" 00:00 watching talk: 2 readers"),
            row(" 01:05 ada 40% step (47%, tab 2)"),
            row(" 01:10 ada follows the presenter"),
            row(" 01:11 limit warning 22/25 by bob"),
            "╰" + String(repeating: "─", count: 98) + "╯",
            " j/k scroll events · ? help · q quit" + String(repeating: " ", count: 59) + "live",
        ]
        #expect(screen.lines() == expected)
        #expect(screen[8, 27].style == Theme.neon.levelWarning)
        #expect(screen[8, 24].style == Theme.neon.text)
    }

    @Test("? shows the monitor's keys over the screen and any key but the paging keys closes them")
    func help() {
        var m = watchingMonitor()
        _ = m.handle(.key(.character("?")), at: .zero)
        #expect(m.view(at: .zero, theme: .neon).lines().joined().contains("scroll the feed"))
        _ = m.handle(.key(.character("x")), at: .zero)
        #expect(!m.view(at: .zero, theme: .neon).lines().joined().contains("scroll the feed"))
    }

    /// A row of a 100-column box: `text` between the borders.
    private func row(_ text: String) -> String {
        "│" + text + String(repeating: " ", count: max(98 - DisplayWidth.of(text), 0)) + "│"
    }
}
