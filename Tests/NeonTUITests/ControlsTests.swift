import NeonCore
import NeonTUI
import Testing

@Suite("StatusLine and HelpOverlay")
struct ControlsTests {
    @Test("the status line puts the right part against the right edge and leaves the left part out first",
          arguments: [
              (30, [" README.md           42% 3/10"]),
              (12, ["   42% 3/10"]),
              (5, [" 42…"]),
              (1, ["…"]),
              (0, [String]()),
          ])
    func status(width: Int, expected: [String]) {
        let buffer = render(StatusLine(left: "README.md", right: "42% 3/10"), width: width, height: width == 0 ? 0 : 1)
        #expect(buffer.lines() == expected)
    }

    @Test("the status line is one coloured row, reversed without colour, and handles wide text")
    func statusStyle() {
        let buffer = render(StatusLine(left: "読書会 — 第一章", right: "📖 12%"), width: 23, height: 2)
        #expect(buffer.lines() == [" 読書会 — 第…   📖 12%", ""])
        #expect(buffer.styles(row: 0).allSatisfy { $0 == Theme.neon.status })
        #expect(buffer[0, 1] == .blank)
        let mono = render(StatusLine(left: "a", theme: .monochrome), width: 5, height: 1)
        #expect(mono.styles(row: 0).allSatisfy { $0 == Style(reverse: true) })
    }

    let keys: [HelpOverlay.Line] = [
        .init(key: "q", action: "quit"), .init(key: "/", action: "search"),
        .init(key: "n", action: "next match"), .init(key: "↑↓", action: "scroll"),
    ]

    @Test("the help overlay is a centred box of aligned keys")
    func help() {
        let overlay = HelpOverlay(lines: keys)
        #expect(overlay.size == (18, 6))
        let buffer = render(overlay, width: 24, height: 8)
        #expect(buffer.lines() == [
            "",
            "   ╭─ Keys ─────────╮",
            "   │ q   quit       │",
            "   │ /   search     │",
            "   │ n   next match │",
            "   │ ↑↓  scroll     │",
            "   ╰────────────────╯",
            "",
        ])
        #expect(buffer[5, 2].style == Theme.neon.strong)
        #expect(buffer[9, 2].style == Theme.neon.text)
    }

    @Test("the overlay clears what it covers and leaves the rest")
    func helpCovers() {
        var buffer = Buffer(width: 20, height: 6)
        for y in 0..<6 { buffer.write(String(repeating: "x", count: 20), x: 0, y: y) }
        HelpOverlay(lines: [.init(key: "q", action: "quit")], theme: .monochrome).render(in: buffer.area, into: &buffer)
        #expect(snapshot(buffer) == """
            xxxxxxxxxxxxxxxxxxxx
            xxxx╭─ Keys ──╮xxxxx
            xxxx│ q  quit │xxxxx
            xxxx╰─────────╯xxxxx
            xxxxxxxxxxxxxxxxxxxx
            xxxxxxxxxxxxxxxxxxxx
            """)
    }

    @Test("an action too wide wraps by words under itself, and scrolling counts the rows it takes")
    func helpWraps() {
        let overlay = HelpOverlay(lines: [.init(key: "e E", action: "edit the room's draft / close it"), .init(key: "q", action: "quit")])
        #expect(render(overlay, width: 26, height: 5).lines() == [
            "╭─ Keys ─────────────────╮",
            "│ e E  edit the room's   │",
            "│      draft / close it  │",
            "│ q    quit              │",
            "╰────────────────────────╯",
        ])
        #expect(overlay.visibleRowCount(width: 26, height: 4) == 2)
        #expect(overlay.maxScroll(width: 26, height: 4) == 1)
        #expect(overlay.maxScroll(width: 60, height: 4) == 0)
    }

    @Test("a small area shrinks the overlay and cuts lines", arguments: [
        (10, 4, ["╭─ Keys ─╮", "│ q   q… │", "│ /   s… │", "╰─── j… ─╯"]),
        (1, 1, [""]),
        (0, 0, [String]()),
    ])
    func helpSmall(width: Int, height: Int, expected: [String]) {
        #expect(render(HelpOverlay(lines: keys), width: width, height: height).lines() == expected)
    }
}
